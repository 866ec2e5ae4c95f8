//! Images end to end through shaders, differential against lavapipe: a compute shader writes
//! a swizzled (OPTIMAL) 2-level, 2-layer storage image (float, UNORM and integer formats), a second one reads every texel of
//! every level and layer back through imageLoad, texelFetch on a sampled view, and textureLod
//! with a nearest and a linear sampler (explicit LOD, coordinates a quarter texel off centre
//! so the last row and column blend with the clamped edge) into an SSBO. Lavapipe shares the
//! process's loader configuration, so this runs in its own test binary.

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, whole, write_image, Kernel, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 13;
const H: u32 = 7;
const LEVELS: u32 = 2;
const LAYERS: u32 = 2;
/// Words written per texel: imageLoad, texelFetch, nearest, linear (4 components each).
const WORDS: u32 = 16;
const OUT_WORDS: u32 = LEVELS * LAYERS * W * H * WORDS;

/// One format under test: its GLSL storage qualifier, type prefix ("" or "u") and the value
/// written at texel (x, y) of `layer` and `level` as a GLSL expression of `ivec4 p`
/// (x, y, layer, level).
struct Case {
    format: vk::Format,
    qualifier: &'static str,
    prefix: &'static str,
    value: &'static str,
    filterable: bool,
}

const CASES: [Case; 20] = [
    Case {
        format: vk::Format::R8G8B8A8_UNORM,
        qualifier: "rgba8",
        prefix: "",
        value: "vec4(float(p.x * 19 % 256) / 255.0, float(p.y * 41) / 255.0, \
                float(p.x * 40 + p.z * 7 + p.w * 3) / 255.0 - 0.2, float((p.x * 37 + p.y * 11) % 256) / 255.0)",
        filterable: true,
    },
    Case {
        format: vk::Format::R32G32B32A32_SFLOAT,
        qualifier: "rgba32f",
        prefix: "",
        value:
            "vec4(float(p.x) * 1.5 - float(p.y) * 0.3, float(p.z) * 100.0 + float(p.w) * 1000.0, \
                -float(p.x * p.y) / 7.0, 1e-3 * float(p.x + 1))",
        filterable: true,
    },
    Case {
        format: vk::Format::R32_UINT,
        qualifier: "r32ui",
        prefix: "u",
        value:
            "uvec4(0xa0000000u | uint(p.x) | uint(p.y) << 8 | uint(p.z) << 16 | uint(p.w) << 24)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32_SINT,
        qualifier: "r32i",
        prefix: "i",
        value: "ivec4(int(0x80000000u | uint(p.x) | uint(p.y) << 8 | uint(p.z) << 16) - p.w * 7)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8B8A8_UINT,
        qualifier: "rgba8ui",
        prefix: "u",
        value: "uvec4(p.x * 19 % 256, p.y * 41, p.z * 7 + p.w * 3, (p.x * 37 + p.y * 11) % 256)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8B8A8_SINT,
        qualifier: "rgba8i",
        prefix: "i",
        value: "ivec4(p.x * 19 % 128 - 64, -p.y * 17, p.z * 7 - p.w * 3, (p.x * 37 + p.y * 11) % 256 - 128)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16B16A16_UINT,
        qualifier: "rgba16ui",
        prefix: "u",
        value: "uvec4(p.x * 4099 % 65536, p.y * 9000, p.z * 77 + p.w, 65535 - p.x)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16B16A16_SINT,
        qualifier: "rgba16i",
        prefix: "i",
        value: "ivec4(p.x * 4099 % 65536 - 32768, -p.y * 4000, p.z * 77 - p.w, 32767 - p.x)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32_SFLOAT,
        qualifier: "r32f",
        prefix: "",
        value: "vec4(float(p.x) * 1.25 - float(p.y) * 1e3 + float(p.z) + float(p.w) * 0.5)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32G32_UINT,
        qualifier: "rg32ui",
        prefix: "u",
        value: "uvec4(0xdead0000u | uint(p.x) << 8 | uint(p.y), uint(p.z) * 0x10001u + uint(p.w) * 3u, 0u, 0u)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32G32_SINT,
        qualifier: "rg32i",
        prefix: "i",
        value: "ivec4(-p.x * 100000 + p.y, p.z - p.w * 70000, 0, 0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32G32_SFLOAT,
        qualifier: "rg32f",
        prefix: "",
        value: "vec4(float(p.x) / 3.0, -float(p.y) * 1e5 + float(p.z) - float(p.w), 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32G32B32A32_UINT,
        qualifier: "rgba32ui",
        prefix: "u",
        value: "uvec4(uint(p.x) * 0x01010101u, 0xffffffffu - uint(p.y), uint(p.z) << 31, uint(p.w) + 7u)",
        filterable: false,
    },
    Case {
        format: vk::Format::R32G32B32A32_SINT,
        qualifier: "rgba32i",
        prefix: "i",
        value: "ivec4(-p.x, p.y * 0x7fffffff, p.z - 0x7fffffff - 1, p.w * -3)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16B16A16_SFLOAT,
        qualifier: "rgba16f",
        prefix: "",
        value: "vec4(float(p.x) * 0.5 - float(p.y) * 0.25, float(p.z) * 16.0 + float(p.w) * 64.0, \
                -float(p.x) / 3.0, 20000.0 * float(p.y - 3))",
        filterable: true,
    },
    // Values beyond [-1, 1] are clamped by the store.
    Case {
        format: vk::Format::R8G8B8A8_SNORM,
        qualifier: "rgba8_snorm",
        prefix: "",
        value: "vec4(float(p.x * 19 % 256) / 127.0 - 1.0, -float(p.y * 41) / 127.0, \
                float(p.z * 7 + p.w * 3) / 127.0 - 0.5, 1.5 - float(p.x) / 4.0)",
        filterable: false,
    },
    // A8B8G8R8 packs R in the low byte: RGBA8's memory, through the same shader formats.
    Case {
        format: vk::Format::A8B8G8R8_UNORM_PACK32,
        qualifier: "rgba8",
        prefix: "",
        value: "vec4(float(p.x * 23 % 256) / 255.0, float(p.y * 37) / 255.0, \
                1.2 - float(p.x * 40 + p.z * 7 + p.w * 3) / 255.0, float(p.x * p.y) / 64.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::A8B8G8R8_SNORM_PACK32,
        qualifier: "rgba8_snorm",
        prefix: "",
        value: "vec4(-float(p.x * 23 % 256) / 127.0, float(p.y * 37) / 127.0 - 0.5, \
                float(p.z - p.w) * 0.3, -1.25 + float(p.x) / 5.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::A8B8G8R8_UINT_PACK32,
        qualifier: "rgba8ui",
        prefix: "u",
        value: "uvec4(255 - p.x * 19 % 256, p.y * 29, p.z * 5 + p.w * 11, (p.x * 31 + p.y) % 256)",
        filterable: false,
    },
    Case {
        format: vk::Format::A8B8G8R8_SINT_PACK32,
        qualifier: "rgba8i",
        prefix: "i",
        value: "ivec4(127 - p.x * 19 % 256, -p.y * 18, p.z * 9 - p.w * 5, (p.x * 31 + p.y) % 256 - 128)",
        filterable: false,
    },];

/// The formats of shaderStorageImageExtendedFormats (storage images only).
const EXTENDED: [Case; 23] = [
    Case {
        format: vk::Format::R16G16_SFLOAT,
        qualifier: "rg16f",
        prefix: "",
        value: "vec4(float(p.x) * 0.5 - float(p.y) * 0.25, float(p.z) * 16.0 - float(p.w) * 64.0 + 0.1, 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::B10G11R11_UFLOAT_PACK32,
        qualifier: "r11f_g11f_b10f",
        prefix: "",
        value: "vec4(float(p.x) * 0.75 + float(p.w), float(p.y) * 3.5 + float(p.z) * 100.0, float(p.x * p.y) / 8.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16_SFLOAT,
        qualifier: "r16f",
        prefix: "",
        value: "vec4(float(p.x) * 1.25 - float(p.y) * 30.0 + float(p.z) * 0.5 + float(p.w) * 1000.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16B16A16_UNORM,
        qualifier: "rgba16",
        prefix: "",
        value: "vec4(float(p.x * 4099 % 65536) / 65535.0, float(p.y) / 7.0, float(p.z + p.w) * 0.3 - 0.1, 1.25 - float(p.x) / 10.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::A2B10G10R10_UNORM_PACK32,
        qualifier: "rgb10_a2",
        prefix: "",
        value: "vec4(float(p.x * 77 % 1024) / 1023.0, float(p.y) / 6.0, float(p.z + p.w) * 0.4 - 0.2, float(p.x % 4) / 3.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16_UNORM,
        qualifier: "rg16",
        prefix: "",
        value: "vec4(float(p.x * 5003 % 65536) / 65535.0, 1.1 - float(p.y + p.z + p.w) / 5.0, 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8_UNORM,
        qualifier: "rg8",
        prefix: "",
        value: "vec4(float(p.x * 19 % 256) / 255.0, float(p.y * 41 + p.z * 7 + p.w) / 255.0 - 0.1, 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16_UNORM,
        qualifier: "r16",
        prefix: "",
        value: "vec4(float(p.x * 3001 + p.y * 17 + p.z * 5 + p.w) / 65535.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8_UNORM,
        qualifier: "r8",
        prefix: "",
        value: "vec4(float(p.x * 23 + p.y * 3 + p.z * 101 + p.w * 50) / 255.0 - 0.05)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16B16A16_SNORM,
        qualifier: "rgba16_snorm",
        prefix: "",
        value: "vec4(float(p.x * 4099 % 65536) / 32767.0 - 1.0, -float(p.y) / 7.0, float(p.z - p.w) * 0.6, 1.25 - float(p.x) / 5.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16_SNORM,
        qualifier: "rg16_snorm",
        prefix: "",
        value: "vec4(-float(p.x * 5003 % 32768) / 32767.0, float(p.y + p.z - p.w) / 4.0 - 0.3, 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8_SNORM,
        qualifier: "rg8_snorm",
        prefix: "",
        value: "vec4(float(p.x * 19 % 256) / 127.0 - 1.0, -float(p.y * 17 + p.z * 3 + p.w) / 127.0, 0.0, 0.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16_SNORM,
        qualifier: "r16_snorm",
        prefix: "",
        value: "vec4(float(p.x * 3001 - p.y * 1717 + p.z * 5 - p.w * 9) / 32767.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8_SNORM,
        qualifier: "r8_snorm",
        prefix: "",
        value: "vec4(float(p.x * 23 - p.y * 11 + p.z * 40 - p.w * 50) / 127.0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16_SINT,
        qualifier: "rg16i",
        prefix: "i",
        value: "ivec4(p.x * 4099 % 65536 - 32768, -p.y * 4000 + p.z * 77 - p.w, 0, 0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8_SINT,
        qualifier: "rg8i",
        prefix: "i",
        value: "ivec4(p.x * 19 % 256 - 128, -p.y * 17 + p.z * 7 - p.w * 3, 0, 0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16_SINT,
        qualifier: "r16i",
        prefix: "i",
        value: "ivec4(p.x * 4099 % 65536 - 32760 + p.y - p.z * 3 + p.w * 5)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8_SINT,
        qualifier: "r8i",
        prefix: "i",
        value: "ivec4(p.x * 19 % 200 - 100 + p.y - p.z * 3 + p.w * 5)",
        filterable: false,
    },
    Case {
        format: vk::Format::A2B10G10R10_UINT_PACK32,
        qualifier: "rgb10_a2ui",
        prefix: "u",
        value: "uvec4(p.x * 77 % 1024, p.y * 140, p.z * 500 + p.w, (p.x + p.y) % 4)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16G16_UINT,
        qualifier: "rg16ui",
        prefix: "u",
        value: "uvec4(p.x * 4099 % 65536, p.y * 9000 + p.z * 77 + p.w, 0, 0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8G8_UINT,
        qualifier: "rg8ui",
        prefix: "u",
        value: "uvec4(p.x * 19 % 256, p.y * 29 + p.z * 5 + p.w * 11, 0, 0)",
        filterable: false,
    },
    Case {
        format: vk::Format::R16_UINT,
        qualifier: "r16ui",
        prefix: "u",
        value: "uvec4(p.x * 4099 % 65536 + p.y * 3 + p.z + p.w * 7)",
        filterable: false,
    },
    Case {
        format: vk::Format::R8_UINT,
        qualifier: "r8ui",
        prefix: "u",
        value: "uvec4(p.x * 19 % 200 + p.y * 3 + p.z * 17 + p.w * 7)",
        filterable: false,
    },
];

/// The store's step for the 8-bit normalized formats (255 UNORM, 127 SNORM), 0 for others.
fn norm8_step(format: vk::Format) -> f32 {
    use vk::Format as F;
    match format {
        F::R8G8B8A8_UNORM | F::A8B8G8R8_UNORM_PACK32 => 1.0 / 255.0,
        F::R8G8B8A8_SNORM | F::A8B8G8R8_SNORM_PACK32 => 1.0 / 127.0,
        _ => 0.0,
    }
}

/// How the shaders declare the storage images: with the case's format qualifier, or without
/// one (shaderStorageImageRead/WriteWithoutFormat: the hardware takes the format from the
/// descriptor either way).
#[derive(Clone, Copy, PartialEq)]
enum Decl {
    Formatted,
    Unformatted,
}

/// The layout qualifier suffix of `c`'s storage images and the extension line reads need
/// when they carry no format.
fn storage_decl(c: &Case, decl: Decl) -> (String, &'static str) {
    match decl {
        Decl::Formatted => (format!(", {}", c.qualifier), ""),
        Decl::Unformatted => {
            (String::new(), "#extension GL_EXT_shader_image_load_formatted : require\n")
        }
    }
}

/// The values are `precise` (NoContraction): Vulkan lets a driver fuse `a * b - c * d` into one
/// fma or not, and the comparison with lavapipe is exact.
fn writer_source(c: &Case, decl: Decl) -> String {
    let (p, v) = (c.prefix, c.value);
    let (q, _) = storage_decl(c, decl);
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0{q}) uniform writeonly {p}image2DArray level0;
layout(set = 0, binding = 1{q}) uniform writeonly {p}image2DArray level1;
void main() {{
    ivec3 g = ivec3(gl_GlobalInvocationID);
    if (g.x < {W} && g.y < {H}) {{
        ivec4 p = ivec4(g, 0);
        precise {p}vec4 v = {v};
        imageStore(level0, g, v);
    }}
    if (g.x < {w1} && g.y < {h1}) {{
        ivec4 p = ivec4(g, 1);
        precise {p}vec4 v = {v};
        imageStore(level1, g, v);
    }}
}}
",
        w1 = W / 2,
        h1 = H / 2,
    )
}

fn reader_source(c: &Case, decl: Decl) -> String {
    let p = c.prefix;
    let (q, ext) = storage_decl(c, decl);
    let bits = match p {
        "u" => "",
        "i" => "uvec4",
        _ => "floatBitsToUint",
    };
    let linear = if c.filterable {
        format!(
            "{bits}(textureLod({p}sampler2DArray(tex, linear_smp), vec3((vec2(g.xy) + vec2(0.75, 0.25)) / vec2(w, h), g.z), float(lv)))"
        )
    } else {
        "uvec4(0x5eu)".into()
    };
    format!(
        "#version 450
{ext}layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0{q}) uniform readonly {p}image2DArray level0;
layout(set = 0, binding = 1{q}) uniform readonly {p}image2DArray level1;
layout(set = 0, binding = 2) uniform {p}texture2DArray tex;
layout(set = 0, binding = 3) uniform sampler nearest_smp;
layout(set = 0, binding = 4) uniform sampler linear_smp;
layout(set = 0, binding = 5) buffer Out {{ uvec4 o[]; }};
void main() {{
    ivec3 g = ivec3(gl_GlobalInvocationID);
    for (int lv = 0; lv < {LEVELS}; lv++) {{
        int w = {W} >> lv, h = {H} >> lv;
        if (g.x >= w || g.y >= h) continue;
        int at = 4 * (((lv * {LAYERS} + g.z) * {H} + g.y) * {W} + g.x);
        {p}vec4 loaded = lv == 0 ? imageLoad(level0, g) : imageLoad(level1, g);
        o[at] = {bits}(loaded);
        o[at + 1] = {bits}(texelFetch({p}sampler2DArray(tex, nearest_smp), g, lv));
        vec2 c = (vec2(g.xy) + vec2(0.4, 0.6)) / vec2(w, h);
        o[at + 2] = {bits}(textureLod({p}sampler2DArray(tex, nearest_smp), vec3(c, g.z), float(lv)));
        o[at + 3] = {linear};
    }}
}}
"
    )
}

/// Device-local (or any) memory for `req`.
fn allocate(
    h: &Harness,
    pd: vk::PhysicalDevice,
    d: &Device,
    req: vk::MemoryRequirements,
) -> vk::DeviceMemory {
    // SAFETY: a live physical device.
    let memory = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    let index = (0..memory.memory_type_count)
        .find(|&i| req.memory_type_bits & (1 << i) != 0)
        .expect("memory type");
    let info = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index);
    // SAFETY: a valid allocate info on a live device.
    unsafe { d.allocate_memory(&info, None) }.expect("vkAllocateMemory")
}

fn range(level: u32, levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: level,
        level_count: levels,
        base_array_layer: 0,
        layer_count: LAYERS,
    }
}

fn sampler(d: &Device, filter: vk::Filter) -> vk::Sampler {
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp)
        .max_lod(vk::LOD_CLAMP_NONE);
    // SAFETY: a valid create info on a live device.
    unsafe { d.create_sampler(&info, None) }.expect("vkCreateSampler")
}

/// Runs the writer and the reader for `c` on `gpu`; the reader's output words.
fn round_trip(h: &Harness, pd: vk::PhysicalDevice, gpu: &Gpu, c: &Case, decl: Decl) -> Vec<u32> {
    let d = &gpu.device;
    let general = vk::ImageLayout::GENERAL;
    let storage = vk::DescriptorType::STORAGE_IMAGE;
    let bindings = [
        binding(0, storage, 1),
        binding(1, storage, 1),
        binding(2, vk::DescriptorType::SAMPLED_IMAGE, 1),
        binding(3, vk::DescriptorType::SAMPLER, 1),
        binding(4, vk::DescriptorType::SAMPLER, 1),
        binding(5, vk::DescriptorType::STORAGE_BUFFER, 1),
    ];
    let writer = Kernel::new(d, &compute_spirv(&writer_source(c, decl)), &[&bindings[..2]], 0);
    let reader = Kernel::new(d, &compute_spirv(&reader_source(c, decl)), &[&bindings], 0);
    let out = gpu.host_buffer(u64::from(OUT_WORDS) * 4);
    out.write(0, &vec![0xcd; OUT_WORDS as usize * 4]);
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(c.format)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(LEVELS)
            .array_layers(LAYERS)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED);
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = allocate(h, pd, d, d.get_image_memory_requirements(image));
        d.bind_image_memory(image, memory, 0).unwrap();
        let view = |level: u32, levels: u32| {
            let info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
                .format(c.format)
                .subresource_range(range(level, levels));
            d.create_image_view(&info, None).expect("vkCreateImageView")
        };
        let views = [view(0, 1), view(1, 1), view(0, LEVELS)];
        let samplers = [sampler(d, vk::Filter::NEAREST), sampler(d, vk::Filter::LINEAR)];
        let wset = SetPool::new(d, writer.set_layouts[0], &bindings[..2]);
        let rset = SetPool::new(d, reader.set_layouts[0], &bindings);
        for (set, n) in [(wset.set, 2), (rset.set, 2)] {
            for (i, &v) in views[..n].iter().enumerate() {
                let info = vk::DescriptorImageInfo {
                    image_view: v,
                    image_layout: general,
                    ..Default::default()
                };
                write_image(d, set, i as u32, storage, info);
            }
        }
        rset.write_sampled_image(2, views[2], general);
        rset.write_samplers(3, &samplers);
        rset.write_buffers(5, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        let to_general = vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(general)
            .dst_access_mask(vk::AccessFlags::SHADER_WRITE)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(range(0, LEVELS));
        let written = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ)
            .old_layout(general)
            .new_layout(general)
            .image(image)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(range(0, LEVELS));
        let cs = vk::PipelineStageFlags::COMPUTE_SHADER;
        let dep = vk::DependencyFlags::empty();
        let groups = (W.div_ceil(8), H.div_ceil(8), LAYERS);
        gpu.run(|d, cb| {
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                cs,
                dep,
                &[],
                &[],
                &[to_general],
            );
            writer.bind(cb, &[wset.set], &[]);
            d.cmd_dispatch(cb, groups.0, groups.1, groups.2);
            d.cmd_pipeline_barrier(cb, cs, cs, dep, &[], &[], &[written]);
            reader.bind(cb, &[rset.set], &[]);
            d.cmd_dispatch(cb, groups.0, groups.1, groups.2);
            ferrum_tests::kernel::compute_to_host(d, cb);
        });
        let words = out.u32s();
        drop((wset, rset));
        for v in views {
            d.destroy_image_view(v, None);
        }
        for s in samplers {
            d.destroy_sampler(s, None);
        }
        d.destroy_image(image, None);
        d.free_memory(memory, None);
        gpu.destroy_buffer(out);
        words
    }
}

/// The spread (max - min) of component `k` over the 2 x 2 footprint that the linear sample of
/// texel `t` reads (texels x..x+1, y-1..y of its level, clamped to the edge), from the
/// imageLoad words of lavapipe's output.
fn footprint_spread(lvp: &[u32], t: usize, k: usize) -> f32 {
    let (w, h) = (W as usize, H as usize);
    let (x, y, plane) = (t % w, t / w % h, t / (w * h));
    let level = plane / LAYERS as usize;
    let lw = w >> level;
    let mut values = Vec::new();
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let (tx, ty) = ((x + dx).min(lw - 1), (y + dy).max(1) - 1);
        let at = ((plane * h + ty) * w + tx) * WORDS as usize + k;
        values.push(f32::from_bits(lvp[at]));
    }
    let max = values.iter().copied().fold(f32::MIN, f32::max);
    let min = values.iter().copied().fold(f32::MAX, f32::min);
    max - min
}

/// Whether `ours` matches lavapipe's `lvp` at word `i` of case `c`. Bit-exact, except where
/// Vulkan leaves the rounding to the implementation: a UNORM8 texel read back may differ in
/// the float's last bit (c / 255 is not required to be correctly rounded) if it is the same
/// 8-bit value; a float stored to a 16-bit float may round either way (lavapipe truncates,
/// the hardware rounds to nearest even), so one f16 step; the linear sample may differ by the
/// filter's sub-texel precision (the hardware quantises weights to 8 fractional bits, lavapipe
/// does not): two 1/256 weight steps of the footprint's spread; a float stored to the other
/// 8-bit normalized formats (A8B8G8R8_UNORM, the SNORM8s) may round either way: one step.
fn matches(c: &Case, i: usize, ours: &[u32], lvp: &[u32]) -> bool {
    if ours[i] == lvp[i] {
        return true;
    }
    let (a, b) = (f32::from_bits(ours[i]), f32::from_bits(lvp[i]));
    let unorm = c.format == vk::Format::R8G8B8A8_UNORM;
    let half = c.format == vk::Format::R16G16B16A16_SFLOAT;
    let step = norm8_step(c.format);
    let linear = (i / 4) % 4 == 3;
    if linear && c.filterable {
        let spread = footprint_spread(lvp, i / WORDS as usize, i % 4);
        let rounding = if unorm { 1.0 / 255.0 } else { b.abs() / 1024.0 };
        return (a - b).abs() <= spread / 128.0 + rounding;
    }
    if half {
        return (a - b).abs() <= b.abs() / 1024.0;
    }
    if unorm {
        return (a * 255.0).round() == (b * 255.0).round() && (a - b).abs() <= b.abs() * 3e-7;
    }
    // The other normalized and small-float stores: the conversion may round either way.
    let (abs, rel) = if step != 0.0 { (step, 0.0) } else { extended_step(c.format, i % 4) };
    (abs != 0.0 || rel != 0.0) && (a - b).abs() <= abs * 1.001 + b.abs() * rel
}

/// One step of the stored value of component `k` for the formats of [`EXTENDED`]: absolute
/// for normalized formats (the float-to-fixed conversion may round either way), relative for
/// the small floats (16-bit: 10 mantissa bits; B10G11R11: 6 and 5); (0, 0) compares exactly.
fn extended_step(format: vk::Format, k: usize) -> (f32, f32) {
    use vk::Format as F;
    match format {
        F::R8_UNORM | F::R8G8_UNORM => (1.0 / 255.0, 0.0),
        F::R8_SNORM | F::R8G8_SNORM => (1.0 / 127.0, 0.0),
        F::R16_UNORM | F::R16G16_UNORM | F::R16G16B16A16_UNORM => (1.0 / 65535.0, 0.0),
        F::R16_SNORM | F::R16G16_SNORM | F::R16G16B16A16_SNORM => (1.0 / 32767.0, 0.0),
        F::A2B10G10R10_UNORM_PACK32 if k == 3 => (1.0 / 3.0, 0.0),
        F::A2B10G10R10_UNORM_PACK32 => (1.0 / 1023.0, 0.0),
        F::R16_SFLOAT | F::R16G16_SFLOAT => (0.0, 1.0 / 1024.0),
        F::B10G11R11_UFLOAT_PACK32 => (0.0, 1.0 / 32.0),
        _ => (0.0, 0.0),
    }
}

/// A device of `pd` with the unformatted storage image features when `decl` needs them.
fn gpu_for(h: &Harness, pd: vk::PhysicalDevice, decl: Decl) -> Gpu {
    let on = decl == Decl::Unformatted;
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_storage_image_extended_formats(true)
        .shader_storage_image_read_without_format(on)
        .shader_storage_image_write_without_format(on);
    Gpu::with_features(&h.instance, pd, 0, &features)
}

#[test]
fn storage_fetch_and_sampling_match_lavapipe() {
    storage_images_match_lavapipe(Decl::Formatted);
}

/// The same round trip with storage images declared without a format (writeonly without
/// qualifier, reads through GL_EXT_shader_image_load_formatted), every case's format.
#[test]
fn unformatted_storage_images_match_lavapipe() {
    storage_images_match_lavapipe(Decl::Unformatted);
}

fn storage_images_match_lavapipe(decl: Decl) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let mut failures = Vec::new();
    for c in CASES.iter().chain(&EXTENDED) {
        // The reference declares formats: lavapipe has no shaderStorageImageReadWithoutFormat,
        // and the spec gives both declarations the same results.
        let formatted = Decl::Formatted;
        let lvp = round_trip(&h, lvp_pd, &gpu_for(&h, lvp_pd, formatted), c, formatted);
        // Sanity: lavapipe wrote every texel of every level and layer (no 0xcdcdcdcd left at
        // a texel's imageLoad words).
        for lv in 0..LEVELS {
            for layer in 0..LAYERS {
                let at = (((lv * LAYERS + layer) * H + (H >> lv) - 1) * W + (W >> lv) - 1) * WORDS;
                assert_ne!(
                    lvp[at as usize], 0xcdcd_cdcd,
                    "{:?}: lavapipe level {lv} layer {layer}",
                    c.format
                );
            }
        }
        let ours = round_trip(&h, ours_pd, &gpu_for(&h, ours_pd, decl), c, decl);
        let bad: Vec<String> = (0..OUT_WORDS as usize)
            .filter(|&i| !matches(c, i, &ours, &lvp))
            .take(8)
            .map(|i| {
                let texel = i / WORDS as usize;
                let what = ["imageLoad", "texelFetch", "nearest", "linear"][(i / 4) % 4];
                format!(
                    "texel {texel} {what}[{}]: ferrum {:#x}, lavapipe {:#x}",
                    i % 4,
                    ours[i],
                    lvp[i]
                )
            })
            .collect();
        if !bad.is_empty() {
            failures.push(format!("{:?} differs:\n{}", c.format, bad.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// Texels in the storage texel buffer test.
const TEXELS: u32 = W * H * 2;

/// A kernel storing each case's value at every texel of a storage texel buffer and loading
/// it back.
fn texel_buffer_source(c: &Case, decl: Decl) -> String {
    let (p, v) = (c.prefix, c.value);
    let (q, ext) = storage_decl(c, decl);
    let bits = match p {
        "u" => "",
        "i" => "uvec4",
        _ => "floatBitsToUint",
    };
    format!(
        "#version 450
{ext}layout(local_size_x = 64) in;
layout(set = 0, binding = 0{q}) uniform {p}imageBuffer texels;
layout(set = 0, binding = 1) buffer Out {{ uvec4 o[]; }};
void main() {{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= {TEXELS}) return;
    ivec4 p = ivec4(i % {W}, i / {W} % {H}, i / ({W} * {H}), 0);
    precise {p}vec4 v = {v};
    imageStore(texels, i, v);
    memoryBarrierImage();
    o[i] = {bits}(imageLoad(texels, i));
}}
"
    )
}

/// The texel buffer's bytes and the loaded words for `c` on `gpu`.
fn texel_buffer_round_trip(gpu: &Gpu, c: &Case, decl: Decl) -> (Vec<u8>, Vec<u32>) {
    let d = &gpu.device;
    let bindings = [
        binding(0, vk::DescriptorType::STORAGE_TEXEL_BUFFER, 1),
        binding(1, vk::DescriptorType::STORAGE_BUFFER, 1),
    ];
    let kernel = Kernel::new(d, &compute_spirv(&texel_buffer_source(c, decl)), &[&bindings], 0);
    let bytes = u64::from(TEXELS) * 16;
    let texels = gpu.storage_texel_buffer(bytes);
    texels.write(0, &vec![0xcd; bytes as usize]);
    let out = gpu.host_buffer(u64::from(TEXELS) * 16);
    let info = vk::BufferViewCreateInfo::default()
        .buffer(texels.buffer)
        .format(c.format)
        .offset(0)
        .range(vk::WHOLE_SIZE);
    // SAFETY: valid create info and commands on live handles; destroyed after the GPU is idle.
    unsafe {
        let view = d.create_buffer_view(&info, None).expect("vkCreateBufferView");
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        let views = [view];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set.set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_TEXEL_BUFFER)
            .texel_buffer_view(&views);
        d.update_descriptor_sets(&[write], &[]);
        set.write_buffers(1, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        gpu.run(|d, cb| {
            kernel.bind(cb, &[set.set], &[]);
            d.cmd_dispatch(cb, TEXELS.div_ceil(64), 1, 1);
            ferrum_tests::kernel::compute_to_host(d, cb);
        });
        let result = (texels.bytes().to_vec(), out.u32s());
        drop(set);
        d.destroy_buffer_view(view, None);
        gpu.destroy_buffer(texels);
        gpu.destroy_buffer(out);
        result
    }
}

/// Storage texel buffers (imageStore then imageLoad through an imageBuffer) for every case's
/// format: the buffer's bytes and the loaded values, differential against lavapipe (exact,
/// but for the rounding `matches` allows in stores to UNORM8 and half floats).
#[test]
fn storage_texel_buffers_match_lavapipe() {
    texel_buffers_match_lavapipe(Decl::Formatted);
}

/// The texel buffer round trip with an imageBuffer declared without a format.
#[test]
fn unformatted_storage_texel_buffers_match_lavapipe() {
    texel_buffers_match_lavapipe(Decl::Unformatted);
}

fn texel_buffers_match_lavapipe(decl: Decl) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    // Formats in the reference, as in storage_images_match_lavapipe.
    let lvp_gpu = gpu_for(&h, h.physical_device_named("llvmpipe"), Decl::Formatted);
    let ours_gpu = gpu_for(&h, h.physical_device_named("Ferrum"), decl);
    let mut failures = Vec::new();
    for c in &CASES {
        let (lvp_bytes, lvp) = texel_buffer_round_trip(&lvp_gpu, c, Decl::Formatted);
        let (our_bytes, ours) = texel_buffer_round_trip(&ours_gpu, c, decl);
        // imageLoad words sit in slot 0 of `matches`' layout (not linear).
        let bad_load = (0..ours.len()).find(|&i| {
            let at = i / 4 * WORDS as usize + i % 4;
            let mut a = vec![0; at + 1];
            let mut b = vec![0; at + 1];
            a[at] = ours[i];
            b[at] = lvp[i];
            !matches(c, at, &a, &b)
        });
        let rounding = norm8_step(c.format) != 0.0 || c.format == vk::Format::R16G16B16A16_SFLOAT;
        let bad_bytes = !rounding && our_bytes != lvp_bytes;
        if let Some(i) = bad_load {
            failures.push(format!(
                "{:?} load {i}: ferrum {:#x}, lavapipe {:#x}",
                c.format, ours[i], lvp[i]
            ));
        }
        if bad_bytes {
            let i = our_bytes.iter().zip(&lvp_bytes).position(|(a, b)| a != b).unwrap_or(0);
            failures.push(format!(
                "{:?} byte {i}: ferrum {:#x}, lavapipe {:#x}",
                c.format, our_bytes[i], lvp_bytes[i]
            ));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
