//! `opt_constant_fold`: evaluates ALU ops whose sources are all constants, with the same
//! reference semantics the interpreter uses (`ir::ops::eval`), and applies algebraic
//! identities (`x + 0`, `x * 1`, `x * 0`, `x - 0`, `x | 0`, `x ^ 0`, `x << 0`, selects on a
//! constant condition).
//!
//! Afterwards no ALU op has only constant sources, except f32 float ops in a shader whose
//! float controls (flush-to-zero, round-toward-zero) differ from the host's arithmetic: those
//! are left to the hardware, which honours the mode.

use crate::ir::{ops, AluOp, Function, InstKind, Shader, Value, ValueType};

/// Folds constants in every function; returns true if anything changed.
pub fn opt_constant_fold(s: &mut Shader) -> bool {
    let mut changed = false;
    let keep_f32 = s.float_controls.f32_differs_from_host();
    for f in &mut s.funcs {
        changed |= run(f, keep_f32);
    }
    changed
}

/// `keep_f32`: leave float ops with an f32 source or result unfolded.
fn run(f: &mut Function, keep_f32: bool) -> bool {
    let mut consts: Vec<Option<Vec<u64>>> = vec![None; f.values.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let (InstKind::Const(c), Some(d)) = (&i.kind, i.dst) {
                consts[d.0 as usize] = Some(c.clone());
            }
        }
    }
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    let cfg = crate::analysis::cfg::Cfg::new(f);
    for &b in &cfg.rpo {
        for ii in 0..f.block(b).insts.len() {
            let inst = &f.block(b).insts[ii];
            let (InstKind::Alu(op, srcs), Some(d)) = (&inst.kind, inst.dst) else { continue };
            let (op, srcs) = (*op, srcs.clone());
            let ValueType::Data { bits, comps } = f.ty(d) else { continue };
            if srcs.iter().any(|s| matches!(f.ty(*s), ValueType::Deref(_))) {
                continue;
            }
            let cs: Option<Vec<(u8, Vec<u64>)>> = srcs
                .iter()
                .map(|s| consts[s.0 as usize].clone().map(|c| (f.ty(*s).shape().0, c)))
                .collect();
            let f32_involved = bits == 32 || cs.iter().flatten().any(|(b, _)| *b == 32);
            let cs = cs.filter(|_| !(keep_f32 && op.follows_float_mode() && f32_involved));
            if let Some(cs) = cs {
                let refs: Vec<ops::Src<'_>> =
                    cs.iter().map(|(b, c)| ops::Src { bits: *b, comps: c }).collect();
                if let Ok(v) = ops::eval(op, bits, comps, &refs) {
                    consts[d.0 as usize] = Some(v.clone());
                    f.block_mut(b).insts[ii].kind = InstKind::Const(v);
                    changed = true;
                }
                continue;
            }
            let is = |s: Value, x: u64| {
                consts[s.0 as usize].as_ref().is_some_and(|c| c.iter().all(|&v| v == x))
            };
            let same = |s: Value| f.ty(s) == f.ty(d);
            let fwd = match (op, srcs.as_slice()) {
                (AluOp::Iadd | AluOp::Ior | AluOp::Ixor, [a, b]) if is(*b, 0) && same(*a) => {
                    Some(*a)
                }
                (AluOp::Iadd | AluOp::Ior | AluOp::Ixor, [a, b]) if is(*a, 0) && same(*b) => {
                    Some(*b)
                }
                (AluOp::Isub | AluOp::Ishl | AluOp::Ushr | AluOp::Ishr, [a, b])
                    if is(*b, 0) && same(*a) =>
                {
                    Some(*a)
                }
                (AluOp::Imul, [a, b]) if is(*b, 1) && same(*a) => Some(*a),
                (AluOp::Imul, [a, b]) if is(*a, 1) && same(*b) => Some(*b),
                (AluOp::Imul, [a, b]) if (is(*a, 0) && same(*a)) || (is(*b, 0) && same(*b)) => {
                    Some(if is(*a, 0) { *a } else { *b })
                }
                (AluOp::Bcsel, [c, a, b])
                    if consts[c.0 as usize].as_ref().is_some_and(|v| v.len() == 1) =>
                {
                    let t = consts[c.0 as usize].as_ref().is_some_and(|v| v[0] & 1 == 1);
                    Some(if t { *a } else { *b })
                }
                _ => None,
            };
            if let Some(x) = fwd {
                map[d.0 as usize] = Some(x);
                changed = true;
            }
        }
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}
