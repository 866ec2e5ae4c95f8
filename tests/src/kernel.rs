//! Compute kernels for the end-to-end tests: the descriptor set layouts, pipeline layout,
//! shader module and pipeline that every compute test needs, created together and destroyed
//! together, so each test spells out only what it is about (its shader, bindings, dispatch
//! and checks).

use ash_loaded::{vk, Device};

/// A compute-stage binding of `count` descriptors of `ty`.
pub fn binding(
    n: u32,
    ty: vk::DescriptorType,
    count: u32,
) -> vk::DescriptorSetLayoutBinding<'static> {
    vk::DescriptorSetLayoutBinding::default()
        .binding(n)
        .descriptor_type(ty)
        .descriptor_count(count)
        .stage_flags(vk::ShaderStageFlags::COMPUTE)
}

/// The less common pipeline creation inputs; `Default` is no cache, no flags, no
/// specialization.
#[derive(Default)]
pub struct KernelOptions<'a> {
    pub cache: vk::PipelineCache,
    pub flags: vk::PipelineCreateFlags,
    pub specialization: Option<&'a vk::SpecializationInfo<'a>>,
}

/// A compute pipeline and the objects it was made from; all destroyed on drop (the GPU must
/// be done with them by then).
pub struct Kernel<'d> {
    device: &'d Device,
    pub set_layouts: Vec<vk::DescriptorSetLayout>,
    pub layout: vk::PipelineLayout,
    pub module: vk::ShaderModule,
    pub pipeline: vk::Pipeline,
}

impl<'d> Kernel<'d> {
    /// A kernel for SPIR-V `code` with entry point `main`, one descriptor set per entry of
    /// `sets`, and `push_bytes` of push constants (none when 0).
    pub fn new(
        device: &'d Device,
        code: &[u32],
        sets: &[&[vk::DescriptorSetLayoutBinding<'_>]],
        push_bytes: u32,
    ) -> Kernel<'d> {
        Self::with_options(device, code, sets, push_bytes, &KernelOptions::default())
    }

    /// As [`Kernel::new`], with a pipeline cache, creation flags or specialization.
    pub fn with_options(
        device: &'d Device,
        code: &[u32],
        sets: &[&[vk::DescriptorSetLayoutBinding<'_>]],
        push_bytes: u32,
        options: &KernelOptions<'_>,
    ) -> Kernel<'d> {
        let d = device;
        // SAFETY: valid create infos on a live device; the objects are destroyed in Drop.
        unsafe {
            let set_layouts: Vec<_> = sets
                .iter()
                .map(|b| {
                    let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(b);
                    d.create_descriptor_set_layout(&info, None)
                        .expect("vkCreateDescriptorSetLayout")
                })
                .collect();
            let push = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: push_bytes,
            }];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
            if push_bytes > 0 {
                layout_info = layout_info.push_constant_ranges(&push);
            }
            let layout =
                d.create_pipeline_layout(&layout_info, None).expect("vkCreatePipelineLayout");
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(code), None)
                .expect("vkCreateShaderModule");
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            if let Some(spec) = options.specialization {
                stage = stage.specialization_info(spec);
            }
            let info = vk::ComputePipelineCreateInfo::default()
                .flags(options.flags)
                .stage(stage)
                .layout(layout);
            let pipeline = d
                .create_compute_pipelines(options.cache, &[info], None)
                .map_err(|(_, e)| e)
                .expect("vkCreateComputePipelines")[0];
            Kernel { device, set_layouts, layout, module, pipeline }
        }
    }

    /// Records binding the pipeline and `sets` (from set 0 on).
    pub fn bind(&self, cb: vk::CommandBuffer, sets: &[vk::DescriptorSet], dynamic: &[u32]) {
        let (d, compute) = (self.device, vk::PipelineBindPoint::COMPUTE);
        // SAFETY: a command buffer of this device in the recording state.
        unsafe {
            d.cmd_bind_pipeline(cb, compute, self.pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(cb, compute, self.layout, 0, sets, dynamic);
            }
        }
    }

    /// Records a push-constant update at offset 0.
    pub fn push(&self, cb: vk::CommandBuffer, bytes: &[u8]) {
        // SAFETY: a command buffer of this device in the recording state.
        unsafe {
            self.device.cmd_push_constants(cb, self.layout, vk::ShaderStageFlags::COMPUTE, 0, bytes)
        };
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        let d = self.device;
        // SAFETY: the GPU no longer uses these (callers wait before dropping).
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_shader_module(self.module, None);
            d.destroy_pipeline_layout(self.layout, None);
            for &l in &self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
        }
    }
}

/// A descriptor pool holding exactly one set of one layout; destroyed (with the set) on drop.
pub struct SetPool<'d> {
    device: &'d Device,
    pub pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
}

impl<'d> SetPool<'d> {
    /// A pool sized for `bindings` and the one set of `layout` (made from those bindings).
    pub fn new(
        device: &'d Device,
        layout: vk::DescriptorSetLayout,
        bindings: &[vk::DescriptorSetLayoutBinding<'_>],
    ) -> SetPool<'d> {
        let sizes: Vec<_> = bindings
            .iter()
            .map(|b| vk::DescriptorPoolSize {
                ty: b.descriptor_type,
                descriptor_count: b.descriptor_count,
            })
            .collect();
        let layouts = [layout];
        // SAFETY: valid create and allocate infos on a live device; the pool is destroyed in
        // Drop.
        unsafe {
            let info = vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes);
            let pool = device.create_descriptor_pool(&info, None).expect("vkCreateDescriptorPool");
            let alloc = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool)
                .set_layouts(&layouts);
            let set = device.allocate_descriptor_sets(&alloc).expect("vkAllocateDescriptorSets")[0];
            SetPool { device, pool, set }
        }
    }

    /// Points `binding` (descriptors from 0 on) at `infos`.
    pub fn write_buffers(
        &self,
        binding: u32,
        ty: vk::DescriptorType,
        infos: &[vk::DescriptorBufferInfo],
    ) {
        let write = vk::WriteDescriptorSet::default()
            .dst_set(self.set)
            .dst_binding(binding)
            .descriptor_type(ty)
            .buffer_info(infos);
        // SAFETY: the set is live and not in use by the GPU while it is written.
        unsafe { self.device.update_descriptor_sets(&[write], &[]) };
    }

    /// Points `binding` at `view` as a sampled image the shader reads in `layout`.
    pub fn write_sampled_image(&self, binding: u32, view: vk::ImageView, layout: vk::ImageLayout) {
        let info = vk::DescriptorImageInfo {
            image_view: view,
            image_layout: layout,
            ..Default::default()
        };
        write_image(self.device, self.set, binding, vk::DescriptorType::SAMPLED_IMAGE, info);
    }

    /// Points the SAMPLER bindings `first`, `first + 1`, … at `samplers`, one each.
    pub fn write_samplers(&self, first: u32, samplers: &[vk::Sampler]) {
        for (binding, &sampler) in (first..).zip(samplers) {
            let info = vk::DescriptorImageInfo { sampler, ..Default::default() };
            write_image(self.device, self.set, binding, vk::DescriptorType::SAMPLER, info);
        }
    }
}

impl Drop for SetPool<'_> {
    fn drop(&mut self) {
        // SAFETY: the GPU no longer uses the set (callers wait before dropping).
        unsafe { self.device.destroy_descriptor_pool(self.pool, None) };
    }
}

/// Points descriptor 0 of `binding` in `set` at the image `info`.
pub fn write_image(
    d: &Device,
    set: vk::DescriptorSet,
    binding: u32,
    ty: vk::DescriptorType,
    info: vk::DescriptorImageInfo,
) {
    let infos = [info];
    let write = vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(binding)
        .descriptor_type(ty)
        .image_info(&infos);
    // SAFETY: the set is live and not in use by the GPU while it is written.
    unsafe { d.update_descriptor_sets(&[write], &[]) };
}

/// A whole-buffer descriptor range for `buffer`.
pub fn whole(buffer: vk::Buffer) -> vk::DescriptorBufferInfo {
    vk::DescriptorBufferInfo { buffer, offset: 0, range: vk::WHOLE_SIZE }
}

/// A barrier from compute-shader writes to host reads (what an application needs before
/// reading results through a mapping).
pub fn compute_to_host(device: &Device, cb: vk::CommandBuffer) {
    let stages = (vk::PipelineStageFlags::COMPUTE_SHADER, vk::PipelineStageFlags::HOST);
    let access = (vk::AccessFlags::SHADER_WRITE, vk::AccessFlags::HOST_READ);
    crate::gpu::memory_barrier(device, cb, stages, access);
}

/// Dispatches `workgroups` workgroups of `spirv`, whose only binding is a storage buffer of
/// `bytes` bytes at set 0, binding 0, and returns the buffer's words. The buffer starts as all
/// ones, so a word the shader should have written and did not stands out.
pub fn run_with_one_buffer(
    gpu: &crate::gpu::Gpu,
    spirv: &[u32],
    workgroups: u32,
    bytes: u64,
) -> Vec<u32> {
    let d = &gpu.device;
    let out = gpu.host_buffer(bytes);
    out.write(0, &vec![0xff; out.size as usize]);
    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
    {
        let kernel = Kernel::new(d, spirv, &[&bindings], 0);
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        gpu.run(|d, cb| {
            kernel.bind(cb, &[set.set], &[]);
            // SAFETY: a recording command buffer.
            unsafe { d.cmd_dispatch(cb, workgroups, 1, 1) };
            compute_to_host(d, cb);
        });
    }
    let words = out.u32s();
    gpu.destroy_buffer(out);
    words
}
