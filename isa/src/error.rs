//! Encoder and decoder errors.

use crate::operand::Operand;
use crate::tables::{Enc, Field};

/// Why an instruction cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The opcode has no form in the requested encoding.
    #[error("{op} has no {enc:?} encoding")]
    NoForm {
        /// Opcode name.
        op: &'static str,
        /// Requested encoding.
        enc: Enc,
    },
    /// The operand cannot be placed in that field.
    #[error("operand {operand:?} is not allowed in field {field:?}")]
    BadOperand {
        /// The operand.
        operand: Operand,
        /// The field.
        field: Field,
    },
    /// GFX10 instructions carry at most one literal dword.
    #[error("more than one distinct 32-bit literal")]
    TwoLiterals,
    /// A numeric field is out of range.
    #[error("{what} = {value} is out of range")]
    OutOfRange {
        /// Which field.
        what: &'static str,
        /// The offending value.
        value: i64,
    },
}

/// Why words cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No words given.
    #[error("no instruction words")]
    Empty,
    /// The instruction needs more words than were given.
    #[error("instruction needs {need} words, only {have} available")]
    Truncated {
        /// Words needed.
        need: usize,
        /// Words available.
        have: usize,
    },
    /// The encoding bits match no family this crate decodes.
    #[error("unknown or unsupported encoding in word {0:#010x}")]
    UnknownEncoding(u32),
    /// The family is known but the opcode is not a gfx1030 instruction.
    #[error("no {enc:?} opcode {code:#x} on gfx1030")]
    UnknownOpcode {
        /// Family.
        enc: Enc,
        /// Hardware opcode.
        code: u16,
    },
    /// A source field holds a code that is not a plain operand (DPP, SDWA, reserved).
    #[error("unsupported operand code {0}")]
    BadOperand(u16),
}
