//! `opt_constant_fold`: evaluates ALU ops whose sources are all constants, with the same
//! reference semantics the interpreter uses (`ir::ops::eval`), and applies algebraic
//! identities (`x + 0`, `x * 1`, `x * 0`, `x - 0`, `x | 0`, `x ^ 0`, `x << 0`, selects on a
//! constant condition). A float division by a constant power of two becomes a multiply by its
//! reciprocal: both round the same real number, so the result is identical for every input in
//! every rounding and denormal mode, and later passes (if-conversion, CSE) see a cheap op.
//!
//! Afterwards no ALU op has only constant sources, except f32 float ops in a shader whose
//! float controls (flush-to-zero, round-toward-zero) differ from the host's arithmetic: those
//! are left to the hardware, which honours the mode.

use crate::ir::{ops, AluOp, Function, Inst, InstKind, Shader, Value, ValueType};

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
    // (block, index, reciprocal): divisions that become multiplies once the loop is done.
    let mut recips: Vec<(crate::ir::BlockId, usize, Vec<u64>)> = Vec::new();
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
            } else if let (AluOp::Fdiv, [_, y]) = (op, srcs.as_slice()) {
                let r = consts[y.0 as usize].as_ref().and_then(|c| exact_reciprocals(bits, c));
                if let Some(r) = r {
                    recips.push((b, ii, r));
                }
            }
        }
    }
    changed |= !recips.is_empty();
    // Back to front, so earlier indices in a block stay valid.
    for (b, ii, r) in recips.into_iter().rev() {
        let InstKind::Alu(_, srcs) = &f.block(b).insts[ii].kind else { unreachable!() };
        let (x, y) = (srcs[0], srcs[1]);
        let rv = f.new_value(f.ty(y));
        let insts = &mut f.block_mut(b).insts;
        insts[ii].kind = InstKind::Alu(AluOp::Fmul, vec![x, rv]);
        insts.insert(ii, Inst { dst: Some(rv), kind: InstKind::Const(r) });
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}

/// The bits of `1 / y` per component when every component of the `bits`-wide float constant
/// `y` is ±2^k with both 2^k and 2^-k normal (a denormal or flushed reciprocal would not be
/// exact in every denormal mode).
fn exact_reciprocals(bits: u8, y: &[u64]) -> Option<Vec<u64>> {
    let (exp_bits, man_bits) = match bits {
        16 => (5, 10),
        32 => (8, 23),
        64 => (11, 52),
        _ => return None,
    };
    let max = (1u64 << exp_bits) - 1; // the all-ones exponent (inf/NaN)
    let bias2 = max - 1; // 2 * bias: the exponent field of 1/2^k is bias2 - field
    y.iter()
        .map(|&c| {
            let exp = (c >> man_bits) & max;
            let sign = c & (1u64 << (bits - 1));
            (c & ((1u64 << man_bits) - 1) == 0 && (1..bias2).contains(&exp))
                .then(|| sign | ((bias2 - exp) << man_bits))
        })
        .collect()
}
