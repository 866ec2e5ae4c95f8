//! Program discovery and function construction: which instructions a program reaches, and
//! one Cranelift block per instruction joined by the program's own control flow.

use std::collections::{BTreeMap, BTreeSet};
use std::mem::offset_of;
use std::ops::Range;
use std::sync::OnceLock;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, BlockArg, InstBuilder, MemFlags, SigRef, Signature, Value,
};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};
use ferrum_isa::tables::Field;
use ferrum_isa::{Inst, Opcode as O};

use super::cache::{Code, Entry, Key};
use super::emit_salu::{self, Em, Salu};
use super::emit_valu::{self, VPlan};
use super::flushed;
use super::loops;
use super::regcache::{param_types, Carried, RegCache};
use super::run::{mem_helper, status, step_helper, wait_helper, Ctx};
use crate::core::lds::DsOp;
use crate::core::mem_op::{BufferOp, SmemOp};
use crate::core::program::{Decoded, Prep, Program};

/// Instructions translated per program at most: translation time grows faster than linearly
/// with the size of the one function a program becomes (a 4800-instruction spill test took
/// seconds), so bigger programs stay on the interpreter.
const MAX_INSTRUCTIONS: usize = 1500;

/// How one instruction is emitted.
pub(super) enum Plan {
    Salu(Salu),
    Valu(VPlan),
    /// A branch: condition, target.
    Branch(Option<emit_salu::Cond>, u64),
    End,
    Barrier,
    /// No effect unless strict mode has loads outstanding (`s_waitcnt`, scheduling hints);
    /// `s_waitcnt`'s immediate, which [`wait_helper`] then retires by without the interpreter.
    Nothing(Option<u16>),
    /// A buffer access, scalar load or LDS access through its direct call-out
    /// ([`mem_helper`]), which performs strict mode's checks itself.
    Mem(MemCall),
    Helper,
}

/// A memory instruction packed for [`mem_helper`] (see [`crate::core::mem_op`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum MemCall {
    Buffer(u64),
    Smem(u64),
    Ds(u64),
}

impl MemCall {
    fn of(d: &Decoded) -> Option<MemCall> {
        match (&d.inst, d.prep) {
            (Inst::Mubuf(i), Prep::Vmem(Some(kind))) => {
                BufferOp::new(i, kind)?.pack().map(MemCall::Buffer)
            }
            (Inst::Smem(i), _)
                if matches!(
                    i.op,
                    O::S_LOAD_DWORD
                        | O::S_LOAD_DWORDX2
                        | O::S_LOAD_DWORDX4
                        | O::S_LOAD_DWORDX8
                        | O::S_LOAD_DWORDX16
                ) =>
            {
                let count = d.form.dwords(Field::Sdata) as u32;
                SmemOp::from((i, count)).pack().map(MemCall::Smem)
            }
            (Inst::Ds(i), Prep::Ds(Some(kind))) if !i.gds => {
                DsOp::new(i, kind).pack().map(MemCall::Ds)
            }
            _ => None,
        }
    }
}

/// What the walk found.
struct Walk {
    /// Instructions by PC, with the PC after each.
    insts: BTreeMap<u64, (Decoded, u64)>,
    /// Some instruction may change the float mode at run time.
    changes_mode: bool,
}

fn isa() -> Option<OwnedTargetIsa> {
    static ISA: OnceLock<Option<OwnedTargetIsa>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        let builder = cranelift_native::builder().ok()?;
        builder.finish(settings::Flags::new(flags)).ok()
    })
    .clone()
}

/// Translates `program`; returns the span of code words the result depends on, and the code
/// (`None`: the program runs on the interpreter, which has been logged).
pub(super) fn translate(program: &Program, key: Key) -> (Range<usize>, Option<Code>) {
    let walk = match walk(program) {
        Ok(w) => w,
        Err((span, why)) => {
            log::info!("sim jit: program at {:#x} runs on the interpreter: {why}", program.base);
            return (span, None);
        }
    };
    let span = span_of(program, &walk);
    let Some(isa) = isa() else {
        log::warn!("sim jit: no Cranelift backend for this host; interpreting");
        return (span, None);
    };
    let start = std::time::Instant::now();
    match build(program, key, &walk, isa) {
        Ok(code) => {
            log::debug!(
                "sim jit: program at {:#x}: {} instructions ({} native) in {:.1} ms",
                program.base,
                walk.insts.len(),
                code.native,
                start.elapsed().as_secs_f64() * 1e3
            );
            (span, Some(code))
        }
        Err(why) => {
            log::warn!("sim jit: program at {:#x} not translated: {why}", program.base);
            (span, None)
        }
    }
}

fn span_of(program: &Program, walk: &Walk) -> Range<usize> {
    let first = walk.insts.keys().next().copied().unwrap_or(program.base);
    let end = walk.insts.values().map(|(_, next)| *next).max().unwrap_or(first);
    ((first - program.base) / 4) as usize..((end - program.base) / 4) as usize
}

/// Finds every instruction reachable from the entry by fall-through and direct branches.
fn walk(program: &Program) -> Result<Walk, (Range<usize>, String)> {
    let mut insts = BTreeMap::new();
    let mut todo = vec![program.base];
    let mut changes_mode = false;
    let mut end = 0usize;
    while let Some(pc) = todo.pop() {
        if insts.contains_key(&pc) {
            continue;
        }
        let span = 0..end;
        if insts.len() >= MAX_INSTRUCTIONS {
            return Err((span, format!("more than {MAX_INSTRUCTIONS} instructions")));
        }
        let d = *program.at(pc).map_err(|e| (span.clone(), e))?;
        let next = pc + 4 * u64::from(d.len);
        end = end.max(((next - program.base) / 4) as usize);
        let op = d.inst.op();
        changes_mode |= matches!(
            op,
            O::S_SETREG_B32 | O::S_SETREG_IMM32_B32 | O::S_DENORM_MODE | O::S_ROUND_MODE
        );
        let (target, falls) = successors(&d, next);
        if let Some(t) = target {
            todo.push(t);
        }
        if falls {
            todo.push(next);
        }
        insts.insert(pc, (d, next));
    }
    Ok(Walk { insts, changes_mode })
}

/// The direct branch target of an instruction, and whether it can fall through.
fn successors(d: &Decoded, next: u64) -> (Option<u64>, bool) {
    match &d.inst {
        Inst::Sopp(i) => {
            let target = next.wrapping_add((i.simm16 as i16 as i64 * 4) as u64);
            match i.op {
                O::S_ENDPGM | O::S_CODE_END => (None, false),
                O::S_BRANCH => (Some(target), false),
                O::S_CBRANCH_SCC0
                | O::S_CBRANCH_SCC1
                | O::S_CBRANCH_VCCZ
                | O::S_CBRANCH_VCCNZ
                | O::S_CBRANCH_EXECZ
                | O::S_CBRANCH_EXECNZ => (Some(target), true),
                _ => (None, true),
            }
        }
        // Indirect jumps and calls leave the translated code (the caller follows the PC).
        Inst::Sop1(i) if matches!(i.op, O::S_SETPC_B64 | O::S_SWAPPC_B64 | O::S_RFE_B64) => {
            (None, false)
        }
        _ => (None, true),
    }
}

fn plan(d: &Decoded, next: u64, key: Key, floats: bool) -> Plan {
    match &d.inst {
        Inst::Sopp(i) => {
            let target = next.wrapping_add((i.simm16 as i16 as i64 * 4) as u64);
            match i.op {
                O::S_ENDPGM => Plan::End,
                O::S_BARRIER => Plan::Barrier,
                O::S_BRANCH => Plan::Branch(None, target),
                O::S_WAITCNT => Plan::Nothing(Some(i.simm16)),
                O::S_NOP | O::S_CLAUSE | O::S_INST_PREFETCH => Plan::Nothing(None),
                O::S_WAITCNT_DEPCTR | O::S_SETPRIO | O::S_SLEEP => Plan::Nothing(None),
                op => match emit_salu::branch_cond(op) {
                    Some(c) => Plan::Branch(Some(c), target),
                    None => Plan::Helper,
                },
            }
        }
        Inst::Vop1(_) | Inst::Vop2(_) | Inst::Vopc(_) | Inst::Vop3(_) => match &d.prep {
            Prep::Valu(v) => emit_valu::plan(v, key, floats).map_or(Plan::Helper, Plan::Valu),
            _ => Plan::Helper,
        },
        Inst::Mubuf(_) | Inst::Smem(_) | Inst::Ds(_) => {
            MemCall::of(d).map_or(Plan::Helper, Plan::Mem)
        }
        inst => emit_salu::plan(inst, d.form).map_or(Plan::Helper, Plan::Salu),
    }
}

/// Whether the interpreter may continue somewhere else than the instruction after this one
/// and the branch targets the walk follows (indirect jumps, calls, traps, branches that are
/// not native).
fn may_jump(d: &Decoded) -> bool {
    match &d.inst {
        Inst::Sopp(_) => true,
        Inst::Sopk(i) => i.op == O::S_CALL_B64,
        Inst::Sop1(i) => matches!(i.op, O::S_SETPC_B64 | O::S_SWAPPC_B64 | O::S_RFE_B64),
        _ => false,
    }
}

/// The values every instruction's code uses.
pub(super) struct Env {
    pub ctx: Value,
    pub s: Value,
    pub v: Value,
    pub scc: Value,
    pub helper: Value,
    pub helper_sig: SigRef,
    /// [`mem_helper`]'s signature: the context, the PC and the packed operation.
    pub mem_sig: SigRef,
}

pub(super) const FLAGS: MemFlags = MemFlags::trusted();

/// Registers an instruction reads or writes, in the layout of [`Ctx::pmask`]: a superset of
/// those the interpreter checks against outstanding loads in strict mode.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Regs(pub [u64; 6]);

impl Regs {
    pub fn sgpr(&mut self, r: usize) {
        if r < 128 {
            self.0[r / 64] |= 1 << (r % 64);
        }
    }
    pub fn vgpr(&mut self, r: u32) {
        let bit = 128 + r as usize;
        if bit < 384 {
            self.0[bit / 64] |= 1 << (bit % 64);
        }
    }
    pub fn add(&mut self, other: Regs) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

fn field(b: &mut FunctionBuilder, ctx: Value, offset: usize) -> Value {
    b.ins().load(types::I64, FLAGS, ctx, offset as i32)
}

fn build(program: &Program, key: Key, walk: &Walk, isa: OwnedTargetIsa) -> Result<Code, String> {
    let ptr = isa.pointer_type();
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa.clone(),
        cranelift_module::default_libcall_names(),
    ));
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(types::I32));
    sig.returns.push(AbiParam::new(types::I32));
    let id = module.declare_function("wave", Linkage::Local, &sig).map_err(|e| e.to_string())?;
    let mut fctx = module.make_context();
    fctx.func.signature = sig;
    let mut fbctx = FunctionBuilderContext::new();
    let (starts, counts) = {
        let mut b = FunctionBuilder::new(&mut fctx.func, &mut fbctx);
        let out = body(&mut b, key, walk, &*isa);
        b.seal_all_blocks();
        b.finalize();
        out
    };
    module.define_function(id, &mut fctx).map_err(|e| format!("{e:?}"))?;
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let raw = module.get_finalized_function(id);
    // SAFETY: the function was built with exactly `Entry`'s signature in the host's default
    // (C) calling convention.
    let func: Entry = unsafe { std::mem::transmute::<*const u8, Entry>(raw) };
    let words = program.words().len();
    let mut entries = vec![u32::MAX; words];
    for (n, pc) in starts.iter().enumerate() {
        entries[((pc - program.base) / 4) as usize] = n as u32;
    }
    Ok(Code::new(func, program.base, entries, counts, module))
}

/// Where segments start (see [`super::regcache`]): the entry, branch targets, and the
/// instructions after a branch or an exit; interpreter calls are segments of their own.
/// These are also the only places the function can be entered.
fn segment_starts(base: u64, plans: &[(u64, u64, Plan)]) -> BTreeSet<u64> {
    let mut starts = BTreeSet::from([base]);
    for (pc, next, plan) in plans {
        match plan {
            Plan::Helper | Plan::Mem(_) | Plan::Nothing(_) | Plan::End | Plan::Barrier => {
                starts.insert(*pc);
                starts.insert(*next);
            }
            Plan::Branch(_, target) => {
                starts.insert(*target);
                starts.insert(*next);
            }
            Plan::Salu(_) | Plan::Valu(_) => {}
        }
    }
    let known: BTreeSet<u64> = plans.iter().map(|p| p.0).collect();
    starts.retain(|pc| known.contains(pc));
    starts
}

/// The registers the native instructions of the segment starting at `plans[0]` touch.
fn segment_regs(plans: &[(u64, u64, Plan)], starts: &BTreeSet<u64>) -> Regs {
    let mut m = Regs::default();
    for (k, (pc, _, plan)) in plans.iter().enumerate() {
        if k > 0 && starts.contains(pc) {
            break;
        }
        let r = match plan {
            Plan::Salu(s) => emit_salu::regs(s),
            Plan::Valu(v) => emit_valu::regs(v),
            _ => continue,
        };
        for (a, b) in m.0.iter_mut().zip(r.0) {
            *a |= b;
        }
    }
    m
}

/// Emits the whole function; returns the segment starts (in entry-index order) and the
/// (native, helper) instruction counts.
fn body(
    b: &mut FunctionBuilder,
    key: Key,
    walk: &Walk,
    isa: &dyn TargetIsa,
) -> (Vec<u64>, (usize, usize)) {
    let ptr = isa.pointer_type();
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];
    let index = b.block_params(entry)[1];
    let mut hsig = Signature::new(isa.default_call_conv());
    hsig.params.push(AbiParam::new(ptr));
    hsig.params.push(AbiParam::new(types::I64));
    hsig.returns.push(AbiParam::new(types::I32));
    let helper_sig = b.import_signature(hsig.clone());
    hsig.params.push(AbiParam::new(types::I64));
    let mem_sig = b.import_signature(hsig);
    let helper_fn: unsafe extern "C" fn(*mut Ctx, u64) -> u32 = step_helper;
    let env = Env {
        ctx,
        s: field(b, ctx, std::mem::offset_of!(Ctx, s)),
        v: field(b, ctx, std::mem::offset_of!(Ctx, v)),
        scc: field(b, ctx, std::mem::offset_of!(Ctx, scc)),
        helper: b.ins().iconst(ptr, helper_fn as usize as i64),
        helper_sig,
        mem_sig,
    };
    let floats = !walk.changes_mode && key.mode & 3 == 0;
    let plans: Vec<(u64, u64, Plan)> = walk
        .insts
        .iter()
        .map(|(pc, (d, next))| (*pc, *next, plan(d, *next, key, floats)))
        .collect();
    let starts = segment_starts(walk.insts.keys().next().copied().unwrap_or(0), &plans);
    let carry = loops::carry_sets(&plans, &starts);
    let native_loops = loops::native_loops(&plans);
    let loops_of = |pc: u64| loops::mask(&native_loops, pc);
    let ftz = key.mode & 0x30 == 0;
    let sees_all_jumps = !walk
        .insts
        .values()
        .zip(&plans)
        .any(|((d, _), p)| matches!(p.2, Plan::Helper) && may_jump(d));
    let flushed = flushed::flushed_in(&plans, &starts, ftz && floats && sees_all_jumps);
    let targets: Targets = starts
        .iter()
        .map(|&pc| {
            let block = b.create_block();
            let carry = carry.get(&pc).cloned().unwrap_or_default();
            let loops = loops_of(pc);
            let inner = (loops != 0).then(|| b.create_block());
            for ty in param_types(&carry) {
                b.append_block_param(block, ty);
                if let Some(inner) = inner {
                    b.append_block_param(inner, ty);
                }
            }
            (pc, Target { block, inner, loops, carry })
        })
        .collect();
    // The jump table enters a segment that carries registers through a block loading them.
    let entries: Vec<Block> = targets
        .values()
        .map(|t| if t.carry.is_empty() { t.block } else { b.create_block() })
        .collect();
    let bad = b.create_block();
    let mut switch = Switch::new();
    for (n, block) in entries.iter().enumerate() {
        switch.set_entry(n as u128, *block);
    }
    switch.emit(b, index, bad);
    b.switch_to_block(bad);
    let r = b.ins().iconst(types::I32, i64::from(status::FAULT));
    b.ins().return_(&[r]);
    for (t, stub) in targets.values().zip(&entries).filter(|(t, _)| !t.carry.is_empty()) {
        b.switch_to_block(*stub);
        jump_to(b, &env, &mut RegCache::default(), t, 0);
    }

    let mut k = 0;
    while k < plans.len() {
        let pc = plans[k].0;
        let end =
            (k + 1..plans.len()).find(|&j| starts.contains(&plans[j].0)).unwrap_or(plans.len());
        let loops = loops_of(pc);
        let seg = Segment { plans: &plans[k..end], walk, targets: &targets, ftz, loops };
        // Code after an exit is always a segment start; were it not, it would be unreachable
        // and gets a block of its own.
        let known = flushed.get(&pc).cloned().unwrap_or_default();
        // Inside native loops the check covers the registers of the whole loops: no load can
        // be issued or retired in them, so jumps within them skip it (see `jump_to`).
        let mut regs = segment_regs(&plans[k..], &starts);
        regs.add(loops::regs(&native_loops, loops));
        let mut rc = enter_segment(b, &env, pc, targets.get(&pc), known, regs);
        if writes_vgprs(seg.plans) {
            // A version without EXEC blends for the common full EXEC, and the general one.
            let exec = rc.exec(b, &env);
            let full = b.ins().icmp_imm(IntCC::Equal, exec, -1);
            let (fast, general) = (b.create_block(), b.create_block());
            b.ins().brif(full, fast, &[], general, &[]);
            for (block, full) in [(fast, true), (general, false)] {
                b.switch_to_block(block);
                let mut rc = rc.clone();
                rc.set_full(full);
                emit_segment(b, &env, &mut rc, &seg);
            }
        } else {
            emit_segment(b, &env, &mut rc, &seg);
        }
        k = end;
    }
    let native = plans.iter().filter(|p| !matches!(p.2, Plan::Helper)).count();
    (starts.into_iter().collect(), (native, plans.len() - native))
}

/// Starts emitting the segment at `pc` (the target's block; a block of its own when the
/// segment is unreachable code after an exit): its registers from the block parameters, the
/// strict-mode hazard check for `regs`, then the target's inner block when it has one.
fn enter_segment(
    b: &mut FunctionBuilder,
    env: &Env,
    pc: u64,
    target: Option<&Target>,
    known: flushed::Set,
    regs: Regs,
) -> RegCache {
    let (block, inner, carry) = match target {
        Some(t) => (t.block, t.inner, &t.carry[..]),
        None => (b.create_block(), None, &[][..]),
    };
    b.switch_to_block(block);
    let params = b.block_params(block).to_vec();
    let mut rc = RegCache::default();
    rc.enter(carry, &params, known.clone());
    hazard_check(b, env, &rc, pc, regs);
    if let Some(inner) = inner {
        let args: Vec<BlockArg> = params.iter().map(|v| BlockArg::Value(*v)).collect();
        b.ins().jump(inner, &args);
        b.switch_to_block(inner);
        let params = b.block_params(inner).to_vec();
        rc = RegCache::default();
        rc.enter(carry, &params, known);
    }
    rc
}

/// One segment's instructions and what their emission refers to.
struct Segment<'a> {
    plans: &'a [(u64, u64, Plan)],
    walk: &'a Walk,
    targets: &'a Targets,
    ftz: bool,
    /// The native loops the segment is in (see [`Target::loops`]).
    loops: u64,
}

/// A segment start's block and the registers it is entered with (its block parameters).
struct Target {
    block: Block,
    /// Inside native loops: the block after the strict-mode hazard check.
    inner: Option<Block>,
    /// The native loops the start is in, as bits (loop index); its hazard check covers the
    /// registers of all of them.
    loops: u64,
    carry: Vec<Carried>,
}

type Targets = BTreeMap<u64, Target>;

/// Whether native instructions of the segment write VGPRs (and so blend under EXEC).
fn writes_vgprs(plans: &[(u64, u64, Plan)]) -> bool {
    plans.iter().any(|p| matches!(&p.2, Plan::Valu(v) if emit_valu::writes_vgpr(v)))
}

/// Emits a segment from its first instruction (the current block) to its exit, or to a jump
/// into the next segment.
fn emit_segment(b: &mut FunctionBuilder, env: &Env, rc: &mut RegCache, seg: &Segment) {
    for (pc, next, plan) in seg.plans {
        rc.count(b, env);
        let mut e = Em { b: &mut *b, env, rc: &mut *rc, ftz: seg.ftz };
        match plan {
            Plan::Salu(s) => emit_salu::emit(&mut e, s),
            Plan::Valu(v) => emit_valu::emit(&mut e, v),
            _ => {
                emit_exit(b, env, rc, seg, plan, *pc, *next);
                return;
            }
        }
        if !seg.walk.insts.contains_key(next) {
            rc.flush(b, env);
            leave(b, env, *next, status::CONTINUE);
            return;
        }
    }
    // Falls into the next segment.
    let next = seg.plans.last().map_or(0, |p| p.1);
    goto(b, env, rc, next, seg.targets.get(&next), seg.loops);
}

/// In strict mode with loads outstanding into registers the segment's native instructions
/// touch, the interpreter runs the segment instead (status SLOW) and performs the
/// missing-`s_waitcnt` check. Segments touch no registers a load outstanding at their start
/// writes in the common case, so the check is one test per segment.
fn hazard_check(b: &mut FunctionBuilder, env: &Env, rc: &RegCache, pc: u64, regs: Regs) {
    let Some(hazard) = pending_overlap(b, env, regs) else { return };
    let slow = b.create_block();
    let fast = b.create_block();
    b.set_cold_block(slow);
    b.ins().brif(hazard, slow, &[], fast, &[]);
    b.switch_to_block(slow);
    rc.clone().flush(b, env);
    leave(b, env, pc, status::SLOW);
    b.switch_to_block(fast);
}

/// Non-zero when an outstanding load writes one of `regs`; `None` when `regs` is empty.
fn pending_overlap(b: &mut FunctionBuilder, env: &Env, regs: Regs) -> Option<Value> {
    let base = std::mem::offset_of!(Ctx, pmask) as i32;
    let mut acc = None;
    for (i, m) in regs.0.iter().enumerate().filter(|(_, m)| **m != 0) {
        let w = b.ins().load(types::I64, FLAGS, env.ctx, base + 8 * i as i32);
        let hit = b.ins().band_imm(w, *m as i64);
        acc = Some(match acc {
            Some(a) => b.ins().bor(a, hit),
            None => hit,
        });
    }
    acc
}

/// Returns `status` from the function after storing `pc` as the wave's PC.
fn leave(b: &mut FunctionBuilder, env: &Env, pc: u64, code: u32) {
    let pcp = field(b, env.ctx, std::mem::offset_of!(Ctx, pc));
    let v = b.ins().iconst(types::I64, pc as i64);
    b.ins().store(FLAGS, v, pcp, 0);
    let r = b.ins().iconst(types::I32, i64::from(code));
    b.ins().return_(&[r]);
}

/// Jumps to a segment start, passing the registers it carries. `from`: the native loops the
/// jump is in. Outstanding loads change only in interpreter calls, so since the code entered
/// those loops (through a start whose check covered all their registers) none has appeared:
/// a target in no other loop needs no check.
fn jump_to(b: &mut FunctionBuilder, env: &Env, rc: &mut RegCache, t: &Target, from: u64) {
    let args = rc.jump_args(b, env, &t.carry);
    let block = match t.inner {
        Some(inner) if t.loops & !from == 0 => inner,
        _ => t.block,
    };
    b.ins().jump(block, &args);
}

/// Continues at `fall`, or leaves with the PC at `next` when it was not translated. `from`:
/// as for [`jump_to`].
fn goto(
    b: &mut FunctionBuilder,
    env: &Env,
    rc: &mut RegCache,
    next: u64,
    fall: Option<&Target>,
    from: u64,
) {
    match fall {
        Some(t) => jump_to(b, env, rc, t, from),
        None => {
            rc.flush(b, env);
            leave(b, env, next, status::CONTINUE);
        }
    }
}

/// Calls the interpreter for the instruction at `pc` (the cache was stored); continues on
/// NEXT from the wave's memory copy, which the interpreter may have changed, returns otherwise.
fn call_helper(b: &mut FunctionBuilder, env: &Env, pc: u64, next: u64, fall: Option<&Target>) {
    let pcv = b.ins().iconst(types::I64, pc as i64);
    let call = b.ins().call_indirect(env.helper_sig, env.helper, &[env.ctx, pcv]);
    let r = b.inst_results(call)[0];
    after_call(b, env, r, next, fall);
}

/// After a call-out returning status `r`: returns it unless it is NEXT, else continues at
/// `next` from the wave's memory copy, which the call may have changed.
fn after_call(b: &mut FunctionBuilder, env: &Env, r: Value, next: u64, fall: Option<&Target>) {
    let out = b.create_block();
    let cont = b.create_block();
    b.ins().brif(r, out, &[], cont, &[]);
    b.switch_to_block(out);
    b.ins().return_(&[r]);
    b.switch_to_block(cont);
    goto(b, env, &mut RegCache::default(), next, fall, 0);
}

/// A buffer access, scalar load or LDS access through [`mem_helper`]; continues as after
/// [`call_helper`].
fn call_mem(
    b: &mut FunctionBuilder,
    env: &Env,
    call: MemCall,
    pc: u64,
    next: u64,
    fall: Option<&Target>,
) {
    let helper_fn: unsafe extern "C" fn(*mut Ctx, u64, u64) -> u32 = mem_helper;
    let callee = b.ins().iconst(types::I64, helper_fn as usize as i64);
    // Bits 62 and 63 tell the kinds apart (the packed operations leave them clear).
    let word = match call {
        MemCall::Buffer(w) => w,
        MemCall::Smem(w) => w | 1 << 62,
        MemCall::Ds(w) => w | 2 << 62,
    };
    let (pcv, word) =
        (b.ins().iconst(types::I64, pc as i64), b.ins().iconst(types::I64, word as i64));
    let call = b.ins().call_indirect(env.mem_sig, callee, &[env.ctx, pcv, word]);
    let r = b.inst_results(call)[0];
    after_call(b, env, r, next, fall);
}

/// `s_waitcnt` with loads outstanding: [`wait_helper`] retires them as the interpreter
/// would; it touches no register, so the cache `rc` stays valid.
fn call_wait(
    b: &mut FunctionBuilder,
    env: &Env,
    rc: &mut RegCache,
    imm: u16,
    next: u64,
    fall: Option<&Target>,
) {
    let helper_fn: unsafe extern "C" fn(*mut Ctx, u64) -> u32 = wait_helper;
    let callee = b.ins().iconst(types::I64, helper_fn as usize as i64);
    let imm = b.ins().iconst(types::I64, i64::from(imm));
    b.ins().call_indirect(env.helper_sig, callee, &[env.ctx, imm]);
    goto(b, env, rc, next, fall, 0);
}

/// Emits an instruction that ends its segment: interpreter calls, exits and branches.
/// Everything but a branch stores the cache first: what follows reads the wave.
fn emit_exit(
    b: &mut FunctionBuilder,
    env: &Env,
    rc: &mut RegCache,
    seg: &Segment,
    plan: &Plan,
    pc: u64,
    next: u64,
) {
    let fall = seg.targets.get(&next);
    if let Plan::Branch(cond, target) = plan {
        return emit_branch(b, env, rc, seg, *cond, next, *target);
    }
    rc.flush(b, env);
    match plan {
        Plan::Helper => call_helper(b, env, pc, next, fall),
        Plan::Mem(call) => call_mem(b, env, *call, pc, next, fall),
        Plan::End => leave(b, env, next, status::END),
        Plan::Barrier => leave(b, env, next, status::BARRIER),
        // `s_waitcnt` and hints: the interpreter runs them only while loads are outstanding
        // (retiring them, or reporting what strict mode reports).
        Plan::Nothing(wait) => {
            let off = std::mem::offset_of!(Ctx, pending) as i32;
            let pending = b.ins().load(types::I64, FLAGS, env.ctx, off);
            let slow = b.create_block();
            let fast = b.create_block();
            b.ins().brif(pending, slow, &[], fast, &[]);
            b.switch_to_block(slow);
            match wait {
                Some(imm) => call_wait(b, env, &mut rc.clone(), *imm, next, fall),
                None => call_helper(b, env, pc, next, fall),
            }
            b.switch_to_block(fast);
            goto(b, env, rc, next, fall, 0);
        }
        Plan::Branch(..) | Plan::Salu(_) | Plan::Valu(_) => {
            unreachable!("native instructions do not end segments")
        }
    }
}

/// A branch: each way passes the cache on to the segment it reaches (a loop keeps its
/// registers in host values); leaving for the watchdog stores it.
fn emit_branch(
    b: &mut FunctionBuilder,
    env: &Env,
    rc: &mut RegCache,
    seg: &Segment,
    cond: Option<emit_salu::Cond>,
    next: u64,
    target: u64,
) {
    let test = cond.map(|c| {
        let mut e = Em { b: &mut *b, env, rc: &mut *rc, ftz: seg.ftz };
        emit_salu::branch_test(&mut e, c)
    });
    // The watchdog compares the count, which includes this branch.
    rc.flush_counts(b, env);
    let taken = b.create_block();
    if let Some(t) = test {
        let not_taken = b.create_block();
        b.ins().brif(t, taken, &[], not_taken, &[]);
        b.switch_to_block(not_taken);
        goto(b, env, &mut rc.clone(), next, seg.targets.get(&next), seg.loops);
    } else {
        b.ins().jump(taken, &[]);
    }
    b.switch_to_block(taken);
    // The watchdog: past `limit` instructions, a taken branch leaves for its check.
    let n = b.ins().load(types::I64, FLAGS, env.ctx, offset_of!(Ctx, insts) as i32);
    let limit = b.ins().load(types::I64, FLAGS, env.ctx, offset_of!(Ctx, limit) as i32);
    let over = b.ins().icmp(IntCC::UnsignedGreaterThan, n, limit);
    let out = b.create_block();
    let go = b.create_block();
    b.set_cold_block(out);
    b.ins().brif(over, out, &[], go, &[]);
    b.switch_to_block(out);
    rc.clone().flush(b, env);
    leave(b, env, target, status::BUDGET);
    b.switch_to_block(go);
    match seg.targets.get(&target) {
        Some(t) => jump_to(b, env, rc, t, seg.loops),
        None => {
            rc.flush(b, env);
            leave(b, env, target, status::JUMP);
        }
    }
}
