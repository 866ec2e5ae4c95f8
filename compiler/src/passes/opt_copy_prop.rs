//! `opt_copy_prop`: forwards copies. `mov x`, single-source `vec`, a `vec` that reassembles
//! all components of one value in order, an `extract_dyn` by constant index from a `vec` of
//! scalars, and φs whose sources are all the same value are replaced by their source.
//!
//! Afterwards no use refers to such a copy (the copies themselves are left to `opt_dce`).

use crate::ir::{AluOp, Function, InstKind, Shader, Value};

/// Runs copy propagation on every function; returns true if anything changed.
pub fn opt_copy_prop(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn konst(f: &Function, defs: &[Option<(crate::ir::BlockId, usize)>], v: Value) -> Option<u64> {
    let (b, i) = defs[v.0 as usize]?;
    match &f.block(b).insts[i].kind {
        InstKind::Const(c) if c.len() == 1 => Some(c[0]),
        _ => None,
    }
}

fn run(f: &mut Function) -> bool {
    let defs = f.def_map();
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    for b in &f.blocks {
        for inst in &b.insts {
            let Some(d) = inst.dst else { continue };
            let src = match &inst.kind {
                InstKind::Alu(AluOp::Mov, s) => Some(s[0]),
                InstKind::Alu(AluOp::Vec, s) if s.len() == 1 && f.ty(s[0]) == f.ty(d) => Some(s[0]),
                InstKind::Alu(AluOp::Vec, s) => {
                    reassembled(f, &defs, s).filter(|x| f.ty(*x) == f.ty(d))
                }
                InstKind::Alu(AluOp::ExtractDyn, s) => {
                    konst(f, &defs, s[1]).and_then(|i| component_of(f, &defs, s[0], i as usize))
                }
                InstKind::Phi(srcs) => {
                    let others: Vec<Value> = srcs.iter().map(|x| x.1).filter(|x| *x != d).collect();
                    (!others.is_empty() && others.iter().all(|x| *x == others[0]))
                        .then(|| others[0])
                }
                _ => None,
            };
            if let Some(x) = src {
                if x != d && f.ty(x) == f.ty(d) {
                    map[d.0 as usize] = Some(x);
                    changed = true;
                }
            }
        }
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}

/// The scalar source of component `i` of a `vec` of scalars.
fn component_of(
    f: &Function,
    defs: &[Option<(crate::ir::BlockId, usize)>],
    v: Value,
    i: usize,
) -> Option<Value> {
    let (b, ix) = defs[v.0 as usize]?;
    let InstKind::Alu(AluOp::Vec, srcs) = &f.block(b).insts[ix].kind else { return None };
    let mut at = 0;
    for s in srcs {
        let n = usize::from(f.ty(*s).shape().1);
        if i < at + n {
            return (n == 1).then_some(*s);
        }
        at += n;
    }
    None
}

/// `x` if `srcs` are `extract(x, 0), extract(x, 1), ...` covering all of `x`.
fn reassembled(
    f: &Function,
    defs: &[Option<(crate::ir::BlockId, usize)>],
    srcs: &[Value],
) -> Option<Value> {
    let mut base = None;
    for (k, s) in srcs.iter().enumerate() {
        let (b, ix) = defs[s.0 as usize]?;
        let InstKind::Alu(AluOp::ExtractDyn, e) = &f.block(b).insts[ix].kind else { return None };
        if konst(f, defs, e[1])? != k as u64 || base.is_some_and(|x| x != e[0]) {
            return None;
        }
        base = Some(e[0]);
    }
    let x = base?;
    (usize::from(f.ty(x).shape().1) == srcs.len()).then_some(x)
}
