//! Ferrum's shader compiler: SPIR-V in, lowered SSA IR out, and RDNA2 machine code for compute
//! shaders ([`amd::compile_spirv`]; the driver-facing ABI is [`amd::abi`]).
//!
//! # Using it
//!
//! [`compile_to_ir`]`(spirv_words, entry_point, stage, spec_constants)` parses and checks the
//! module, translates the entry point and everything it calls, and runs the pipeline listed in
//! [`pipeline`]. It returns an [`ir::Shader`] or a [`CompileError`] that names the rejected
//! capability, extension or instruction; no input makes it panic. Specialization constants
//! are given as `SpecId → bit pattern`.
//!
//! The returned IR is *lowered*:
//! - it has a single function (everything is inlined, pointer parameters included);
//! - temporaries are SSA values; only indirectly indexed ones live in per-invocation scratch
//!   ([`ir::Shader::scratch_size`] bytes, `load_scratch`/`store_scratch` at `u32` offsets);
//! - uniform/storage buffers are accessed with `load_buffer`/`store_buffer`/`atomic_*_buffer`
//!   on a `u32x2` address (resource index from `resource_index set binding [index]`, byte
//!   offset); push constants with `load_push` on a `u32` offset; workgroup memory with
//!   `*_shared` on a `u32` offset ([`ir::Shader::shared_size`] bytes); buffer device addresses
//!   with `*_global` on a `u64`;
//! - system values are `load_sysval` of local invocation id, workgroup id and number of
//!   workgroups (global id and local index are computed from them);
//! - image and sampler instructions and graphics inputs/outputs remain derefs (their lowering
//!   comes with the graphics backend).
//! - subgroup operations are `subgroup_*` instructions ([`ir::SubgroupOp`]) over the active
//!   lanes of a 32-lane wave; the interpreter runs the lanes of a wave together at them (see
//!   [`interp`]) and the backend selects DPP, `v_permlanex16`, `v_readlane`, `ds_bpermute`
//!   and scalar mask code for them ([`amd::isel`]).
//!
//! # How it is built
//!
//! - [`spirv`]: `rspirv` decodes the binary; module and function translation build the IR.
//! - [`ir`]: interned types that carry their layout, typed SSA instructions with derefs,
//!   builder, printer, validator and the reference semantics of every ALU op.
//! - [`analysis`]: CFG orders and dominance.
//! - [`passes`]: one pass per file, named with a verb.
//! - [`interp`]: the IR interpreter every pass is tested against.
//! - [`amd`]: the RDNA2 compute backend (divergence, selection, register allocation, waits,
//!   hazards, encoding) and the shader ABI.
//!
//! `FERRUM_DEBUG=ir` prints the IR after every pass; `FERRUM_DEBUG=validate` validates between
//! passes in release builds too (debug builds always do); `FERRUM_DEBUG=shaders` prints the
//! machine code of every compiled shader; `FERRUM_DEBUG=nounroll` skips loop unrolling.

pub mod amd;
pub mod analysis;
pub mod debug;
pub mod error;
pub mod interp;
pub mod ir;
pub mod meta;
pub mod passes;
pub mod pipeline;
pub mod spirv;

pub use error::CompileError;
pub use pipeline::compile_to_ir;
