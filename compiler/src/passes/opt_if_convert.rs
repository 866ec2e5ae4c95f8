//! `opt_if_convert`: turns small if/else constructs into selects. A selection whose arms hold
//! only a few cheap, side-effect-free instructions — a diamond `H → T, E → M` or a triangle
//! `H → T → M` with `H → M` — runs both arms unconditionally in `H`, and each φ of the merge
//! block becomes a `bcsel` on the branch condition. The merge block, entered from `H` alone
//! now, joins `H`, so nested ifs collapse from the inside out.
//!
//! Why: a branch costs the backend an EXEC save/restore and a skip jump (divergent) or a
//! compare-and-jump pair (uniform), and it ends the scheduling region; a few speculated ALU
//! instructions and a `v_cndmask_b32`/`s_cselect_b32` per merged value are cheaper. Chains of
//! nested selections (`i == 0 ? a : i == 1 ? b : ...`) convert bottom-up within the same
//! budget: each level's arm then holds the levels below it as selects.
//!
//! What may run on lanes (or in waves) that did not take the arm:
//! - ALU ops: they have total semantics in the IR (division by zero is defined), so they never
//!   fault; the long expansions (division, transcendental) are refused as too costly.
//! - Push-constant loads at a constant byte offset below [`MAX_PUSH_BYTES`]: the push block
//!   the driver hands every shader (compute, graphics and its own meta kernels) always holds
//!   that many bytes, so the load reads mapped memory whatever the condition; push constants
//!   do not change during a draw or dispatch, so an early read sees the same value. A dynamic
//!   offset could point past the block, and buffer (UBO/SSBO) loads are refused: a descriptor
//!   in an arm not taken need not be valid (partially bound descriptors, null descriptors with
//!   robustness off), and their bounds are not known here.
//! - Output stores (`if (c) o.w = k`): the store runs on every lane with `c ? k : old`, where
//!   `old` is the component's value stored earlier in the header block, so a lane that skips
//!   the arm writes the value it already had. Without such an earlier store (the output may be
//!   unwritten, or written in another block) the arm keeps its branch.
//!
//! Never speculated: memory stores and atomics, buffer and image loads, subgroup operations,
//! barriers, kills and demotes, helper-state queries and output read-backs (their meaning
//! depends on which lanes run them, or they may fault).
//!
//! Afterwards no selection whose arms fit [`ARM_BUDGET`] is left as a branch.

use std::collections::HashMap;

use crate::amd::abi::MAX_PUSH_BYTES;
use crate::analysis::cfg::Cfg;
use crate::ir::{
    AluOp, BlockId, Function, Inst, InstKind, IoSlot, Merge, Shader, Space, Terminator, Value,
    ValueType,
};

/// Most cost units (roughly machine instructions) speculated from both arms together. A
/// divergent branch costs about six instructions of EXEC bookkeeping plus a copy per merged
/// value in each arm, and both arms run anyway when the lanes disagree; 16 lets a chain of
/// five nested ternaries of constant vectors convert whole.
pub const ARM_BUDGET: u32 = 16;

/// Most 32-bit selects the merge may need (one per φ component).
const SELECT_BUDGET: u32 = 8;

/// Converts small selections to selects; returns true if anything changed.
pub fn opt_if_convert(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        // Each conversion can expose its enclosing selection.
        while convert_one(f) {
            changed = true;
        }
    }
    changed
}

/// A selection header and its shape.
struct Candidate {
    head: BlockId,
    merge: BlockId,
    /// The arm blocks (one for a triangle), each entered from `head` alone.
    arms: Vec<BlockId>,
    /// The condition and the predecessor of `merge` that the true (false) edge arrives from.
    cond: Value,
    from_then: BlockId,
    from_else: BlockId,
}

fn convert_one(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let targets = merge_targets(f);
    let consts = scalar_consts(f);
    for &h in &cfg.rpo {
        if let Some(c) = candidate(f, &cfg, h) {
            // The merge block joins the head below, so nothing else may name it.
            if targets[c.merge.0 as usize] > 1 {
                continue;
            }
            if !fits_budget(f, &consts, &c) {
                continue;
            }
            convert(f, &c);
            return true;
        }
    }
    false
}

/// The value of every scalar constant (push-constant offsets, extract indexes).
fn scalar_consts(f: &Function) -> HashMap<Value, u64> {
    let mut m = HashMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let (Some(d), InstKind::Const(k)) = (i.dst, &i.kind) {
                if let [v] = k[..] {
                    m.insert(d, v);
                }
            }
        }
    }
    m
}

/// How many structured annotations name each block (as merge or continue target).
fn merge_targets(f: &Function) -> Vec<u32> {
    let mut n = vec![0; f.blocks.len()];
    for b in &f.blocks {
        match b.merge {
            Some(Merge::Selection(m)) => n[m.0 as usize] += 1,
            Some(Merge::Loop { merge, cont }) => {
                n[merge.0 as usize] += 1;
                n[cont.0 as usize] += 1;
            }
            None => {}
        }
    }
    n
}

fn candidate(f: &Function, cfg: &Cfg, h: BlockId) -> Option<Candidate> {
    let hb = f.block(h);
    let Terminator::CondBranch { cond, then, els } = hb.term else { return None };
    let Some(Merge::Selection(m)) = hb.merge else { return None };
    if then == els || then == h || els == h || m == h {
        return None;
    }
    // An arm: entered from `h` alone, falls into `m`, no φs.
    let arm = |b: BlockId| {
        let blk = f.block(b);
        cfg.preds[b.0 as usize] == [h]
            && blk.term == Terminator::Branch(m)
            && blk.merge.is_none()
            && !blk.insts.iter().any(|i| matches!(i.kind, InstKind::Phi(_)))
    };
    let (arms, from_then, from_else) = if then == m {
        (vec![els], h, els)
    } else if els == m {
        (vec![then], then, h)
    } else {
        (vec![then, els], then, els)
    };
    if !arms.iter().all(|&b| arm(b)) {
        return None;
    }
    let mut preds = cfg.preds[m.0 as usize].clone();
    preds.sort();
    let mut want = vec![from_then, from_else];
    want.sort();
    if preds != want {
        return None;
    }
    Some(Candidate { head: h, merge: m, arms, cond, from_then, from_else })
}

/// Cost of running `i` speculatively, or `None` if it must not run when its arm is not taken
/// (see the module documentation for what is safe and why).
fn speculation_cost(f: &Function, consts: &HashMap<Value, u64>, i: &Inst) -> Option<u32> {
    let wide = |i: &Inst| i.dst.is_some_and(|d| f.ty(d).shape().0 == 64);
    match &i.kind {
        InstKind::Const(_) | InstKind::Undef => Some(0),
        InstKind::SysVal(_) => Some(1),
        // A component at a constant index is a register pick.
        InstKind::Alu(AluOp::ExtractDyn, srcs) if consts.contains_key(&srcs[1]) => Some(0),
        InstKind::Alu(op, srcs) => {
            if expensive(*op) || srcs.iter().any(|v| matches!(f.ty(*v), ValueType::Deref(_))) {
                return None;
            }
            let comps = i.dst.map_or(1, |d| u32::from(f.ty(d).shape().1));
            let free = matches!(op, AluOp::Mov | AluOp::Vec | AluOp::Bitcast);
            Some(if free { 0 } else { comps * if wide(i) { 2 } else { 1 } })
        }
        InstKind::MemLoad { space: Space::Push, addr, .. } => {
            let bytes = i.dst.map_or(0, |d| {
                let (bits, comps) = f.ty(d).shape();
                u64::from(bits / 8) * u64::from(comps)
            });
            let off = *consts.get(addr)?;
            (off.checked_add(bytes)? <= u64::from(MAX_PUSH_BYTES)).then_some(1)
        }
        _ => None,
    }
}

/// Ops that expand to long sequences (not worth running on lanes that do not need them).
fn expensive(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Udiv | Idiv
            | Umod
            | Irem
            | Imod
            | Fdiv
            | Frem
            | Fmod
            | Fpow
            | Ftan
            | Fasin
            | Facos
            | Fatan
            | Fatan2
            | Fexp
            | Flog
            | ExtractDyn
            | InsertDyn
    )
}

/// Where each output component's current value is: (value, component of it).
type Outputs = HashMap<(IoSlot, u8), (Value, u8)>;

/// The output components `h` stores (32-bit stores only; a wider store forgets its
/// components), with the value each holds at the end of the block.
fn head_outputs(f: &Function, h: BlockId) -> Outputs {
    let mut m = Outputs::new();
    for i in &f.block(h).insts {
        if let InstKind::IoStore { slot, comp, value } = i.kind {
            let (bits, n) = f.ty(value).shape();
            for k in 0..n {
                m.insert((slot, comp + k), (value, k));
            }
            if bits != 32 {
                // A 64-bit element covers two components each.
                for k in 0..2 * n {
                    m.remove(&(slot, comp + k));
                }
            }
        }
    }
    m
}

fn fits_budget(f: &Function, consts: &HashMap<Value, u64>, c: &Candidate) -> bool {
    let outs = head_outputs(f, c.head);
    let mut cost = 0;
    for &a in &c.arms {
        for i in &f.block(a).insts {
            if let InstKind::IoStore { slot, comp, value } = i.kind {
                // Becomes a store of `cond ? value : old`: one select per component.
                let (bits, n) = f.ty(value).shape();
                if bits != 32 || !(0..n).all(|k| outs.contains_key(&(slot, comp + k))) {
                    return false;
                }
                cost += u32::from(n);
                continue;
            }
            match speculation_cost(f, consts, i) {
                Some(k) => cost += k,
                None => return false,
            }
        }
    }
    let mut selects = 0;
    for i in &f.block(c.merge).insts {
        let InstKind::Phi(_) = i.kind else { break };
        match i.dst.map(|d| f.ty(d)) {
            Some(ValueType::Data { bits, comps }) => {
                selects += u32::from(comps) * if bits == 64 { 2 } else { 1 };
            }
            _ => return false,
        }
    }
    cost <= ARM_BUDGET && selects <= SELECT_BUDGET
}

fn convert(f: &mut Function, c: &Candidate) {
    let (h, m) = (c.head, c.merge);
    let mut outs = head_outputs(f, h);
    for &a in &c.arms {
        let on_true = a == c.from_then;
        let insts = std::mem::take(&mut f.block_mut(a).insts);
        let mut out = Vec::with_capacity(insts.len());
        for i in insts {
            let InstKind::IoStore { slot, comp, value } = i.kind else {
                out.push(i);
                continue;
            };
            let arm = Guard { cond: c.cond, on_true };
            let value = arm.store_value(f, &mut out, &mut outs, (slot, comp), value);
            out.push(Inst { dst: None, kind: InstKind::IoStore { slot, comp, value } });
        }
        f.block_mut(h).insts.extend(out);
        let blk = f.block_mut(a);
        blk.term = Terminator::Unreachable;
        blk.merge = None;
    }
    // The merge block's φs become selects, and the block joins the head.
    let mut insts = std::mem::take(&mut f.block_mut(m).insts);
    for i in &mut insts {
        if let InstKind::Phi(srcs) = &i.kind {
            let pick = |from: BlockId| srcs.iter().find(|s| s.0 == from).map(|s| s.1);
            let (Some(t), Some(e)) = (pick(c.from_then), pick(c.from_else)) else {
                unreachable!("φ without a source per predecessor");
            };
            i.kind = InstKind::Alu(AluOp::Bcsel, vec![c.cond, t, e]);
        }
    }
    let mb = f.block_mut(m);
    let term = std::mem::replace(&mut mb.term, Terminator::Unreachable);
    let merge = mb.merge.take();
    for s in term.succs() {
        rename_pred(f, s, m, h);
    }
    let hb = f.block_mut(h);
    hb.insts.extend(insts);
    hb.term = term;
    hb.merge = merge;
}

/// The arm an output store came from: taken when `cond` is `on_true`.
struct Guard {
    cond: Value,
    on_true: bool,
}

impl Guard {
    /// The value an arm's store of `value` at (`slot`, `comp`..) writes once it runs on every
    /// lane: `value` where the arm was taken, the components' current values elsewhere.
    /// Emits the selects (and the old vector, when its components come from several
    /// stores) into `out` and records the new current values.
    fn store_value(
        &self,
        f: &mut Function,
        out: &mut Vec<Inst>,
        outs: &mut Outputs,
        (slot, comp): (IoSlot, u8),
        value: Value,
    ) -> Value {
        let (bits, n) = f.ty(value).shape();
        let olds: Vec<(Value, u8)> = (0..n).map(|k| outs[&(slot, comp + k)]).collect();
        let whole = olds
            .iter()
            .enumerate()
            .all(|(k, &(w, j))| w == olds[0].0 && usize::from(j) == k && f.ty(w).shape().1 == n);
        let old = if whole {
            olds[0].0
        } else {
            let comps: Vec<Value> = olds.iter().map(|&(w, j)| component(f, out, w, j)).collect();
            if let [one] = comps[..] {
                one
            } else {
                emit(f, out, InstKind::Alu(AluOp::Vec, comps), ValueType::data(bits, n))
            }
        };
        let (t, e) = if self.on_true { (value, old) } else { (old, value) };
        let sel = InstKind::Alu(AluOp::Bcsel, vec![self.cond, t, e]);
        let sel = emit(f, out, sel, ValueType::data(bits, n));
        for k in 0..n {
            outs.insert((slot, comp + k), (sel, k));
        }
        sel
    }
}

/// Component `j` of `w` as a scalar value.
fn component(f: &mut Function, out: &mut Vec<Inst>, w: Value, j: u8) -> Value {
    let (bits, n) = f.ty(w).shape();
    if n == 1 {
        return w;
    }
    let ix = emit(f, out, InstKind::Const(vec![u64::from(j)]), ValueType::data(32, 1));
    emit(f, out, InstKind::Alu(AluOp::ExtractDyn, vec![w, ix]), ValueType::data(bits, 1))
}

fn emit(f: &mut Function, out: &mut Vec<Inst>, kind: InstKind, ty: ValueType) -> Value {
    let d = f.new_value(ty);
    out.push(Inst { dst: Some(d), kind });
    d
}

/// φs of `b` that named `from` as a predecessor name `to` instead.
fn rename_pred(f: &mut Function, b: BlockId, from: BlockId, to: BlockId) {
    for i in &mut f.block_mut(b).insts {
        if let InstKind::Phi(srcs) = &mut i.kind {
            for s in srcs.iter_mut().filter(|s| s.0 == from) {
                s.0 = to;
            }
        }
    }
}
