//! Compute pipelines: SPIR-V compiled by Ferrum's compiler at `vkCreateComputePipelines`,
//! code placed in GPU memory, registers ready for dispatch.
//!
//! The pipeline layout becomes the compiler's `ResourceLayout` (the contract in
//! `ferrum_compiler::amd::abi`): set-memory bindings at the byte offsets the set layout chose,
//! dynamic buffers numbered across the pipeline layout in set order.
//!
//! A pipeline whose metadata asks for scratch (private memory, `scratch_bytes_per_lane`) owns
//! its scratch ring, sized by the metadata for `abi::SCRATCH_RING_WAVES` wave slots. The ring
//! lives as long as the pipeline, which Vulkan requires to outlive every command buffer that
//! uses it, and no other pipeline shares it, so dispatches of different pipelines on different
//! queues can never hand the same wave slot to two waves.

use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::Arc;

use ash::vk;
use ferrum_compiler::amd::{self, abi};
use ferrum_compiler::ir::Stage;

use super::cache::{CachedShader, Hasher, PipelineCache};
use super::layout::PipelineLayout;
use super::shader_module::ShaderModule;
use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::descriptor::{Kind, Place};
use crate::error::{VkError, VkResult};

/// Bytes read past the end of a program by the instruction prefetcher (Mesa over-allocates
/// shader memory for the same reason).
pub(crate) const PREFETCH_SLOP: u64 = 256;

/// What a dispatch needs from a compiled pipeline.
pub struct ComputeProgram {
    code: GpuAlloc,
    /// The scratch ring, for programs whose metadata needs scratch.
    scratch: Option<GpuAlloc>,
    pub metadata: abi::ShaderMetadata,
    pub stats: amd::Stats,
    pub isa_text: String,
    /// Per set: index of its first dynamic buffer in the push block, and how many it has.
    pub dynamic_sets: Vec<(u32, u32)>,
    pub dynamic_count: u32,
}

impl ComputeProgram {
    pub fn code_va(&self) -> u64 {
        self.code.va()
    }

    /// GPU address of the scratch ring (0 for programs without scratch).
    pub fn scratch_va(&self) -> u64 {
        self.scratch.as_ref().map_or(0, GpuAlloc::va)
    }

    /// A program around given code and metadata, without the compiler (tests of recording).
    pub fn from_parts(
        shared: &DeviceShared,
        code: &[u32],
        metadata: abi::ShaderMetadata,
    ) -> VkResult<Self> {
        let mem = GpuAlloc::new(shared.winsys(), 4 * code.len() as u64 + PREFETCH_SLOP)?;
        mem.write_u32s(0, code);
        Ok(ComputeProgram {
            code: mem,
            scratch: scratch_ring(shared, &metadata)?,
            metadata,
            stats: amd::Stats::default(),
            isa_text: String::new(),
            dynamic_sets: Vec::new(),
            dynamic_count: 0,
        })
    }
}

/// A `VkPipeline`: a compute program or a graphics program.
#[repr(C)]
pub struct Pipeline {
    base: ObjectBase,
    pub program: Program,
}

/// What a pipeline runs.
pub enum Program {
    Compute(Arc<ComputeProgram>),
    Graphics(Arc<crate::gfx::pipeline::GraphicsProgram>),
}

impl Pipeline {
    /// A graphics pipeline around `program`.
    pub fn graphics(program: crate::gfx::pipeline::GraphicsProgram) -> Self {
        Pipeline {
            base: ObjectBase::new(vk::ObjectType::PIPELINE),
            program: Program::Graphics(Arc::new(program)),
        }
    }

    /// Statistics and disassembly of each stage (compute: one; graphics: vertex, fragment).
    pub fn executables(&self) -> Vec<(vk::ShaderStageFlags, &amd::Stats, &str)> {
        match &self.program {
            Program::Compute(p) => vec![(vk::ShaderStageFlags::COMPUTE, &p.stats, &p.isa_text)],
            Program::Graphics(p) => vec![
                (vk::ShaderStageFlags::VERTEX, &p.stats[0], &p.isa_text[0]),
                (vk::ShaderStageFlags::FRAGMENT, &p.stats[1], &p.isa_text[1]),
            ],
        }
    }
}
vk_object!(Pipeline, vk::Pipeline, vk::ObjectType::PIPELINE);

/// The compiler's view of a pipeline layout.
pub fn resource_layout(layout: &PipelineLayout) -> abi::ResourceLayout {
    let mut out = abi::ResourceLayout::default();
    for (set, (l, &dyn_base)) in layout.sets.iter().zip(&layout.dynamic_base).enumerate() {
        let Some(l) = l else { continue };
        for b in &l.bindings {
            let kind = match b.kind {
                Kind::UniformBuffer => abi::DescriptorKind::UniformBuffer,
                Kind::StorageBuffer => abi::DescriptorKind::StorageBuffer,
                Kind::UniformBufferDynamic => abi::DescriptorKind::UniformBufferDynamic,
                Kind::StorageBufferDynamic => abi::DescriptorKind::StorageBufferDynamic,
                Kind::Sampler => abi::DescriptorKind::Sampler,
                Kind::CombinedImageSampler => abi::DescriptorKind::CombinedImageSampler,
                Kind::SampledImage => abi::DescriptorKind::SampledImage,
                Kind::StorageImage => abi::DescriptorKind::StorageImage,
                Kind::UniformTexelBuffer => abi::DescriptorKind::UniformTexelBuffer,
                Kind::StorageTexelBuffer => abi::DescriptorKind::StorageTexelBuffer,
                Kind::InputAttachment => abi::DescriptorKind::InputAttachment,
            };
            let offset = match b.place {
                Place::Memory(o) => o as u32,
                Place::Dynamic(i) => dyn_base + i,
            };
            out.bindings.insert(
                (set as u32, b.binding),
                abi::BindingLayout { kind, offset, array_size: b.count },
            );
        }
    }
    out
}

/// The scratch ring a program with this metadata needs, if any.
fn scratch_ring(
    shared: &DeviceShared,
    metadata: &abi::ShaderMetadata,
) -> VkResult<Option<GpuAlloc>> {
    if metadata.scratch_bytes_per_lane == 0 {
        return Ok(None);
    }
    GpuAlloc::new(shared.winsys(), metadata.scratch_ring_bytes()).map(Some)
}

/// Specialization constants as the compiler takes them: SpecId → bit pattern.
pub(crate) fn specialization(
    info: Option<&vk::SpecializationInfo<'_>>,
) -> VkResult<HashMap<u32, u64>> {
    let mut out = HashMap::new();
    let Some(info) = info else { return Ok(out) };
    let data = crate::api::array(info.p_data.cast::<u8>(), info.data_size as u32);
    for e in crate::api::array(info.p_map_entries, info.map_entry_count) {
        let range = e.offset as usize..e.offset as usize + e.size;
        // VUID-VkSpecializationMapEntry-constantID-00776 / VkSpecializationInfo-offset-00773:
        // the entry lies inside pData.
        let bytes = data.get(range).ok_or(VkError::InvalidUsage("specialization entry range"))?;
        if !matches!(bytes.len(), 1 | 2 | 4 | 8) {
            return Err(VkError::InvalidUsage("specialization constant size"));
        }
        let mut v = [0u8; 8];
        v[..bytes.len()].copy_from_slice(bytes);
        out.insert(e.constant_id, u64::from_le_bytes(v));
    }
    Ok(out)
}

/// The cache key: a hash of everything compilation depends on.
pub(crate) fn cache_key(
    words: &[u32],
    entry: &str,
    spec: &HashMap<u32, u64>,
    layout: &abi::ResourceLayout,
) -> u64 {
    let mut h = Hasher::default();
    h.u64(words.len() as u64);
    words.iter().for_each(|&w| {
        h.u32(w);
    });
    h.u64(entry.len() as u64).bytes(entry.as_bytes());
    let mut spec: Vec<_> = spec.iter().collect();
    spec.sort_unstable();
    h.u64(spec.len() as u64);
    spec.iter().for_each(|(&id, &v)| {
        h.u32(id).u64(v);
    });
    h.u64(layout.bindings.len() as u64);
    for (&(set, binding), b) in &layout.bindings {
        h.u32(set).u32(binding).u32(b.kind as u32).u32(b.offset).u32(b.array_size);
    }
    h.finish()
}

/// Runs the compiler. A panic inside it (a compiler bug on some input) becomes a pipeline
/// creation error instead of reaching the entry-point guard as device loss.
pub(crate) fn compile(
    words: &[u32],
    entry: &str,
    spec: &HashMap<u32, u64>,
    layout: &abi::ResourceLayout,
) -> VkResult<CachedShader> {
    std::panic::catch_unwind(|| compile_unguarded(words, entry, spec, layout)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(VkError::InvalidShader(format!("compiler panicked: {msg}")))
    })
}

fn compile_unguarded(
    words: &[u32],
    entry: &str,
    spec: &HashMap<u32, u64>,
    layout: &abi::ResourceLayout,
) -> VkResult<CachedShader> {
    let ir = ferrum_compiler::compile_to_ir(words, entry, Stage::Compute, spec)
        .map_err(|e| VkError::InvalidShader(e.to_string()))?;
    let bin = amd::compile(&ir, layout).map_err(|e| VkError::InvalidShader(e.to_string()))?;
    Ok(CachedShader {
        code: bin.code,
        metadata: bin.metadata,
        stats: bin.stats,
        isa_text: bin.isa_text,
    })
}

impl Pipeline {
    pub fn create(
        shared: &DeviceShared,
        cache: Option<&PipelineCache>,
        info: &vk::ComputePipelineCreateInfo<'_>,
    ) -> VkResult<Self> {
        let stage = &info.stage;
        if stage.stage != vk::ShaderStageFlags::COMPUTE {
            return Err(VkError::InvalidUsage("compute pipeline stage must be COMPUTE"));
        }
        // SAFETY: the application passes a live module and layout (valid usage).
        let module = unsafe { ShaderModule::from_handle(stage.module) }
            .ok_or(VkError::InvalidUsage("null shader module"))?;
        // SAFETY: as above.
        let layout = unsafe { PipelineLayout::from_handle(info.layout) }
            .ok_or(VkError::InvalidUsage("null pipeline layout"))?;
        // SAFETY: pName is a valid C string (valid usage).
        let entry = unsafe { CStr::from_ptr(stage.p_name) }
            .to_str()
            .map_err(|_| VkError::InvalidShader("entry point name is not UTF-8".into()))?;
        // SAFETY: a non-null pSpecializationInfo is valid.
        let spec = specialization(unsafe { stage.p_specialization_info.as_ref() })?;
        let words = module.spirv()?;
        let resources = resource_layout(layout);
        let key = cache_key(words, entry, &spec, &resources);
        let bin = match cache.and_then(|c| c.get(key)) {
            Some(hit) => hit,
            // VK_EXT_pipeline_creation_cache_control: "the implementation must not attempt to
            // compile the pipeline" when it is not found in the cache.
            None if info
                .flags
                .contains(vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED) =>
            {
                return Err(VkError::PipelineCompileRequired);
            }
            None => {
                let bin = Arc::new(compile(words, entry, &spec, &resources)?);
                if let Some(c) = cache {
                    c.insert(key, bin.clone());
                }
                bin
            }
        };
        let code = GpuAlloc::new(shared.winsys(), bin.code.len() as u64 + PREFETCH_SLOP)?;
        let words: Vec<u32> = bin
            .code
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect();
        code.write_u32s(0, &words);
        let dynamic_sets = layout
            .sets
            .iter()
            .zip(&layout.dynamic_base)
            .map(|(l, &base)| (base, l.as_ref().map_or(0, |l| l.dynamic_count)))
            .collect();
        if crate::debug::flags().shaders {
            eprintln!("ferrum: compute shader {entry}: {}\n{}", bin.stats.to_json(), bin.isa_text);
        }
        Ok(Pipeline {
            base: ObjectBase::new(vk::ObjectType::PIPELINE),
            program: Program::Compute(Arc::new(ComputeProgram {
                code,
                scratch: scratch_ring(shared, &bin.metadata)?,
                metadata: bin.metadata.clone(),
                stats: bin.stats.clone(),
                isa_text: bin.isa_text.clone(),
                dynamic_sets,
                dynamic_count: layout.dynamic_count,
            })),
        })
    }
}
