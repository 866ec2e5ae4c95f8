//! Running translated code: the context it sees, the interpreter call-out, and the loop that
//! enters the code and handles what it returns.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::addr_of_mut;

use ferrum_isa::imm::Waitcnt;

use super::cache::Code;
use crate::core::lds::{DsOp, Lds};
use crate::core::mem_op::{BufferOp, SmemOp};
use crate::core::salu::Flow;
use crate::core::wave::{Fault, Wave};
use crate::core::{Exec, Tally};

/// Statuses a translated program (and [`step_helper`]) returns.
pub(super) mod status {
    /// Helper only: the instruction completed, continue with the next one.
    pub const NEXT: u32 = 0;
    /// `s_endpgm`.
    pub const END: u32 = 1;
    /// `s_barrier`; the wave's PC is the instruction after it.
    pub const BARRIER: u32 = 2;
    /// A jump the code does not follow itself went to the wave's PC (the watchdog looks at
    /// the count, as after any taken jump).
    pub const JUMP: u32 = 3;
    /// A taken branch found the count past [`super::Ctx::limit`]; the wave's PC is where to
    /// resume.
    pub const BUDGET: u32 = 4;
    /// The interpreter reported a fault (in [`super::Ctx::fault`]).
    pub const FAULT: u32 = 5;
    /// Execution falls through to the wave's PC, which was not translated (no jump taken).
    pub const CONTINUE: u32 = 6;
    /// Strict mode has loads outstanding into registers the segment at the wave's PC
    /// touches: the interpreter runs from there (to the next entry) and performs its checks.
    pub const SLOW: u32 = 7;
}

/// What translated code reads and writes. The layout is `repr(C)` because the code addresses
/// the fields by offset.
#[repr(C)]
pub struct Ctx {
    /// The wave's scalar registers (128 dwords as [`Wave::s`] holds them).
    pub s: *mut u32,
    /// The wave's VGPR rows, 32 dwords each.
    pub v: *mut u32,
    pub scc: *mut bool,
    pub pc: *mut u64,
    /// Instructions past which a taken branch leaves for the watchdog's check
    /// ([`Exec::next_check`]).
    pub limit: u64,
    /// Instructions executed in this run (counted as each one is entered).
    pub insts: u64,
    pub lanes: u64,
    /// Instructions run by the interpreter on the code's behalf.
    pub helper_calls: u64,
    /// Outstanding memory operations the interpreter tracks (strict mode).
    pub pending: u64,
    /// The registers those operations will write ([`Wave::pending_masks`]).
    pub pmask: [u64; 6],
    // Only the helper reads what follows.
    dispatch: *const Exec<'static>,
    wave: *mut Wave,
    lds: *mut Lds<'static>,
    fault: Option<Fault>,
}

/// Runs the interpreter's implementation of the instruction at `pc`.
///
/// # Safety
/// `ctx` is the context [`run_wave`] made for the call in progress.
pub(super) unsafe extern "C" fn step_helper(ctx: *mut Ctx, pc: u64) -> u32 {
    // SAFETY: the caller passes the live context; its pointers are valid for the call.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: as above; translated code does not touch the wave while the helper runs.
    let (d, w, lds) = unsafe { (&*ctx.dispatch, &mut *ctx.wave, &mut *ctx.lds) };
    w.pc = pc;
    ctx.helper_calls += 1;
    // The result is taken apart where the interpreter returns it: moving the whole `Result`
    // out first stalled on the partial stores that wrote it.
    let mut fault = None;
    let r = catch_unwind(AssertUnwindSafe(|| match d.step(w, lds) {
        Ok(Flow::Next) => status::NEXT,
        Ok(Flow::Jump(_)) => status::JUMP,
        Ok(Flow::End) => status::END,
        Ok(Flow::Barrier) => status::BARRIER,
        Err(f) => {
            fault = Some(f);
            status::FAULT
        }
    }));
    mirror_pending(ctx, w);
    match r {
        Ok(code) => {
            if fault.is_some() {
                ctx.fault = fault;
            }
            code
        }
        Err(_) => {
            ctx.fault = Some(Fault::Shader("internal error: the interpreter panicked".into()));
            status::FAULT
        }
    }
}

/// A buffer access, scalar load or LDS access packed at translation (bits 62 and 63 tell
/// which; see [`crate::core::mem_op`]): runs it without looking the instruction up,
/// decoding or dispatching it. When the operation does not complete (a buffer access off its
/// fast path, or a fault) the interpreter runs the instruction and reports what it reports:
/// a buffer access has changed nothing then, and an LDS write that faults part way repeats
/// the same writes before the same fault.
///
/// # Safety
/// `ctx` is the context [`run_wave`] made for the call in progress.
pub(super) unsafe extern "C" fn mem_helper(ctx: *mut Ctx, pc: u64, word: u64) -> u32 {
    let done = {
        // SAFETY: the caller passes the live context; translated code does not touch the
        // wave or the LDS while the helper runs.
        let (c, d, w, lds) =
            unsafe { (&mut *ctx, &*(*ctx).dispatch, &mut *(*ctx).wave, &mut *(*ctx).lds) };
        let op = word & !(3 << 62);
        let run = || match word >> 62 {
            0 => BufferOp::unpack(op).run(w, &d.mem),
            1 => SmemOp::unpack(op).run(w, &d.mem).map(|()| true),
            _ => DsOp::unpack(op).run(w, lds).map(|()| true),
        };
        let done = matches!(catch_unwind(AssertUnwindSafe(run)), Ok(Ok(true)));
        if done {
            mirror_pending(c, w);
        }
        done
    };
    match done {
        true => status::NEXT,
        // SAFETY: as above; the borrows of this function ended.
        false => unsafe { step_helper(ctx, pc) },
    }
}

/// `s_waitcnt` with the immediate `imm` while strict mode tracks loads: retires them as the
/// interpreter's `s_waitcnt` does, without a trip through its decoder and dispatch (which
/// cost more than the retirement in kernels of a few instructions).
///
/// # Safety
/// `ctx` is the context [`run_wave`] made for the call in progress.
pub(super) unsafe extern "C" fn wait_helper(ctx: *mut Ctx, imm: u64) -> u32 {
    // SAFETY: the caller passes the live context; translated code does not touch the wave
    // while the helper runs.
    let (ctx, w) = unsafe { (&mut *ctx, &mut *(*ctx).wave) };
    let c = Waitcnt::from_imm(imm as u16);
    w.wait(Some(u32::from(c.vmcnt)), Some(u32::from(c.lgkmcnt)));
    ctx.helper_calls += 1;
    mirror_pending(ctx, w);
    status::NEXT
}

/// Copies the wave's strict-mode bookkeeping where translated code reads it.
fn mirror_pending(ctx: &mut Ctx, w: &Wave) {
    ctx.pending = w.pending_count() as u64;
    ctx.pmask = w.pending_masks();
}

/// One interpreter step on the run's counts; `None` when the wave ended or reached a barrier,
/// else whether it jumped.
fn interpret_one(
    d: &Exec<'_>,
    ctx: &mut Ctx,
    w: &mut Wave,
    lds: &mut Lds<'_>,
) -> Result<Option<bool>, Fault> {
    ctx.insts += 1;
    ctx.helper_calls += 1;
    ctx.lanes += u64::from(w.exec().count_ones());
    let flow = d.step(w, lds);
    mirror_pending(ctx, w);
    match flow? {
        Flow::End => {
            w.done = true;
            Ok(None)
        }
        Flow::Barrier => {
            w.at_barrier = true;
            Ok(None)
        }
        Flow::Jump(_) => Ok(Some(true)),
        _ => Ok(Some(false)),
    }
}

/// Runs a wave on translated code until it ends, reaches a barrier or faults (the
/// interpreter's `run_wave` contract: same statistics, and the watchdog stops the wave at the
/// same jump with the same message).
pub fn run_wave(
    d: &Exec<'_>,
    code: &Code,
    w: &mut Wave,
    lds: &mut Lds<'_>,
    tally: &mut Tally,
) -> Result<(), Fault> {
    let limit = d.next_check(w, 0);
    let wp: *mut Wave = w;
    let lp: *mut Lds<'_> = lds;
    // SAFETY: `wp` is a unique borrow for the whole function; the raw pointers derived from
    // it are used only while translated code or the helper runs, never beside `w`.
    let mut ctx = unsafe {
        Ctx {
            s: addr_of_mut!((*wp).s).cast(),
            v: (*wp).v.as_mut_ptr().cast(),
            scc: addr_of_mut!((*wp).scc),
            pc: addr_of_mut!((*wp).pc),
            limit,
            insts: 0,
            lanes: 0,
            helper_calls: 0,
            pending: 0,
            pmask: [0; 6],
            dispatch: (d as *const Exec<'_>).cast(),
            wave: wp,
            lds: lp.cast(),
            fault: None,
        }
    };
    // SAFETY: as above; nothing else holds the wave yet.
    mirror_pending(&mut ctx, unsafe { &*wp });
    let result = loop {
        // SAFETY: reading the PC between calls; nothing else holds the wave now.
        let pc = unsafe { (*wp).pc };
        let entered = match code.entry(pc) {
            // SAFETY: `code.func` was translated for this dispatch's key; the context points
            // at this wave, its LDS and the dispatch, all live for the call.
            Some(entry) => unsafe { (code.func)(&mut ctx, entry) },
            None => status::SLOW,
        };
        let jumped = match entered {
            status::END => {
                // SAFETY: the call returned; the wave is ours again.
                unsafe { (*wp).done = true };
                break Ok(());
            }
            status::BARRIER => {
                // SAFETY: as above.
                unsafe { (*wp).at_barrier = true };
                break Ok(());
            }
            status::FAULT => {
                break Err(ctx.fault.take().unwrap_or_else(|| Fault::Shader("fault".into())))
            }
            status::CONTINUE => false,
            // Code the static walk did not reach (an indirect jump), or a segment strict mode
            // must check: interpret one instruction.
            status::SLOW => {
                // SAFETY: no translated code runs; the wave and LDS are borrowed for this step.
                let (w, lds) = unsafe { (&mut *wp, &mut *lp) };
                match interpret_one(d, &mut ctx, w, lds) {
                    Ok(Some(jumped)) => jumped,
                    Ok(None) => break Ok(()),
                    Err(f) => break Err(f),
                }
            }
            _ => true,
        };
        // After a taken jump: the interpreter's watchdog check.
        if jumped && ctx.insts > ctx.limit {
            // SAFETY: as above.
            match d.check_in(unsafe { &*wp }, ctx.insts) {
                Ok(next) => ctx.limit = next,
                Err(f) => break Err(f),
            }
        }
    };
    // SAFETY: as above.
    unsafe { (*wp).executed += ctx.insts };
    tally.instructions += ctx.insts;
    tally.lanes += ctx.lanes;
    tally.helper_calls += ctx.helper_calls;
    result
}
