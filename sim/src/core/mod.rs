//! The shader core: a wave32 RDNA2 interpreter.
//!
//! A workgroup's waves run on one host thread, round-robin between barriers (so LDS needs no
//! locking and results of race-free programs are deterministic); different workgroups run in
//! parallel on host threads. Programs are decoded once per dispatch address (see
//! [`program`]). Anything the interpreter cannot do exactly, it refuses with a fault rather
//! than approximating silently.

mod address;
mod dpp;
pub mod export;
pub mod interp;
pub mod lds;
pub(crate) mod mem_op;
mod mimg;
mod movrel;
pub mod program;
mod rounding;
pub(crate) mod salu;
mod smem;
pub(crate) mod valu;
mod valu_binary;
mod valu_div;
mod valu_ldexp;
pub(crate) mod valu_ops;
mod valu_ternary;
mod valu_unary;
mod vmem;
mod vmem_fast;
mod vmem_flat;
mod vop3p;
mod watchdog;
pub mod wave;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use ferrum_isa::Inst;
use parking_lot::Mutex;

use crate::compute::{DispatchSetup, Workgroup};
use crate::error::GpuError;
use crate::kernel::AddressSpace;
use program::{Prep, Program};
use salu::Flow;
use wave::{Fault, Wave};

/// Memory a wave can reach besides its LDS.
pub struct Mem<'a> {
    pub space: &'a AddressSpace,
    pub timestamp: &'a (dyn Fn() -> u64 + Sync),
}

/// Statistics of one dispatch (for benchmarks).
#[derive(Debug, Default)]
pub struct Stats {
    pub wave_instructions: AtomicU64,
    pub lane_operations: AtomicU64,
    /// Dispatches that ran on translated code, and the instructions of their programs
    /// emitted as host code and as interpreter calls (summed per dispatch).
    pub translated_dispatches: AtomicU64,
    pub native_instructions: AtomicU64,
    pub helper_instructions: AtomicU64,
    /// Instructions translated code handed to the interpreter as it ran.
    pub helper_calls: AtomicU64,
    /// The most instructions one wave has executed (the watchdog budget's headroom).
    pub heaviest_wave: AtomicU64,
}

impl Stats {
    /// Records a dispatch or draw stage that runs on translated code.
    pub fn count_translation(&self, c: &crate::jit::Code) {
        self.translated_dispatches.fetch_add(1, Ordering::Relaxed);
        self.native_instructions.fetch_add(c.native as u64, Ordering::Relaxed);
        self.helper_instructions.fetch_add(c.helper as u64, Ordering::Relaxed);
    }
}

/// Statistics of the waves one host thread ran, added to [`Stats`] once
/// ([`Exec::flush`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub instructions: u64,
    pub lanes: u64,
    pub helper_calls: u64,
    /// The most instructions one finished wave executed.
    pub heaviest: u64,
}

/// Everything the workgroups of one dispatch share.
pub struct Dispatch<'a> {
    pub setup: &'a DispatchSetup,
    pub exec: Exec<'a>,
}

/// What running a wave of one program needs, whichever stage launched it.
pub struct Exec<'a> {
    pub program: &'a Program,
    pub mem: Mem<'a>,
    pub strict: bool,
    /// Instructions each wave may execute ([`crate::SimConfig::wave_budget`]).
    pub budget: u64,
    /// The wall-clock last resort ([`crate::SimConfig::watchdog`]).
    pub deadline: Instant,
    pub stats: &'a Stats,
    /// The most instructions one wave of this job has executed.
    pub heaviest: AtomicU64,
    /// The border-colour table of samplers with BORDER_COLOR_TYPE = REGISTER
    /// (TA_CS_BC_BASE_ADDR for compute, TA_BC_BASE_ADDR for graphics).
    pub border_color_base: u64,
    /// The program translated to host code (`None`: the interpreter runs it).
    pub code: Option<&'a crate::jit::Code>,
}

impl Dispatch<'_> {
    /// Runs all workgroups on up to `threads` host threads; the first error wins.
    ///
    /// With scratch, host thread `t` owns the ring's wave slots `t * waves_per_group ..`, so
    /// no more workgroups run at once than COMPUTE_TMPRING_SIZE.WAVES has slots for.
    pub fn run(&self, threads: usize) -> Result<(), GpuError> {
        let count = self.setup.group_count();
        let wpg = self.setup.waves_per_group();
        let mut threads = threads.clamp(1, count.clamp(1, 64) as usize);
        if let Some(ring) = self.setup.scratch {
            let fit = (ring.waves / wpg) as usize;
            if fit == 0 {
                return Err(GpuError::Unsupported(format!(
                    "a workgroup of {wpg} waves needs more scratch slots than WAVES = {}",
                    ring.waves
                )));
            }
            threads = threads.min(fit);
        }
        if self.setup.vgprs < self.setup.tidig_comp_cnt + 1 {
            return Err(GpuError::Unsupported(format!(
                "{} VGPRs allocated but TIDIG_COMP_CNT initialises {}",
                self.setup.vgprs,
                self.setup.tidig_comp_cnt + 1
            )));
        }
        let next = AtomicU64::new(0);
        let failed = AtomicBool::new(false);
        let error: Mutex<Option<GpuError>> = Mutex::new(None);
        // Workgroups are claimed in runs: one claim per workgroup made the counter's cache
        // line travel between the host threads thousands of times per dispatch, and a thread
        // working through consecutive workgroups reads consecutive memory in most kernels.
        // The runs stay short enough (256 per thread at least) that the last one, which may
        // leave the other threads idle, is a small part of the dispatch.
        let run = (count / (256 * threads as u64)).clamp(1, 16);
        let claims = std::iter::from_fn(|| Some(next.fetch_add(run, Ordering::Relaxed)));
        let claims = claims.take_while(|&first| first < count);
        let groups = claims.flat_map(|first| first..(first + run).min(count));
        let worker = |t: usize| {
            let mut slots = Slots::default();
            for i in groups.clone() {
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                if i % 64 == 0 && Instant::now() > self.exec.deadline {
                    failed.store(true, Ordering::Relaxed);
                    error.lock().get_or_insert(GpuError::Hang(format!(
                        "dispatch of {:#x} out of time at workgroup {i} of {count}",
                        self.exec.program.base
                    )));
                    break;
                }
                let first_slot = t as u32 * wpg;
                let wg = self.setup.workgroup(i);
                if let Err(e) = self.run_workgroup(&wg, first_slot, &mut slots) {
                    failed.store(true, Ordering::Relaxed);
                    error.lock().get_or_insert(e);
                }
            }
            self.exec.flush(&slots.tally);
        };
        if threads == 1 {
            worker(0);
        } else {
            std::thread::scope(|s| {
                for t in 0..threads {
                    let worker = &worker;
                    s.spawn(move || worker(t));
                }
            });
        }
        match error.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Runs one workgroup on the host thread's reused waves and LDS (`slots`): each wave is
    /// reset to the state [`Wave::new`] gives, then initialised as the SPI would.
    fn run_workgroup(
        &self,
        wg: &Workgroup,
        first_slot: u32,
        slots: &mut Slots,
    ) -> Result<(), GpuError> {
        let setup = self.setup;
        slots.lds.clear();
        slots.lds.resize(setup.lds_bytes as usize, 0);
        let n = setup.waves_of(wg) as usize;
        if slots.waves.len() < n {
            slots.waves.resize_with(n, || Wave::new(setup.vgprs, self.exec.strict));
        }
        let mode =
            setup.float_mode | (setup.dx10_clamp as u32) << 8 | (setup.ieee_mode as u32) << 9;
        let waves = &mut slots.waves[..n];
        for (index, w) in waves.iter_mut().enumerate() {
            w.reset();
            let exec = setup.init_wave(wg, first_slot, index as u32, &mut w.s, &mut w.v);
            w.set_exec(exec);
            w.pc = self.exec.program.base;
            w.wave_id = index as u32;
            w.mode = mode;
        }
        loop {
            for w in waves.iter_mut().filter(|w| !w.done && !w.at_barrier) {
                let mut lds = lds::Lds { bytes: &mut slots.lds, strict: self.exec.strict };
                self.exec
                    .run_counted(w, &mut lds, &mut slots.tally)
                    .map_err(|f| self.exec.to_error(w, f))?;
            }
            if waves.iter().all(|w| w.done) {
                return Ok(());
            }
            // Every live wave is at the barrier: release it.
            for w in waves.iter_mut() {
                w.at_barrier = false;
            }
        }
    }
}

/// What one host thread keeps between the workgroups it runs: the waves and LDS it reuses
/// (no allocation per wave) and its statistics.
#[derive(Default)]
struct Slots {
    waves: Vec<Wave>,
    lds: Vec<u8>,
    tally: Tally,
}

impl Exec<'_> {
    pub fn to_error(&self, w: &Wave, f: Fault) -> GpuError {
        match f {
            Fault::Vm(v) => GpuError::VmFault(v),
            Fault::Shader(what) => GpuError::Shader { pc: w.pc, what },
        }
    }

    /// Runs the wave on translated code when the program has it, else on the interpreter,
    /// until it ends or reaches a barrier.
    pub fn run(&self, w: &mut Wave, lds: &mut lds::Lds<'_>) -> Result<(), Fault> {
        let mut tally = Tally::default();
        let r = self.run_counted(w, lds, &mut tally);
        self.flush(&tally);
        r
    }

    /// [`Exec::run`], adding the statistics to `tally` instead of the shared counters (a
    /// worker flushes once: atomics on lines both host threads write cost more than a short
    /// wave's whole run).
    pub fn run_counted(
        &self,
        w: &mut Wave,
        lds: &mut lds::Lds<'_>,
        tally: &mut Tally,
    ) -> Result<(), Fault> {
        let r = match self.code {
            Some(code) => crate::jit::run_wave(self, code, w, lds, tally),
            None => self.run_wave(w, lds, tally),
        };
        if w.done {
            tally.heaviest = tally.heaviest.max(w.executed);
        }
        r
    }

    /// Adds a tally to the dispatch statistics and the job's heaviest wave.
    pub fn flush(&self, t: &Tally) {
        if t.instructions != 0 || t.lanes != 0 {
            self.stats.wave_instructions.fetch_add(t.instructions, Ordering::Relaxed);
            self.stats.lane_operations.fetch_add(t.lanes, Ordering::Relaxed);
        }
        if t.helper_calls != 0 {
            self.stats.helper_calls.fetch_add(t.helper_calls, Ordering::Relaxed);
        }
        self.record_end(t.heaviest);
    }

    /// Runs until the wave ends or reaches a barrier (the interpreter).
    pub fn run_wave(
        &self,
        w: &mut Wave,
        lds: &mut lds::Lds<'_>,
        tally: &mut Tally,
    ) -> Result<(), Fault> {
        let mut count = 0u64;
        let mut lanes = 0u64;
        let mut limit = self.next_check(w, 0);
        let result = loop {
            count += 1;
            lanes += w.exec().count_ones() as u64;
            match self.step(w, lds) {
                Ok(Flow::Next) => {}
                Ok(Flow::Jump(_)) => {
                    if count > limit {
                        match self.check_in(w, count) {
                            Ok(next) => limit = next,
                            Err(f) => break Err(f),
                        }
                    }
                }
                Ok(Flow::End) => {
                    w.done = true;
                    break Ok(());
                }
                Ok(Flow::Barrier) => {
                    w.at_barrier = true;
                    break Ok(());
                }
                Err(e) => break Err(e),
            }
        };
        w.executed += count;
        tally.instructions += count;
        tally.lanes += lanes;
        result
    }

    /// Executes one instruction and advances the PC.
    pub(crate) fn step(&self, w: &mut Wave, lds: &mut lds::Lds<'_>) -> Result<Flow, Fault> {
        let d = self.program.at(w.pc).map_err(Fault::Shader)?;
        let next = w.pc + 4 * d.len as u64;
        let flow = match &d.inst {
            Inst::Sop2(i) => salu::sop2(w, i, d.form).map(|_| Flow::Next),
            Inst::Sopk(i) => salu::sopk(w, i),
            Inst::Sop1(i) => salu::sop1(w, i, next),
            Inst::Sopc(i) => salu::sopc(w, i).map(|_| Flow::Next),
            Inst::Sopp(i) => salu::sopp(w, i, next),
            Inst::Smem(i) => smem::exec(w, i, d.form, &self.mem).map(|_| Flow::Next),
            Inst::Vop1(_) | Inst::Vop2(_) | Inst::Vopc(_) | Inst::Vop3(_) => match &d.prep {
                Prep::Valu(v) => valu::exec(w, v).map(|_| Flow::Next),
                _ => wave::fault(format!("{}: not a VALU form", d.inst.op().name())),
            },
            Inst::Vop3p(i) => vop3p::exec(w, i).map(|_| Flow::Next),
            Inst::Vintrp(i) => interp::exec(w, i, lds).map(|_| Flow::Next),
            Inst::Exp(e) => export::exec(w, e).map(|_| Flow::Next),
            Inst::Mimg(i) => {
                mimg::exec(w, i, &self.mem, self.border_color_base).map(|_| Flow::Next)
            }
            Inst::Ds(i) => {
                let Prep::Ds(kind) = &d.prep else { return Err(Fault::Shader("DS".into())) };
                lds::exec(w, i, kind.as_ref(), lds).map(|_| Flow::Next)
            }
            Inst::Mubuf(i) | Inst::Mtbuf(i) => {
                let Prep::Vmem(kind) = d.prep else { return Err(Fault::Shader("MUBUF".into())) };
                let mtbuf = matches!(d.inst, Inst::Mtbuf(_));
                vmem::buffer(w, i, d.form, kind, &self.mem, mtbuf).map(|_| Flow::Next)
            }
            Inst::Flat(i) => {
                let Prep::Vmem(kind) = d.prep else { return Err(Fault::Shader("FLAT".into())) };
                vmem_flat::flat(w, i, d.form, kind, &self.mem, lds).map(|_| Flow::Next)
            }
        }
        .map_err(|e| match e {
            Fault::Shader(s) => Fault::Shader(format!("{}: {s}", d.inst.op().name())),
            other => other,
        })?;
        w.pc = match flow {
            Flow::Jump(target) => target,
            _ => next,
        };
        Ok(flow)
    }
}
