//! `OpSpecConstantOp`: evaluated at translation time with the IR's reference semantics,
//! after specialization values have been substituted.

use rspirv::dr::{Instruction, Operand};
use spirv::Op;

use super::alu::alu_map;
use super::module::{leaf_type, CTree, ModuleCtx};
use super::operands::{bad, id, lit};
use crate::error::CompileError;
use crate::ir::{ops, TypeId};

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
                    u @ CTree::Undef(_) => u,
                };
            }
            return Ok(c);
        }
        Op::VectorShuffle => {
            let (CTree::Leaf(b, x), CTree::Leaf(_, y)) = (arg(1)?, arg(2)?) else {
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
    let map = alu_map(*op)
        .ok_or_else(|| CompileError::unsupported("OpSpecConstantOp", format!("opcode {op:?}")))?;
    let (dbits, dcomps) =
        leaf_type(&m.shader.types, t).ok_or_else(|| bad(inst, "aggregate result"))?.shape();
    let mut srcs = Vec::new();
    for i in 1..inst.operands.len() {
        match arg(i)? {
            CTree::Leaf(b, v) => srcs.push((b, v)),
            _ => return Err(bad(inst, "aggregate or undefined operand")),
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
