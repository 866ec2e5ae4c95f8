//! The AMD RDNA2 (gfx1030, wave32) backend for compute shaders.
//!
//! Pipeline ([`compile`]): divergence analysis and instruction selection with exec-mask
//! lowering of control flow ([`isel`]) and operand legalization ([`legalize`]) → scalar load merging ([`smem_merge`]) → vector memory merging ([`vmem_merge`]) → register allocation ([`regalloc`], spilling vector
//! values to scratch through [`spill`] when the file runs out) checked by [`regalloc_check`] in validating builds → `s_waitcnt` insertion ([`waitcnt`]) → hazard wait states
//! ([`hazards`]) → layout, branch relaxation and encoding ([`emit`]). The contract with the
//! driver (user SGPRs, descriptor memory, register values) is [`abi`].

pub mod abi;
pub mod coalesce;
pub mod emit;
pub mod error;
pub mod graphics;
pub mod hazards;
pub mod isel;
pub mod legalize;
pub mod liveness;
pub mod mir;
pub mod opt_dce;
pub mod opt_exec;
pub mod reg_file;
pub mod regalloc;
pub mod regalloc_check;
pub mod smem_merge;
pub mod spill;
pub mod vmem_merge;
pub mod waitcnt;

pub(crate) use isel::build as isel_build;

use std::time::Instant;

pub use abi::{DescriptorKind, ResourceLayout, ShaderMetadata};
pub use error::BackendError;
pub use graphics::{compile_graphics, GfxBinary, GfxMetadata};
pub use isel::{SubgroupClass, SubgroupFeatures, SUBGROUP_FEATURES};

use crate::ir::{Mode, Shader, Stage, Type};

/// Compilation statistics (what `VK_KHR_pipeline_executable_properties` and `ferrum-compile
/// --stats` report).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Instructions.
    pub instructions: u32,
    /// Code size in bytes.
    pub code_size: u32,
    /// VGPRs used.
    pub vgprs: u32,
    /// SGPRs used.
    pub sgprs: u32,
    /// VGPR dwords spilled to scratch.
    pub spilled_vgprs: u32,
    /// SGPR dwords spilled to VGPR lanes.
    pub spilled_sgprs: u32,
    /// LDS bytes.
    pub lds_size: u32,
    /// Scratch bytes per lane.
    pub scratch_size: u32,
    /// Backend compile time in milliseconds.
    pub compile_ms: f64,
}

impl Stats {
    /// One-line JSON object.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"instructions\":{},\"code_size\":{},\"vgprs\":{},\"sgprs\":{},\"spilled_vgprs\":{},\"spilled_sgprs\":{},\"lds_size\":{},\"scratch_size\":{},\"compile_ms\":{:.3}}}",
            self.instructions,
            self.code_size,
            self.vgprs,
            self.sgprs,
            self.spilled_vgprs,
            self.spilled_sgprs,
            self.lds_size,
            self.scratch_size,
            self.compile_ms
        )
    }
}

/// A compiled compute shader.
#[derive(Clone, Debug)]
pub struct Binary {
    /// Machine code (place at a 256-byte aligned address).
    pub code: Vec<u8>,
    /// Register values and sizes.
    pub metadata: ShaderMetadata,
    /// Statistics.
    pub stats: Stats,
    /// Disassembly in LLVM syntax.
    pub isa_text: String,
}

/// The resource layout an icd would build for `shader`'s own bindings when no pipeline layout
/// is given (tools and tests): uniform and storage buffers, densely packed per set.
pub fn default_layout(shader: &Shader) -> ResourceLayout {
    let mut b = Vec::new();
    for v in &shader.vars {
        let Some(sb) = v.binding else { continue };
        let (n, elem) = match shader.types.get(v.ty) {
            Type::Array { len, elem, .. } => (*len, *elem),
            Type::RuntimeArray { elem, .. } => (1, *elem),
            _ => (1, v.ty),
        };
        let kind = match v.mode {
            Mode::Uniform => DescriptorKind::UniformBuffer,
            Mode::Storage => DescriptorKind::StorageBuffer,
            Mode::Handle => match handle_kind(shader, elem) {
                Some(k) => k,
                None => continue,
            },
            _ => continue,
        };
        b.push((sb, kind, n));
    }
    ResourceLayout::packed(&b)
}

/// The descriptor kind a handle variable of (element) type `t` needs.
pub fn handle_kind(shader: &Shader, t: crate::ir::TypeId) -> Option<DescriptorKind> {
    Some(match shader.types.get(t) {
        Type::Sampler => DescriptorKind::Sampler,
        Type::SampledImage { image } => match shader.types.get(*image) {
            Type::Image { dim: crate::ir::ImageDim::Buffer, .. } => {
                DescriptorKind::UniformTexelBuffer
            }
            _ => DescriptorKind::CombinedImageSampler,
        },
        Type::Image { dim: crate::ir::ImageDim::Buffer, storage, .. } => {
            if *storage {
                DescriptorKind::StorageTexelBuffer
            } else {
                DescriptorKind::UniformTexelBuffer
            }
        }
        Type::Image { subpass: true, .. } => DescriptorKind::InputAttachment,
        Type::Image { storage: true, .. } => DescriptorKind::StorageImage,
        Type::Image { .. } => DescriptorKind::SampledImage,
        _ => return None,
    })
}

/// Compiles lowered IR (from [`crate::compile_to_ir`]) of a compute shader.
pub fn compile(shader: &Shader, layout: &ResourceLayout) -> Result<Binary, BackendError> {
    let t0 = Instant::now();
    if shader.stage != Stage::Compute {
        return Err(BackendError::NotCompute);
    }
    let spill::Allocated { mut mf, alloc, spilled_vgprs, spilled_sgprs } =
        spill::select_and_allocate(shader, layout)?;
    if alloc.sgprs > u32::from(emit::LONG_BRANCH_SGPR) {
        return Err(BackendError::OutOfRegisters("scalar"));
    }
    regalloc_check::check_when_validating(&mf, &alloc)?;
    waitcnt::insert_waits(&mut mf, &alloc);
    regalloc::rewrite(&mut mf, &alloc);
    emit::drop_branches_to_next(&mut mf);
    hazards::fix_hazards(&mut mf);
    let code = emit::emit(&mf)?;
    let bytes: Vec<u8> = code.words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = emit::with_constant_data(bytes, &shader.constant_data);
    // The user and system SGPRs hold inputs whether or not the program reads them; VCC is
    // counted by hardware.
    let user = abi::UserSgprs { scratch: mf.scratch_inputs };
    let sgprs = alloc.sgprs.max(user.initialised());
    let vgprs = alloc.vgprs.max(3);
    // The metadata's scratch size is what selects the scratch ABI, so it is nonzero whenever
    // the code expects the scratch inputs.
    let scratch = if mf.scratch_inputs { mf.scratch_bytes.max(4) } else { 0 };
    let mut metadata =
        ShaderMetadata::new(shader.workgroup_size, vgprs, sgprs, shader.shared_size, scratch);
    metadata.rsrc1 = abi::with_float_mode(metadata.rsrc1, shader.float_controls);
    let stats = Stats {
        instructions: code.instructions,
        code_size: bytes.len() as u32,
        vgprs,
        sgprs,
        spilled_vgprs,
        spilled_sgprs,
        lds_size: shader.shared_size,
        scratch_size: scratch,
        compile_ms: t0.elapsed().as_secs_f64() * 1000.0,
    };
    let isa_text = emit::listing(&code.words);
    if crate::debug::DebugFlags::get().shaders {
        eprintln!("=== {} (compute)\n{isa_text}; {}", shader.entry_fn().name, stats.to_json());
    }
    Ok(Binary { isa_text, code: bytes, metadata, stats })
}

/// Why a SPIR-V compute shader could not be turned into machine code.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ShaderError {
    /// The front end or the IR passes refused the module.
    #[error(transparent)]
    Frontend(#[from] crate::error::CompileError),
    /// The backend refused the lowered IR.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// SPIR-V compute entry point → machine code: [`crate::compile_to_ir`] then [`compile`]. The
/// driver's one call per compute pipeline (`spec` maps specialization-constant ids to values).
pub fn compile_spirv(
    words: &[u32],
    entry: &str,
    spec: &std::collections::HashMap<u32, u64>,
    layout: &ResourceLayout,
) -> Result<Binary, ShaderError> {
    let ir = crate::compile_to_ir(words, entry, Stage::Compute, spec)?;
    Ok(compile(&ir, layout)?)
}
