//! Errors of the backend.

use thiserror::Error;

/// Why a shader could not be compiled to machine code.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BackendError {
    /// An IR construct the backend does not select yet.
    #[error("backend does not support {0}")]
    Unsupported(String),
    /// A resource the shader uses is missing from the resource layout.
    #[error("set {set} binding {binding} is not in the resource layout")]
    MissingBinding {
        /// Set.
        set: u32,
        /// Binding.
        binding: u32,
    },
    /// More registers are needed than the hardware has (vector registers spill to scratch;
    /// scalar registers do not spill yet).
    #[error("out of {0} registers")]
    OutOfRegisters(&'static str),
    /// The register-allocation checker found a use that reads the wrong value (a compiler bug).
    #[error("register allocation check failed: {0}")]
    RegallocCheck(String),
    /// An instruction the `isa` crate refused to encode (a compiler bug).
    #[error("encoding failed: {0}")]
    Encode(String),
    /// The shader is not a compute shader.
    #[error("only compute shaders are supported by the backend")]
    NotCompute,
}

/// Shorthand for an unsupported construct.
pub fn unsupported(what: impl Into<String>) -> BackendError {
    BackendError::Unsupported(what.into())
}
