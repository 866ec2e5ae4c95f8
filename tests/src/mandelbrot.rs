//! The demo workload: a Mandelbrot image computed by a compute shader (fixed point, so every
//! driver must produce the same bytes), shared by `ferrum-demo` and the tests.

use ash_loaded::vk;

use crate::gpu::Gpu;
use crate::shaders::compute_spirv;

pub const SHADER: &str = include_str!("../shaders/mandelbrot.comp");

/// The image size and view.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub width: u32,
    pub height: u32,
    pub max_iter: u32,
}

/// Renders on `gpu`; returns RGBA8 pixels, row by row.
pub fn render(gpu: &Gpu, view: View) -> Vec<u8> {
    let d = &gpu.device;
    let bytes = u64::from(view.width) * u64::from(view.height) * 4;
    let image = gpu.host_buffer(bytes);
    let code = compute_spirv(SHADER);
    // Real axis -2.25..0.75 across the width, centred vertically, in 4.12 fixed point.
    let step = (3 * 4096 / view.width as i32).max(1);
    let push: Vec<u8> = [
        view.width,
        view.height,
        (-9 * 4096 / 4) as u32,
        (-(step * view.height as i32) / 2) as u32,
        step as u32,
        view.max_iter,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    // SAFETY: valid create infos on live handles; everything is destroyed after the GPU is done.
    unsafe {
        let binding = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)];
        let set_layout = d
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                None,
            )
            .unwrap();
        let ranges = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: push.len() as u32,
        }];
        let layouts = [set_layout];
        let layout = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&layouts)
                    .push_constant_ranges(&ranges),
                None,
            )
            .unwrap();
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            .unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout);
        let pipeline = d
            .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
            .map_err(|(_, e)| e)
            .expect("vkCreateComputePipelines")[0];
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 1,
        }];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                None,
            )
            .unwrap();
        let set = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            )
            .unwrap()[0];
        let buf_info =
            [vk::DescriptorBufferInfo { buffer: image.buffer, offset: 0, range: vk::WHOLE_SIZE }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&buf_info);
        d.update_descriptor_sets(&[write], &[]);
        gpu.run(|d, cb| {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::COMPUTE, layout, 0, &[set], &[]);
            d.cmd_push_constants(cb, layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
            d.cmd_dispatch(cb, view.width.div_ceil(8), view.height.div_ceil(8), 1);
            let barrier = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            );
        });
        d.destroy_descriptor_pool(pool, None);
        d.destroy_pipeline(pipeline, None);
        d.destroy_shader_module(module, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_descriptor_set_layout(set_layout, None);
    }
    let pixels = image.bytes().to_vec();
    gpu.destroy_buffer(image);
    pixels
}
