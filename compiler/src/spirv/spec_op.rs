//! `OpSpecConstantOp`: evaluated at translation time with the IR's reference semantics,
//! after specialization values have been substituted.

use rspirv::dr::{Instruction, Operand};
use spirv::Op;

use super::alu::{alu_map, with_rounding};
use super::module::{leaf_type, CTree, ModuleCtx};
use super::operands::{bad, id, lit};
use crate::error::CompileError;
use crate::ir::{ops, AluOp, TypeId};

/// Evaluates a specialization-constant operation of result type `t`.
pub fn eval(m: &ModuleCtx<'_>, inst: &Instruction, t: TypeId) -> Result<CTree, CompileError> {
    let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
        return Err(bad(inst, "missing opcode"));
    };
    let arg = |i: usize| -> Result<CTree, CompileError> {
        let c = id(inst, i)?;
        m.consts.get(&c).cloned().ok_or_else(|| bad(inst, "operand is not a constant"))
    };
    match op {
        Op::CompositeExtract => {
            let mut c = arg(1)?;
            for i in 2..inst.operands.len() {
                let ix = lit(inst, i)? as usize;
                c = match c {
                    CTree::Node(k) => k.get(ix).cloned().ok_or_else(|| bad(inst, "index"))?,
                    CTree::Leaf(b, v) => {
                        CTree::Leaf(b, vec![*v.get(ix).ok_or_else(|| bad(inst, "index"))?])
                    }
                    // A component of an undefined vector is an undefined scalar.
                    CTree::Undef(vt) => CTree::Undef(crate::ir::ValueType::data(vt.shape().0, 1)),
                };
            }
            return Ok(c);
        }
        Op::CompositeInsert => {
            let mut c = arg(2)?;
            let path = (3..inst.operands.len())
                .map(|i| lit(inst, i).map(|v| v as usize))
                .collect::<Result<Vec<_>, _>>()?;
            insert(&mut c, &path, arg(1)?).ok_or_else(|| bad(inst, "index"))?;
            return Ok(c);
        }
        Op::VectorShuffle => {
            let (Some((b, x)), Some((_, y))) = (defined(arg(1)?), defined(arg(2)?)) else {
                return Err(bad(inst, "shuffle of non-vectors"));
            };
            let all: Vec<u64> = x.iter().chain(y.iter()).copied().collect();
            let mut out = Vec::new();
            for i in 3..inst.operands.len() {
                out.push(all.get(lit(inst, i)? as usize).copied().unwrap_or(0));
            }
            return Ok(CTree::Leaf(b, out));
        }
        _ => {}
    }
    let mut map = alu_map(*op)
        .ok_or_else(|| CompileError::unsupported("OpSpecConstantOp", format!("opcode {op:?}")))?;
    let (dbits, dcomps) =
        leaf_type(&m.shader.types, t).ok_or_else(|| bad(inst, "aggregate result"))?.shape();
    map.op = with_rounding(map.op, m.dec.of(super::operands::result(inst)?).fp_rounding)?;
    // The entry point's f32 rounding mode applies to a conversion folded here as it would
    // on the hardware.
    if map.op == AluOp::F2f && dbits == 32 && m.shader.float_controls.round_toward_zero_32 {
        map.op = AluOp::F2fRtz;
    }
    let mut srcs = Vec::new();
    for i in 1..inst.operands.len() {
        match defined(arg(i)?) {
            Some(leaf) => srcs.push(leaf),
            None => return Err(bad(inst, "aggregate operand")),
        }
    }
    if map.swap && srcs.len() == 2 {
        srcs.swap(0, 1);
    }
    let refs: Vec<ops::Src<'_>> =
        srcs.iter().map(|(b, v)| ops::Src { bits: *b, comps: v }).collect();
    let v = ops::eval(map.op, dbits, dcomps, &refs).map_err(|e| bad(inst, &e.to_string()))?;
    Ok(CTree::Leaf(dbits, v))
}

/// A scalar or vector constant as (bits, components); an undefined one reads as zeros (any
/// value is allowed, and the folded result must be one value). `None` for aggregates.
fn defined(c: CTree) -> Option<(u8, Vec<u64>)> {
    match c {
        CTree::Leaf(b, v) => Some((b, v)),
        CTree::Undef(vt) => {
            let (bits, n) = vt.shape();
            Some((bits, vec![0; usize::from(n)]))
        }
        CTree::Node(_) => None,
    }
}

/// Replaces the part of `c` at `path` by `obj`; `None` if the path leaves the tree. An
/// undefined vector becomes zeros around the inserted component (any value is allowed).
fn insert(c: &mut CTree, path: &[usize], obj: CTree) -> Option<()> {
    let Some((&i, rest)) = path.split_first() else {
        *c = obj;
        return Some(());
    };
    if let CTree::Undef(vt) = c {
        let (bits, n) = vt.shape();
        *c = CTree::Leaf(bits, vec![0; usize::from(n)]);
    }
    match c {
        CTree::Node(k) => insert(k.get_mut(i)?, rest, obj),
        CTree::Leaf(_, v) if rest.is_empty() => {
            let part = match obj {
                CTree::Leaf(_, o) => *o.first()?,
                _ => 0,
            };
            *v.get_mut(i)? = part;
            Some(())
        }
        _ => None,
    }
}
