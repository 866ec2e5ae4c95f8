//! SPIR-V to RDNA2 shader compiler: front end, IR, passes and the IR interpreter.

pub mod analysis;
pub mod error;
pub mod interp;
pub mod ir;
pub mod spirv;

pub use error::CompileError;

/// Placeholder until the pipeline exists.
pub fn compile_to_ir(
    words: &[u32],
    entry: &str,
    stage: ir::Stage,
    spec: &std::collections::HashMap<u32, u64>,
) -> Result<ir::Shader, CompileError> {
    spirv::to_ir(words, entry, stage, spec)
}
