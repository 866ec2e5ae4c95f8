//! Errors of the compiler's input paths.

use thiserror::Error;

use crate::ir::validate::ValidationError;

/// Why a SPIR-V module could not be compiled. Every variant names what it rejected.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// The binary could not be decoded into instructions.
    #[error("malformed SPIR-V binary: {0}")]
    Malformed(String),
    /// A capability we do not implement.
    #[error("unsupported capability {0}")]
    Capability(String),
    /// An extension we do not implement.
    #[error("unsupported extension {0}")]
    Extension(String),
    /// A well-formed instruction we do not implement.
    #[error("unsupported instruction {op}: {detail}")]
    Unsupported {
        /// Opcode name (e.g. `OpImageSparseFetch`).
        op: String,
        /// What exactly is unsupported.
        detail: String,
    },
    /// An instruction that breaks a SPIR-V rule (wrong operands, unknown ids, ...).
    #[error("invalid SPIR-V at {op}: {msg}")]
    Invalid {
        /// Opcode name.
        op: String,
        /// What is wrong.
        msg: String,
    },
    /// No entry point with that name and stage.
    #[error("entry point {0:?} not found")]
    NoEntryPoint(String),
    /// A pass produced IR that fails validation (a compiler bug, reported instead of a panic).
    #[error(transparent)]
    Validation(#[from] ValidationError),
}

impl CompileError {
    /// An [`CompileError::Invalid`] for instruction `op`.
    pub fn invalid(op: impl Into<String>, msg: impl Into<String>) -> Self {
        CompileError::Invalid { op: op.into(), msg: msg.into() }
    }

    /// An [`CompileError::Unsupported`] for instruction `op`.
    pub fn unsupported(op: impl Into<String>, detail: impl Into<String>) -> Self {
        CompileError::Unsupported { op: op.into(), detail: detail.into() }
    }
}
