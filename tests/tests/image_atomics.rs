//! Image and texel-buffer atomics on R32_UINT and R32_SINT (the formats the spec requires
//! them for), differential against lavapipe through the loader with validation on.
//!
//! A 13 x 7, 2-layer storage image (its second mip level exists, so the view is one level of
//! several) or a storage texel buffer of as many texels, cleared to a known value, takes one
//! kernel of 182 invocations: the first 72 each own a texel and exchange it, then compare-swap
//! it once with a compare value that fails and once with one that succeeds (the returned old
//! values are deterministic); every invocation then adds, min-s, max-s, ands, ors and xors a
//! value of its own into one of 18 texels per operation (about ten invocations per texel,
//! so the atomics really collide; the final values do not depend on their order). The
//! returned values of the owned texels and every final texel must equal lavapipe's exactly.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, Gpu, ViewedImage};
use ferrum_tests::kernel::{binding, whole, write_image, Kernel, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 13;
const H: u32 = 7;
const LAYERS: u32 = 2;
const TEXELS: u32 = W * H * LAYERS;
/// Invocations that own a texel (exchange, compare-swap).
const OWNED: u32 = 72;
/// The clear value of every texel.
const CLEAR: u32 = 0x1234_5678;

/// The kernel for `uint` (R32_UINT) or `int` texels, through a 2D-array image or a buffer.
fn source(signed: bool, buffer: bool) -> String {
    let (t, q, p) = if signed { ("int", "r32i", "i") } else { ("uint", "r32ui", "u") };
    let (ty, coord) = if buffer {
        ("imageBuffer", "int at(int t) { return t; }")
    } else {
        ("image2DArray", "ivec3 at(int t) { return ivec3(t % 13, t / 13 % 7, t / 91); }")
    };
    format!(
        "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, {q}) uniform {p}{ty} img;
layout(set = 0, binding = 1) buffer Out {{ uint o[]; }};
{coord}
void main() {{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= {TEXELS}) return;
    if (i < {OWNED}) {{
        {t} mine = {t}(i * 77 + 5);
        o[i * 3] = uint(imageAtomicExchange(img, at(i), mine));
        o[i * 3 + 1] = uint(imageAtomicCompSwap(img, at(i), {t}(12345), {t}(1)));
        o[i * 3 + 2] = uint(imageAtomicCompSwap(img, at(i), mine, {t}(-i)));
    }}
    {t} x = {t}(uint(i) * 2654435761u);
    int s = i % 18;
    imageAtomicAdd(img, at({OWNED} + s), x);
    imageAtomicMin(img, at({OWNED} + 18 + s), x);
    imageAtomicMax(img, at({OWNED} + 36 + s), x);
    imageAtomicAnd(img, at({OWNED} + 54 + s), x | {t}(0x0f0f0f0f));
    imageAtomicOr(img, at({OWNED} + 72 + s), x & {t}(0x00ff00ff));
    imageAtomicXor(img, at({OWNED} + 90 + s), x);
}}
"
    )
}

fn format(signed: bool) -> vk::Format {
    if signed {
        vk::Format::R32_SINT
    } else {
        vk::Format::R32_UINT
    }
}

fn layers(level: u32, levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: level,
        level_count: levels,
        base_array_layer: 0,
        layer_count: LAYERS,
    }
}

/// The 2-level, 2-layer storage image and its view of level 0 (both layers).
fn storage(gpu: &Gpu, format: vk::Format) -> ViewedImage {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(2)
        .array_layers(LAYERS)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(
            vk::ImageUsageFlags::STORAGE
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST,
        );
    gpu.viewed_image(&info, vk::ImageViewType::TYPE_2D_ARRAY, layers(0, 1))
}

/// A barrier over every level and layer of `image` (a layout transition when `old` and `new`
/// differ).
fn barrier(
    image: vk::Image,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
    (src, dst): (vk::AccessFlags, vk::AccessFlags),
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .image(image)
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(layers(0, 2))
}

/// Runs the kernel on `gpu`: the returned values and the final texels.
fn run(gpu: &Gpu, signed: bool, buffer: bool) -> (Vec<u32>, Vec<u32>) {
    let d = &gpu.device;
    let ty = if buffer {
        vk::DescriptorType::STORAGE_TEXEL_BUFFER
    } else {
        vk::DescriptorType::STORAGE_IMAGE
    };
    let bindings = [binding(0, ty, 1), binding(1, vk::DescriptorType::STORAGE_BUFFER, 1)];
    let kernel = Kernel::new(d, &compute_spirv(&source(signed, buffer)), &[&bindings], 0);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    let out = gpu.host_buffer(u64::from(OWNED * 3 * 4));
    out.write(0, &vec![0xcd; (OWNED * 3 * 4) as usize]);
    set.write_buffers(1, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
    let texels = gpu.storage_texel_buffer(u64::from(TEXELS * 4));
    let clear: Vec<u8> = (0..TEXELS).flat_map(|_| CLEAR.to_le_bytes()).collect();
    texels.write(0, &clear);
    let cs = vk::PipelineStageFlags::COMPUTE_SHADER;
    let transfer = vk::PipelineStageFlags::TRANSFER;
    let none = vk::DependencyFlags::empty();
    // SAFETY: valid create infos, descriptor writes and commands on live objects; all
    // destroyed after the GPU is idle.
    unsafe {
        if buffer {
            let info = vk::BufferViewCreateInfo::default()
                .buffer(texels.buffer)
                .format(format(signed))
                .range(vk::WHOLE_SIZE);
            let view = d.create_buffer_view(&info, None).expect("vkCreateBufferView");
            let views = [view];
            let write = vk::WriteDescriptorSet::default()
                .dst_set(set.set)
                .dst_binding(0)
                .descriptor_type(ty)
                .texel_buffer_view(&views);
            d.update_descriptor_sets(&[write], &[]);
            gpu.run(|d, cb| {
                kernel.bind(cb, &[set.set], &[]);
                d.cmd_dispatch(cb, TEXELS.div_ceil(64), 1, 1);
                ferrum_tests::kernel::compute_to_host(d, cb);
            });
            d.destroy_buffer_view(view, None);
        } else {
            let image = storage(gpu, format(signed));
            let general = vk::ImageLayout::GENERAL;
            let info = vk::DescriptorImageInfo {
                image_view: image.view,
                image_layout: general,
                ..Default::default()
            };
            write_image(d, set.set, 0, ty, info);
            let region = vk::BufferImageCopy {
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                },
                image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
                ..Default::default()
            };
            type A = vk::AccessFlags;
            type L = vk::ImageLayout;
            gpu.run(|d, cb| {
                let i = image.image;
                let (dst, src) = (L::TRANSFER_DST_OPTIMAL, L::TRANSFER_SRC_OPTIMAL);
                let to_dst = barrier(i, (L::UNDEFINED, dst), (A::empty(), A::TRANSFER_WRITE));
                let top = vk::PipelineStageFlags::TOP_OF_PIPE;
                d.cmd_pipeline_barrier(cb, top, transfer, none, &[], &[], &[to_dst]);
                d.cmd_copy_buffer_to_image(cb, texels.buffer, i, dst, &[region]);
                let rw = A::SHADER_READ | A::SHADER_WRITE;
                let uploaded = barrier(i, (dst, general), (A::TRANSFER_WRITE, rw));
                d.cmd_pipeline_barrier(cb, transfer, cs, none, &[], &[], &[uploaded]);
                kernel.bind(cb, &[set.set], &[]);
                d.cmd_dispatch(cb, TEXELS.div_ceil(64), 1, 1);
                let done = barrier(i, (general, src), (A::SHADER_WRITE, A::TRANSFER_READ));
                d.cmd_pipeline_barrier(cb, cs, transfer, none, &[], &[], &[done]);
                d.cmd_copy_image_to_buffer(cb, i, src, texels.buffer, &[region]);
                transfer_to_host(d, cb);
                ferrum_tests::kernel::compute_to_host(d, cb);
            });
            image.destroy(d);
        }
    }
    let result = (out.u32s(), texels.u32s());
    drop(set);
    gpu.destroy_buffer(out);
    gpu.destroy_buffer(texels);
    result
}

fn first_difference(what: &str, ours: &[u32], lvp: &[u32]) -> Option<String> {
    let i = ours.iter().zip(lvp).position(|(a, b)| a != b)?;
    Some(format!("{what} {i}: ferrum {:#x}, lavapipe {:#x}", ours[i], lvp[i]))
}

fn check(failures: &mut Vec<String>, lvp_gpu: &Gpu, ours_gpu: &Gpu, signed: bool, buffer: bool) {
    let (lvp_old, lvp_final) = run(lvp_gpu, signed, buffer);
    // Sanity on lavapipe: the first compare-swap failed, the second succeeded.
    assert_eq!(lvp_old[..3], [CLEAR, 5, 5], "lavapipe's returned values");
    assert_eq!(lvp_final[0], 0, "lavapipe's final owned texel");
    let (old, fin) = run(ours_gpu, signed, buffer);
    let name = format!("{:?} {}", format(signed), if buffer { "texel buffer" } else { "image" });
    failures.extend(first_difference(&format!("{name} returned"), &old, &lvp_old));
    failures.extend(first_difference(&format!("{name} texel"), &fin, &lvp_final));
}

#[test]
fn r32_atomics_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
    let ours_gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[]);
    let mut failures = Vec::new();
    for signed in [false, true] {
        for buffer in [false, true] {
            check(&mut failures, &lvp_gpu, &ours_gpu, signed, buffer);
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
