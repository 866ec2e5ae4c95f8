//! `opt_loop_unroll`: fully unrolls loops whose trip count is known at compile time and whose
//! unrolled size stays within a budget. Array indices, output slots and selects that depend
//! on the induction variable then become constants, so constant folding, `lower_vars_to_ssa`
//! and `lower_io` see constant indices (a `gl_ClipDistance[k]` loop becomes three stores of
//! folded values).
//!
//! The trip count is found by running the loop's control at compile time rather than by
//! matching induction-variable patterns: iteration by iteration, every value that follows
//! from constants (with the interpreter's semantics, `ir::ops::eval`, so wrap-around of an
//! overflowing counter is exact) is evaluated and the edges that can be taken are marked. An
//! iteration either surely goes round again (the back edge can be taken and no exit can) or
//! surely ends the loop (the back edge cannot be taken); anything else — an exit that depends
//! on data — leaves the loop alone. `break` at a constant iteration and `continue` are
//! covered by the same rule, and zero-trip loops reduce to their header's test.
//!
//! The unrolled code clones, per iteration, only the blocks that can run in it, with branches
//! decided in that iteration turned into jumps; the original blocks are emptied. Innermost
//! loops go first, so a nest unrolls from the inside when the budget allows.
//!
//! Only loops that index an invocation's own arrays (function, private, input or output
//! variables) by a value computed from the loop's counters and constants alone are unrolled:
//! those are the loops whose unrolled copies fold (the indices become constants, the arrays
//! registers). Unrolling loops
//! over shared or buffer memory only copied their bodies (session 11 measured compute
//! kernels such as shared_reduction and kernel_bitonic_sort at twice the size).
//!
//! Afterwards no such loop with a constant trip count within the budget is left.

use crate::analysis::cfg::Cfg;
use crate::analysis::divergence::natural_loops;
use crate::analysis::dominance::Dominance;
use crate::ir::{
    ops, BlockId, DerefKind, Function, InstKind, Merge, Mode, Shader, Terminator, Value, ValueType,
};

/// Most iterations unrolled (Mesa's NIR uses the same order of magnitude for full unrolls).
pub const MAX_TRIPS: usize = 32;
/// Most instructions the unrolled iterations may add up to, all iterations together.
pub const MAX_INSTS: usize = 600;

/// Unrolls every eligible loop of every function; returns true if anything changed.
pub fn opt_loop_unroll(s: &mut Shader) -> bool {
    unroll_loops(s, true)
}

/// Unrolls loops with a constant trip count within the budget; with `only_local_arrays`,
/// only those that index an invocation's arrays by the counter (the pipeline's choice; the
/// tests exercise the mechanism on every loop).
pub fn unroll_loops(s: &mut Shader, only_local_arrays: bool) -> bool {
    let keep_f32 = s.float_controls.f32_differs_from_host();
    let mut changed = false;
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        // One loop at a time: the CFG changes under the others.
        while unroll_one(s, &mut f, keep_f32, only_local_arrays) {
            changed = true;
        }
        s.funcs[fi] = f;
    }
    changed
}

/// Whether the loop indexes an invocation-local array by a value computed from its counters
/// and constants alone, so that every such index is a constant in the unrolled copies. A
/// counter is a header φ that starts from a constant and whose back-edge value is again
/// computed from counters and constants. An index that also depends on anything else (an
/// invocation id, a loaded value) stays dynamic after unrolling: the array stays in memory
/// and the copies only add code (session 11: private_array_large 83 → 269 instructions,
/// FS_SCRATCH 57 → 84, with compile time up 7x on the former).
fn indexes_local_array(s: &Shader, f: &Function, lp: &Loop) -> bool {
    let n = f.values.len();
    let mut constant = vec![false; n];
    for b in &f.blocks {
        for inst in &b.insts {
            if let (Some(d), InstKind::Const(_)) = (inst.dst, &inst.kind) {
                constant[d.0 as usize] = true;
            }
        }
    }
    let inside = |b: BlockId| lp.body[b.0 as usize];
    // Candidate counters: header φs whose entries from outside the loop are constants.
    let mut counter = vec![false; n];
    for inst in &f.block(lp.header).insts {
        if let (Some(d), InstKind::Phi(srcs)) = (inst.dst, &inst.kind) {
            counter[d.0 as usize] = srcs.iter().all(|(b, v)| inside(*b) || constant[v.0 as usize]);
        }
    }
    loop {
        let derived = counter_derived(f, lp, &constant, &counter);
        // Drop the candidates whose back-edge values are not counter-derived; repeat until
        // none changes (one pass per dropped φ at most).
        let mut dropped = false;
        for inst in &f.block(lp.header).insts {
            if let (Some(d), InstKind::Phi(srcs)) = (inst.dst, &inst.kind) {
                let ok = srcs.iter().all(|(b, v)| !inside(*b) || derived[v.0 as usize].is_some());
                if counter[d.0 as usize] && !ok {
                    counter[d.0 as usize] = false;
                    dropped = true;
                }
            }
        }
        if !dropped {
            return indexes_with(s, f, lp, &derived);
        }
    }
}

/// Which values of the loop are computed from `counter` φs and constants only: `Some(true)`
/// for those that depend on a counter, `Some(false)` for constants.
fn counter_derived(
    f: &Function,
    lp: &Loop,
    constant: &[bool],
    counter: &[bool],
) -> Vec<Option<bool>> {
    let mut derived: Vec<Option<bool>> = constant
        .iter()
        .zip(counter)
        .map(|(c, k)| if *k { Some(true) } else { c.then_some(false) })
        .collect();
    for &b in &lp.order {
        for inst in &f.block(b).insts {
            if let (Some(d), InstKind::Alu(_, srcs)) = (inst.dst, &inst.kind) {
                let all: Option<Vec<bool>> = srcs.iter().map(|v| derived[v.0 as usize]).collect();
                derived[d.0 as usize] = all.map(|deps| deps.contains(&true));
            }
        }
    }
    derived
}

/// Whether a deref inside the loop indexes an invocation-local array by a counter-derived
/// value, and that array is indexed nowhere else by anything but constants or this loop's
/// counter-derived values: only then do all its indices become constants once unrolled (an
/// array also read at a dynamic index stays in memory, and unrolling its initialisation loop
/// only multiplied the stores: FS_SCRATCH 57 → 84 instructions).
fn indexes_with(s: &Shader, f: &Function, lp: &Loop, derived: &[Option<bool>]) -> bool {
    let mut def: Vec<Option<&InstKind>> = vec![None; f.values.len()];
    for b in &f.blocks {
        for inst in &b.insts {
            if let Some(d) = inst.dst {
                def[d.0 as usize] = Some(&inst.kind);
            }
        }
    }
    let root = |mut v: Value| loop {
        match def[v.0 as usize] {
            Some(InstKind::Deref { kind: DerefKind::Var(var), .. }) => return Some(*var),
            Some(InstKind::Deref { parent: Some(p), .. }) => v = *p,
            _ => return None,
        }
    };
    let local = |d: Value| {
        matches!(
            s.deref_mode(f, d),
            Some(Mode::Function | Mode::Private | Mode::Input | Mode::Output)
        )
    };
    let mut candidates = Vec::new();
    for &b in &lp.order {
        for inst in &f.block(b).insts {
            if let (InstKind::Deref { kind: DerefKind::Index(ix), .. }, Some(d)) =
                (&inst.kind, inst.dst)
            {
                if derived[ix.0 as usize] == Some(true) && local(d) {
                    candidates.extend(root(d));
                }
            }
        }
    }
    // A dynamic index anywhere: inside this loop one not derived from the counters, outside
    // it one that is not a constant.
    let dynamic = |var| {
        f.blocks.iter().enumerate().any(|(bi, block)| {
            let in_loop = lp.body[bi];
            block.insts.iter().any(|inst| match (&inst.kind, inst.dst) {
                (InstKind::Deref { kind: DerefKind::Index(ix), .. }, Some(d)) => {
                    root(d) == Some(var)
                        && match derived.get(ix.0 as usize) {
                            _ if matches!(def[ix.0 as usize], Some(InstKind::Const(_))) => false,
                            Some(Some(_)) if in_loop => false,
                            _ => true,
                        }
                }
                _ => false,
            })
        })
    };
    candidates.into_iter().any(|var| !dynamic(var))
}

/// One loop under analysis.
struct Loop {
    header: BlockId,
    /// Membership per block.
    body: Vec<bool>,
    /// Body blocks in reverse postorder (header first).
    order: Vec<BlockId>,
}

/// What one iteration can do.
struct Iteration {
    /// Whether each block can run.
    exec: Vec<bool>,
    /// The decided target of a block's branch when its condition is constant.
    decided: Vec<Option<BlockId>>,
    /// Whether a back edge to the header can be taken.
    back: bool,
    /// Whether an edge leaving the loop can be taken.
    exits: bool,
}

/// Unrolls the innermost eligible loop; true if one was unrolled.
fn unroll_one(s: &Shader, f: &mut Function, keep_f32: bool, only_local_arrays: bool) -> bool {
    let dom = Dominance::new(f);
    let cfg = dom.cfg();
    let mut loops = natural_loops(f, &dom);
    // Innermost (smallest) first.
    loops.sort_by_key(|(_, body)| body.iter().filter(|b| **b).count());
    for (header, body) in loops {
        let order = cfg.rpo.iter().copied().filter(|b| body[b.0 as usize]).collect();
        let lp = Loop { header, body, order };
        if only_local_arrays && !indexes_local_array(s, f, &lp) {
            continue;
        }
        if let Some(iters) = plan(f, cfg, &lp, keep_f32) {
            if outside_uses_defined(f, &lp, &iters) {
                emit(f, &lp, &iters);
                return true;
            }
        }
    }
    false
}

/// Simulates the loop's control; the iterations to emit, or `None` if the loop must stay.
fn plan(f: &Function, cfg: &Cfg, lp: &Loop, keep_f32: bool) -> Option<Vec<Iteration>> {
    let has_call = lp
        .order
        .iter()
        .any(|b| f.block(*b).insts.iter().any(|i| matches!(i.kind, InstKind::Call { .. })));
    if has_call {
        return None;
    }
    let mut consts: Vec<Option<Vec<u64>>> = vec![None; f.values.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let (InstKind::Const(c), Some(d)) = (&i.kind, i.dst) {
                consts[d.0 as usize] = Some(c.clone());
            }
        }
    }
    let mut iters: Vec<Iteration> = Vec::new();
    let mut size = 0;
    loop {
        let prev = iters.last();
        let it = iterate(f, cfg, lp, &mut consts, prev, keep_f32);
        size += lp
            .order
            .iter()
            .filter(|b| it.exec[b.0 as usize])
            .map(|b| f.block(*b).insts.len() + 1)
            .sum::<usize>();
        if size > MAX_INSTS || (it.back && it.exits) {
            return None;
        }
        let done = !it.back;
        iters.push(it);
        if done {
            return Some(iters);
        }
        if iters.len() > MAX_TRIPS {
            return None;
        }
    }
}

/// Whether the edge `from → to` can be taken, given what is known of `from`'s branch.
fn edge_taken(f: &Function, it: &Iteration, from: BlockId, to: BlockId) -> bool {
    it.exec[from.0 as usize]
        && match it.decided[from.0 as usize] {
            Some(t) => t == to,
            None => f.block(from).term.succs().contains(&to),
        }
}

/// Runs one iteration's constant evaluation. `consts` holds what is known: loop values are
/// overwritten per iteration; header φs read the previous iteration's latch values (or the
/// values entering the loop on the first).
fn iterate(
    f: &Function,
    cfg: &Cfg,
    lp: &Loop,
    consts: &mut [Option<Vec<u64>>],
    prev: Option<&Iteration>,
    keep_f32: bool,
) -> Iteration {
    let n = f.blocks.len();
    let mut it =
        Iteration { exec: vec![false; n], decided: vec![None; n], back: false, exits: false };
    let mut done = vec![false; n];
    // Header φ values first, from the state before this iteration overwrites anything.
    let header_vals: Vec<(Value, Option<Vec<u64>>)> = f
        .block(lp.header)
        .insts
        .iter()
        .filter_map(|i| match (&i.kind, i.dst) {
            (InstKind::Phi(srcs), Some(d)) => {
                let incoming = srcs.iter().filter(|(p, _)| match prev {
                    None => !lp.body[p.0 as usize],
                    Some(pi) => lp.body[p.0 as usize] && edge_taken(f, pi, *p, lp.header),
                });
                Some((d, agree(consts, incoming.map(|x| x.1))))
            }
            _ => None,
        })
        .collect();
    for &b in &lp.order {
        let bi = b.0 as usize;
        it.exec[bi] = b == lp.header
            || cfg.preds[bi].iter().any(|p| done[p.0 as usize] && edge_taken(f, &it, *p, b));
        done[bi] = true;
        if !it.exec[bi] {
            continue;
        }
        for inst in &f.block(b).insts {
            let Some(d) = inst.dst else { continue };
            let v = match &inst.kind {
                InstKind::Phi(_) if b == lp.header => {
                    header_vals.iter().find(|x| x.0 == d).and_then(|x| x.1.clone())
                }
                InstKind::Phi(srcs) => {
                    // A source from a block not yet evaluated (an inner back edge) is unknown.
                    let unknown = srcs.iter().any(|(p, _)| !done[p.0 as usize]);
                    let live = srcs.iter().filter(|(p, _)| edge_taken(f, &it, *p, b));
                    if unknown {
                        None
                    } else {
                        agree(consts, live.map(|x| x.1))
                    }
                }
                InstKind::Const(c) => Some(c.clone()),
                InstKind::Alu(op, srcs) => fold(f, consts, *op, d, srcs, keep_f32),
                _ => None,
            };
            consts[d.0 as usize] = v;
        }
        let known = |v: &Value| consts[v.0 as usize].as_ref().and_then(|c| c.first().copied());
        it.decided[bi] = match &f.block(b).term {
            Terminator::CondBranch { cond, then, els } => {
                known(cond).map(|c| if c & 1 == 1 { *then } else { *els })
            }
            Terminator::Switch { sel, default, cases } => {
                known(sel).map(|c| cases.iter().find(|x| x.0 == c).map_or(*default, |x| x.1))
            }
            _ => None,
        };
        for s in f.block(b).term.succs() {
            if edge_taken(f, &it, b, s) {
                if s == lp.header {
                    it.back = true;
                } else if !lp.body[s.0 as usize] {
                    it.exits = true;
                }
            }
        }
    }
    it
}

/// The common constant of `vals`, if they are all known and equal (and there is one).
fn agree(consts: &[Option<Vec<u64>>], mut vals: impl Iterator<Item = Value>) -> Option<Vec<u64>> {
    let first = consts[vals.next()?.0 as usize].clone()?;
    vals.all(|v| consts[v.0 as usize].as_ref() == Some(&first)).then_some(first)
}

/// Evaluates an ALU op on known sources, as `opt_constant_fold` would.
fn fold(
    f: &Function,
    consts: &[Option<Vec<u64>>],
    op: crate::ir::AluOp,
    d: Value,
    srcs: &[Value],
    keep_f32: bool,
) -> Option<Vec<u64>> {
    let ValueType::Data { bits, comps } = f.ty(d) else { return None };
    let mut refs = Vec::with_capacity(srcs.len());
    for s in srcs {
        let ValueType::Data { bits: sb, .. } = f.ty(*s) else { return None };
        refs.push((sb, consts[s.0 as usize].as_ref()?));
    }
    let f32_involved = bits == 32 || refs.iter().any(|(b, _)| *b == 32);
    if keep_f32 && op.follows_float_mode() && f32_involved {
        return None;
    }
    let refs: Vec<ops::Src<'_>> =
        refs.iter().map(|(b, c)| ops::Src { bits: *b, comps: c }).collect();
    ops::eval(op, bits, comps, &refs).ok()
}

/// Every use outside the loop of a value defined inside must be defined in the last
/// iteration (all exits happen there).
fn outside_uses_defined(f: &Function, lp: &Loop, iters: &[Iteration]) -> bool {
    let Some(last) = iters.last() else { return false };
    let defs = f.def_map();
    let inside_def = |v: Value| match defs.get(v.0 as usize) {
        Some(Some((b, _))) => lp.body[b.0 as usize],
        _ => false,
    };
    let ok = |v: Value| match defs.get(v.0 as usize) {
        Some(Some((b, _))) => !lp.body[b.0 as usize] || last.exec[b.0 as usize],
        _ => true,
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        if lp.body[bi] {
            continue;
        }
        let mut good = true;
        for inst in &b.insts {
            match &inst.kind {
                // φ sources on exit edges are rewritten per edge.
                InstKind::Phi(srcs) => {
                    good &=
                        srcs.iter().all(|(p, v)| lp.body[p.0 as usize] || !inside_def(*v) || ok(*v))
                }
                _ => inst.for_each_src(|v| good &= ok(v)),
            }
        }
        let mut term = b.term.clone();
        good &= term.srcs_mut().into_iter().all(|v| ok(*v));
        if !good {
            return false;
        }
    }
    true
}

/// Replaces the loop by its iterations: clones of the blocks that can run in each, with
/// decided branches as jumps, back edges to the next iteration's header and exits as before.
fn emit(f: &mut Function, lp: &Loop, iters: &[Iteration]) {
    let nb = f.blocks.len();
    let nv = f.values.len();
    let header = lp.header;
    let mut clones: Vec<Vec<Option<BlockId>>> = Vec::with_capacity(iters.len());
    let mut maps: Vec<Vec<Option<Value>>> = Vec::with_capacity(iters.len());
    for it in iters {
        let mut c = vec![None; nb];
        let mut m = vec![None; nv];
        for &b in lp.order.iter().filter(|b| it.exec[b.0 as usize]) {
            c[b.0 as usize] = Some(f.new_block());
            let defs: Vec<Value> = f.block(b).insts.iter().filter_map(|i| i.dst).collect();
            for d in defs {
                m[d.0 as usize] = Some(f.new_value(f.ty(d)));
            }
        }
        clones.push(c);
        maps.push(m);
    }
    let remap = |m: &[Option<Value>], v: Value| m.get(v.0 as usize).copied().flatten().unwrap_or(v);
    for (i, it) in iters.iter().enumerate() {
        for &b in lp.order.iter().filter(|b| it.exec[b.0 as usize]) {
            let src = f.block(b).clone();
            let mut insts = Vec::with_capacity(src.insts.len());
            for inst in &src.insts {
                let mut ni = inst.clone();
                if let InstKind::Phi(srcs) = &inst.kind {
                    let (from, pi) =
                        if b == header && i > 0 { (i - 1, &iters[i - 1]) } else { (i, it) };
                    let keep = |p: BlockId| match (b == header, i) {
                        (true, 0) => !lp.body[p.0 as usize],
                        _ => lp.body[p.0 as usize] && edge_taken(f, pi, p, b),
                    };
                    let new = srcs
                        .iter()
                        .filter(|(p, _)| keep(*p))
                        .map(|(p, v)| match clones[from][p.0 as usize] {
                            Some(pc) if lp.body[p.0 as usize] => (pc, remap(&maps[from], *v)),
                            _ => (*p, *v),
                        })
                        .collect();
                    ni.kind = InstKind::Phi(new);
                } else {
                    ni.for_each_src_mut(|v| *v = remap(&maps[i], *v));
                }
                ni.dst = ni.dst.map(|d| remap(&maps[i], d));
                insts.push(ni);
            }
            let mut term = match it.decided[b.0 as usize] {
                Some(t) => Terminator::Branch(t),
                None => src.term.clone(),
            };
            for v in term.srcs_mut() {
                *v = remap(&maps[i], *v);
            }
            let target = |s: BlockId| {
                if s == header {
                    clones.get(i + 1).and_then(|c| c[header.0 as usize])
                } else if lp.body[s.0 as usize] {
                    clones[i][s.0 as usize]
                } else {
                    Some(s)
                }
            };
            for s in term.succs() {
                match target(s) {
                    Some(t) => term.replace_succ(s, t),
                    None => term = Terminator::Unreachable,
                }
            }
            let in_iter =
                |x: BlockId| if lp.body[x.0 as usize] { clones[i][x.0 as usize] } else { Some(x) };
            let merge = match src.merge {
                _ if b == header => None,
                Some(Merge::Selection(_)) if it.decided[b.0 as usize].is_some() => None,
                Some(Merge::Selection(m)) => in_iter(m).map(Merge::Selection),
                Some(Merge::Loop { merge, cont }) => in_iter(merge)
                    .zip(in_iter(cont))
                    .map(|(merge, cont)| Merge::Loop { merge, cont }),
                None => None,
            };
            let nbk = clones[i][b.0 as usize].unwrap_or(b);
            *f.block_mut(nbk) = crate::ir::Block { insts, term, merge };
        }
    }
    relink_outside(f, lp, iters, &clones, &maps);
}

/// Points the loop's surroundings at the unrolled code: entries at the first header clone,
/// exit φs at the clones their edges now leave from, other uses at the last iteration's
/// values. The original blocks are emptied and what became unreachable is cleared.
fn relink_outside(
    f: &mut Function,
    lp: &Loop,
    iters: &[Iteration],
    clones: &[Vec<Option<BlockId>>],
    maps: &[Vec<Option<Value>>],
) {
    let nb = lp.body.len();
    let first = clones[0][lp.header.0 as usize].unwrap_or(lp.header);
    let succs: Vec<Vec<BlockId>> = (0..nb).map(|b| f.blocks[b].term.succs()).collect();
    for bi in 0..nb {
        if lp.body[bi] {
            continue;
        }
        let block = &mut f.blocks[bi];
        block.term.replace_succ(lp.header, first);
        block.merge = match block.merge {
            Some(Merge::Selection(m)) if m == lp.header => Some(Merge::Selection(first)),
            other => other,
        };
        for inst in &mut block.insts {
            let InstKind::Phi(srcs) = &mut inst.kind else { continue };
            let mut new = Vec::with_capacity(srcs.len());
            for &(p, v) in srcs.iter() {
                if !lp.body[p.0 as usize] {
                    new.push((p, v));
                    continue;
                }
                for (i, it) in iters.iter().enumerate() {
                    let taken = it.exec[p.0 as usize]
                        && match it.decided[p.0 as usize] {
                            Some(t) => t.0 as usize == bi,
                            None => succs[p.0 as usize].contains(&BlockId(bi as u32)),
                        };
                    if let (true, Some(pc)) = (taken, clones[i][p.0 as usize]) {
                        let nv = maps[i].get(v.0 as usize).copied().flatten().unwrap_or(v);
                        new.push((pc, nv));
                    }
                }
            }
            *srcs = new;
        }
    }
    for bi in 0..nb {
        if lp.body[bi] {
            let b = &mut f.blocks[bi];
            b.insts.clear();
            b.term = Terminator::Unreachable;
            b.merge = None;
        }
    }
    let last = maps.last().cloned().unwrap_or_default();
    let mut map = last;
    map.resize(f.values.len(), None);
    f.rewrite_uses(&map);
    crate::passes::opt_dead_cf::clear_unreachable(f);
}
