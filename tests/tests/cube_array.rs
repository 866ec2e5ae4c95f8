//! Cube-array sampling (`imageCubeArray`) through the loader, validation layer on: a
//! 4×4 RGBA8 image of two cubes (12 layers, texel (x, y) of layer L = (20 L, 60 x, 60 y, 255))
//! is uploaded by a copy and read through a CUBE_ARRAY view with `samplerCubeArray` and a
//! nearest sampler from a compute shader, at directions through known texels of every face
//! and at cube indices that round (1.2 → 1) and clamp (7.0 → 1, -0.4 → 0). The result must
//! equal the texel the spec's cube face selection table names (computed here by hand) on
//! Ferrum and on lavapipe.

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, whole, Kernel, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};

const N: u32 = 4;
const CUBES: u32 = 2;
const LAYERS: u32 = 6 * CUBES;
/// Face-local points (s, t), each well inside one texel.
const POINTS: [(f32, f32); 4] = [(0.1, 0.1), (0.6, 0.35), (0.9, 0.8), (0.3, 0.7)];
/// Cube index coordinates and the cube each selects (round to nearest, clamp).
const CUBE_COORDS: [(f32, u32); 4] = [(0.0, 0), (1.2, 1), (7.0, 1), (-0.4, 0)];
const LOOKUPS: usize = 6 * POINTS.len() * CUBE_COORDS.len();

const SHADER: &str = "#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform textureCubeArray tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) readonly buffer Dirs { vec4 dirs[]; };
layout(set = 0, binding = 3) writeonly buffer Out { uvec4 texels[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(dirs.length())) return;
    vec4 c = textureLod(samplerCubeArray(tex, smp), dirs[i], 0.0);
    texels[i] = uvec4(round(c * 255.0));
}
";

/// The direction through face-local (s, t) of `face` (the spec's "Cube Map Face Selection"
/// table solved for the direction, major axis ±1).
fn direction(face: u32, s: f32, t: f32) -> [f32; 3] {
    let (sc, tc) = (2.0 * s - 1.0, 2.0 * t - 1.0);
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

fn texel(layer: u32, x: u32, y: u32) -> [u32; 4] {
    [20 * layer, 60 * x, 60 * y, 255]
}

/// The lookups: (direction and cube coordinate, expected texel).
fn lookups() -> Vec<([f32; 4], [u32; 4])> {
    let mut out = Vec::new();
    for face in 0..6 {
        for &(s, t) in &POINTS {
            for &(c, cube) in &CUBE_COORDS {
                let [x, y, z] = direction(face, s, t);
                let (tx, ty) = ((s * N as f32) as u32, (t * N as f32) as u32);
                out.push(([x, y, z, c], texel(6 * cube + face, tx, ty)));
            }
        }
    }
    out
}

/// Runs the lookups on `pd`; the texels read.
fn sample(h: &Harness, pd: vk::PhysicalDevice) -> Vec<[u32; 4]> {
    let features = vk::PhysicalDeviceFeatures::default().image_cube_array(true);
    let gpu = Gpu::with_features(&h.instance, pd, 0, &features);
    let d = &gpu.device;
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    let upload = gpu.host_buffer(u64::from(N * N * LAYERS * 4));
    let bytes: Vec<u8> = (0..LAYERS)
        .flat_map(|l| (0..N * N).flat_map(move |i| texel(l, i % N, i / N).map(|v| v as u8)))
        .collect();
    upload.write(0, &bytes);
    let dirs: Vec<u8> =
        lookups().iter().flat_map(|(d, _)| d.map(f32::to_le_bytes)).flatten().collect();
    let dir_buf = gpu.host_buffer(dirs.len() as u64);
    dir_buf.write(0, &dirs);
    let out = gpu.host_buffer(LOOKUPS as u64 * 16);
    out.write(0, &vec![0xcd; LOOKUPS * 16]);
    let bindings = [
        binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
        binding(1, vk::DescriptorType::SAMPLER, 1),
        binding(2, vk::DescriptorType::STORAGE_BUFFER, 1),
        binding(3, vk::DescriptorType::STORAGE_BUFFER, 1),
    ];
    let kernel = Kernel::new(d, &compute_spirv(SHADER), &[&bindings], 0);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .flags(vk::ImageCreateFlags::CUBE_COMPATIBLE)
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width: N, height: N, depth: 1 })
            .mip_levels(1)
            .array_layers(LAYERS)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = gpu.bind_image_memory(image);
        let info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::CUBE_ARRAY)
            .format(vk::Format::R8G8B8A8_UNORM)
            .subresource_range(range);
        let view = d.create_image_view(&info, None).expect("vkCreateImageView");
        let nearest = vk::SamplerCreateInfo::default()
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE);
        let sampler = d.create_sampler(&nearest, None).expect("vkCreateSampler");
        let read = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
        set.write_sampled_image(0, view, read);
        set.write_samplers(1, &[sampler]);
        set.write_buffers(2, vk::DescriptorType::STORAGE_BUFFER, &[whole(dir_buf.buffer)]);
        set.write_buffers(3, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        let barrier = |old, new, src, dst| {
            vk::ImageMemoryBarrier::default()
                .image(image)
                .old_layout(old)
                .new_layout(new)
                .src_access_mask(src)
                .dst_access_mask(dst)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(range)
        };
        let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        let region = vk::BufferImageCopy {
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: LAYERS,
            },
            image_extent: vk::Extent3D { width: N, height: N, depth: 1 },
            ..Default::default()
        };
        gpu.run(|d, cb| {
            let (transfer, compute) =
                (vk::PipelineStageFlags::TRANSFER, vk::PipelineStageFlags::COMPUTE_SHADER);
            let flags = vk::DependencyFlags::empty();
            let none = vk::AccessFlags::empty();
            let write = vk::AccessFlags::TRANSFER_WRITE;
            let to_dst = barrier(vk::ImageLayout::UNDEFINED, dst, none, write);
            let top = vk::PipelineStageFlags::TOP_OF_PIPE;
            d.cmd_pipeline_barrier(cb, top, transfer, flags, &[], &[], &[to_dst]);
            d.cmd_copy_buffer_to_image(cb, upload.buffer, image, dst, &[region]);
            let to_read = barrier(dst, read, write, vk::AccessFlags::SHADER_READ);
            d.cmd_pipeline_barrier(cb, transfer, compute, flags, &[], &[], &[to_read]);
            kernel.bind(cb, &[set.set], &[]);
            d.cmd_dispatch(cb, (LOOKUPS as u32).div_ceil(32), 1, 1);
            ferrum_tests::kernel::compute_to_host(d, cb);
        });
        let words = out.u32s();
        drop(set);
        drop(kernel);
        d.destroy_sampler(sampler, None);
        d.destroy_image_view(view, None);
        d.destroy_image(image, None);
        d.free_memory(memory, None);
        for b in [upload, dir_buf, out] {
            gpu.destroy_buffer(b);
        }
        words.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }
}

#[test]
fn cube_arrays_sample_the_selected_cube_and_face() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want: Vec<[u32; 4]> = lookups().into_iter().map(|(_, t)| t).collect();
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let got = sample(&h, pd);
        let bad: Vec<String> = (0..LOOKUPS)
            .filter(|&i| got[i] != want[i])
            .map(|i| {
                format!("lookup {i} {:?}: got {:?}, want {:?}", lookups()[i].0, got[i], want[i])
            })
            .collect();
        assert!(
            bad.is_empty(),
            "{name}: {} of {LOOKUPS} differ: {}",
            bad.len(),
            bad[..bad.len().min(4)].join("; ")
        );
    }
    h.assert_clean();
}
