//! The table from SPIR-V arithmetic opcodes to IR ALU ops (shared by function bodies and
//! `OpSpecConstantOp`).

use spirv::{FPRoundingMode, Op};

use crate::error::CompileError;
use crate::ir::AluOp;

/// How a SPIR-V opcode maps onto an [`AluOp`].
#[derive(Clone, Copy, Debug)]
pub struct AluMap {
    /// The IR op.
    pub op: AluOp,
    /// Swap the two sources (`a > b` is `b < a`).
    pub swap: bool,
}

/// The IR op for a component-wise SPIR-V opcode.
pub fn alu_map(op: Op) -> Option<AluMap> {
    use AluOp as A;
    let (a, swap) = match op {
        Op::IAdd => (A::Iadd, false),
        Op::ISub => (A::Isub, false),
        Op::IMul => (A::Imul, false),
        Op::UDiv => (A::Udiv, false),
        Op::SDiv => (A::Idiv, false),
        Op::UMod => (A::Umod, false),
        Op::SRem => (A::Irem, false),
        Op::SMod => (A::Imod, false),
        Op::SNegate => (A::Ineg, false),
        Op::FAdd => (A::Fadd, false),
        Op::FSub => (A::Fsub, false),
        Op::FMul => (A::Fmul, false),
        Op::FDiv => (A::Fdiv, false),
        Op::FRem => (A::Frem, false),
        Op::FMod => (A::Fmod, false),
        Op::FNegate => (A::Fneg, false),
        Op::ShiftLeftLogical => (A::Ishl, false),
        Op::ShiftRightLogical => (A::Ushr, false),
        Op::ShiftRightArithmetic => (A::Ishr, false),
        Op::BitwiseAnd | Op::LogicalAnd => (A::Iand, false),
        Op::BitwiseOr | Op::LogicalOr => (A::Ior, false),
        Op::BitwiseXor => (A::Ixor, false),
        Op::Not | Op::LogicalNot => (A::Inot, false),
        Op::BitCount => (A::BitCount, false),
        Op::BitReverse => (A::BitReverse, false),
        Op::BitFieldInsert => (A::BfiInsert, false),
        Op::BitFieldUExtract => (A::Ubfe, false),
        Op::BitFieldSExtract => (A::Ibfe, false),
        Op::IEqual | Op::LogicalEqual => (A::Ieq, false),
        Op::INotEqual | Op::LogicalNotEqual => (A::Ine, false),
        Op::ULessThan => (A::Ult, false),
        Op::UGreaterThan => (A::Ult, true),
        Op::ULessThanEqual => (A::Uge, true),
        Op::UGreaterThanEqual => (A::Uge, false),
        Op::SLessThan => (A::Ilt, false),
        Op::SGreaterThan => (A::Ilt, true),
        Op::SLessThanEqual => (A::Ige, true),
        Op::SGreaterThanEqual => (A::Ige, false),
        Op::FOrdEqual => (A::Feq, false),
        Op::FUnordNotEqual => (A::Fneu, false),
        Op::FOrdNotEqual => (A::Fneo, false),
        Op::FUnordEqual => (A::Fequ, false),
        Op::FOrdLessThan => (A::Flt, false),
        Op::FOrdGreaterThan => (A::Flt, true),
        Op::FOrdLessThanEqual => (A::Fge, true),
        Op::FOrdGreaterThanEqual => (A::Fge, false),
        Op::FUnordLessThan => (A::Fltu, false),
        Op::FUnordGreaterThan => (A::Fltu, true),
        Op::FUnordLessThanEqual => (A::Fgeu, true),
        Op::FUnordGreaterThanEqual => (A::Fgeu, false),
        Op::IsNan => (A::IsNan, false),
        Op::IsInf => (A::IsInf, false),
        Op::Select => (A::Bcsel, false),
        Op::ConvertFToU => (A::F2u, false),
        Op::ConvertFToS => (A::F2i, false),
        Op::ConvertUToF => (A::U2f, false),
        Op::ConvertSToF => (A::I2f, false),
        Op::UConvert => (A::U2u, false),
        Op::SConvert => (A::I2i, false),
        Op::FConvert => (A::F2f, false),
        Op::Any => (A::Bany, false),
        Op::All => (A::Ball, false),
        Op::Dot => (A::Fdot, false),
        Op::VectorExtractDynamic => (A::ExtractDyn, false),
        Op::VectorInsertDynamic => (A::InsertDyn, false),
        _ => return None,
    };
    Some(AluMap { op: a, swap })
}

/// `op` with its result's `FPRoundingMode` decoration applied. Round to nearest even is every
/// conversion's default; toward zero is honoured on float narrowing (`F2fRtz`); other modes,
/// or toward zero elsewhere, are refused (Vulkan allows only RTE and RTZ, on the conversions
/// to 16-bit floats of 16-bit storage).
pub fn with_rounding(op: AluOp, mode: Option<FPRoundingMode>) -> Result<AluOp, CompileError> {
    match (mode, op) {
        (None | Some(FPRoundingMode::RTE), _) => Ok(op),
        (Some(FPRoundingMode::RTZ), AluOp::F2f) => Ok(AluOp::F2fRtz),
        (Some(m), _) => {
            Err(CompileError::unsupported("FPRoundingMode", format!("{m:?} on {}", op.name())))
        }
    }
}
