//! Checked access to instruction operands: a wrong operand is an error naming the instruction.

use rspirv::dr::{Instruction, Operand};

use crate::error::CompileError;

/// Opcode name of `inst` (e.g. `"OpLoad"`).
pub fn opname(inst: &Instruction) -> String {
    format!("Op{}", inst.class.opname)
}

/// Error for a bad operand `i`.
pub fn bad(inst: &Instruction, what: &str) -> CompileError {
    let id = inst.result_id.map(|r| format!(" (%{r})")).unwrap_or_default();
    CompileError::invalid(format!("{}{id}", opname(inst)), what)
}

/// Operand `i` as an id.
pub fn id(inst: &Instruction, i: usize) -> Result<u32, CompileError> {
    match inst.operands.get(i) {
        Some(Operand::IdRef(v) | Operand::IdScope(v) | Operand::IdMemorySemantics(v)) => Ok(*v),
        _ => Err(bad(inst, &format!("operand {i} is not an id"))),
    }
}

/// Operand `i` as a 32-bit literal.
pub fn lit(inst: &Instruction, i: usize) -> Result<u32, CompileError> {
    match inst.operands.get(i) {
        Some(Operand::LiteralBit32(v) | Operand::LiteralExtInstInteger(v)) => Ok(*v),
        Some(Operand::LiteralBit64(v)) => Ok(*v as u32),
        _ => Err(bad(inst, &format!("operand {i} is not a literal"))),
    }
}

/// Operand `i` as a 32- or 64-bit literal.
pub fn lit64(inst: &Instruction, i: usize) -> Result<u64, CompileError> {
    match inst.operands.get(i) {
        Some(Operand::LiteralBit32(v)) => Ok(u64::from(*v)),
        Some(Operand::LiteralBit64(v)) => Ok(*v),
        _ => Err(bad(inst, &format!("operand {i} is not a literal"))),
    }
}

/// Result id.
pub fn result(inst: &Instruction) -> Result<u32, CompileError> {
    inst.result_id.ok_or_else(|| bad(inst, "missing result id"))
}

/// Result type id.
pub fn result_type(inst: &Instruction) -> Result<u32, CompileError> {
    inst.result_type.ok_or_else(|| bad(inst, "missing result type"))
}
