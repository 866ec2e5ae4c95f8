//! SPIR-V to RDNA2 shader compiler: front end, IR, passes and the IR interpreter.

pub mod amd;
pub mod analysis;
pub mod debug;
pub mod error;
pub mod interp;
pub mod ir;
pub mod passes;
pub mod pipeline;
pub mod spirv;

pub use error::CompileError;

pub use pipeline::compile_to_ir;
