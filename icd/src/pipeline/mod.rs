//! Pipeline layouts and shader modules: what compute pipelines (compiled by our compiler at
//! `vkCreateComputePipelines`, once its AMD backend lands) are built from.

pub mod cache;
pub mod compute;
pub mod gfx_cache;
pub mod layout;
pub mod shader_module;

pub use cache::PipelineCache;
pub use compute::{ComputeProgram, Pipeline, Program};
pub use layout::PipelineLayout;
pub use shader_module::ShaderModule;
