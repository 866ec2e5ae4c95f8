//! Descriptor set layouts, pools, sets, updates, pipeline layouts and shader modules through
//! the loader with validation on, plus a create/destroy loop with bounded memory growth.

use std::process::Command;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{rss_bytes, Harness};

const SHADER: &str = "#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } data;
layout(push_constant) uniform Push { uint add; } pc;
void main() { data.v[gl_GlobalInvocationID.x] += pc.add; }
";

/// SPIR-V for [`SHADER`], compiled once per process with glslangValidator (the same tool the
/// compiler corpus uses).
fn spirv() -> Vec<u32> {
    static CODE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    CODE.get_or_init(compile).clone()
}

fn compile() -> Vec<u32> {
    let dir = std::env::temp_dir().join(format!("ferrum-desc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, out) = (dir.join("t.comp"), dir.join("t.spv"));
    std::fs::write(&src, SHADER).unwrap();
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.0", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("glslangValidator (install glslang-tools)");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stdout));
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn binding(n: u32, ty: vk::DescriptorType, count: u32) -> vk::DescriptorSetLayoutBinding<'static> {
    vk::DescriptorSetLayoutBinding::default()
        .binding(n)
        .descriptor_type(ty)
        .descriptor_count(count)
        .stage_flags(vk::ShaderStageFlags::COMPUTE)
}

/// One round: layouts, a pool, sets, every kind of update, a pipeline layout, frees.
fn round(gpu: &Gpu, buffer: vk::Buffer, code: &[u32]) {
    let d = &gpu.device;
    // SAFETY: valid create infos on live handles; everything is destroyed at the end.
    unsafe {
        let bindings = [
            binding(0, vk::DescriptorType::STORAGE_BUFFER, 2),
            binding(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
            binding(2, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 1),
            binding(3, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
        ];
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let layout = d.create_descriptor_set_layout(&info, None).unwrap();
        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 4 },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::UNIFORM_BUFFER, descriptor_count: 2 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
                descriptor_count: 2,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                descriptor_count: 2,
            },
        ];
        let pool_info = vk::DescriptorPoolCreateInfo::default()
            .flags(vk::DescriptorPoolCreateFlags::FREE_DESCRIPTOR_SET)
            .max_sets(2)
            .pool_sizes(&sizes);
        let pool = d.create_descriptor_pool(&pool_info, None).unwrap();
        let layouts = [layout, layout];
        let alloc =
            vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts);
        let sets = d.allocate_descriptor_sets(&alloc).unwrap();
        let one = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(pool)
            .set_layouts(&layouts[..1]);

        let whole = [vk::DescriptorBufferInfo { buffer, offset: 0, range: vk::WHOLE_SIZE }];
        let part = [
            vk::DescriptorBufferInfo { buffer, offset: 256, range: 256 },
            vk::DescriptorBufferInfo { buffer, offset: 512, range: 512 },
        ];
        let writes = [
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&part),
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(1)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(&whole),
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(2)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                .buffer_info(&part[..1]),
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(3)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .buffer_info(&part[1..]),
        ];
        let copies = [vk::CopyDescriptorSet::default()
            .src_set(sets[0])
            .src_binding(0)
            .dst_set(sets[1])
            .dst_binding(0)
            .descriptor_count(2)];
        d.update_descriptor_sets(&writes, &copies);
        d.free_descriptor_sets(pool, &sets[1..]).unwrap();
        let again = d.allocate_descriptor_sets(&one).unwrap();
        d.reset_descriptor_pool(pool, vk::DescriptorPoolResetFlags::empty()).unwrap();
        let _ = again;

        let push = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: 4,
        }];
        let pl_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&layouts[..1])
            .push_constant_ranges(&push);
        let pipeline_layout = d.create_pipeline_layout(&pl_info, None).unwrap();
        // A set layout may go before the pipeline layout that uses it.
        d.destroy_descriptor_set_layout(layout, None);
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(code), None)
            .unwrap();
        d.destroy_shader_module(module, None);
        d.destroy_pipeline_layout(pipeline_layout, None);
        d.destroy_descriptor_pool(pool, None);
    }
}

/// RSS is per process: the tests of this file run one at a time so that the leak check
/// measures only itself.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn descriptor_objects_are_validation_clean() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let buf = gpu.host_buffer(4096);
    round(&gpu, buf.buffer, &spirv());
    gpu.destroy_buffer(buf);
    h.assert_clean();
}

/// Errors an application can get (these calls break valid usage, so no validation layer).
#[test]
fn exhausted_pools_are_errors() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: valid create infos; the over-allocation is the invalid usage under test.
    unsafe {
        let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 3)];
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let layout = d.create_descriptor_set_layout(&info, None).unwrap();
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 4,
        }];
        let pool_info = vk::DescriptorPoolCreateInfo::default().max_sets(4).pool_sizes(&sizes);
        let pool = d.create_descriptor_pool(&pool_info, None).unwrap();
        let layouts = [layout];
        let alloc =
            vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts);
        d.allocate_descriptor_sets(&alloc).unwrap();
        let r = d.allocate_descriptor_sets(&alloc);
        assert_eq!(r.err(), Some(vk::Result::ERROR_OUT_OF_POOL_MEMORY));
        d.destroy_descriptor_pool(pool, None);
        d.destroy_descriptor_set_layout(layout, None);
    }
}

#[test]
fn descriptor_rounds_do_not_leak() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let buf = gpu.host_buffer(4096);
    let code = spirv();
    for _ in 0..50 {
        round(&gpu, buf.buffer, &code);
    }
    let before = rss_bytes();
    for _ in 0..500 {
        round(&gpu, buf.buffer, &code);
    }
    let growth = rss_bytes().saturating_sub(before);
    eprintln!("RSS growth over 500 descriptor rounds: {} KiB", growth >> 10);
    assert!(growth < 256 << 10, "RSS grew by {} KiB", growth >> 10);
    gpu.destroy_buffer(buf);
}
