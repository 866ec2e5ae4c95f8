//! Specialization constants in both graphics stages through the loader (validation layer
//! on): the vertex stage's constants move and widen a pixel-aligned rectangle, the fragment
//! stage's pick its colour; the two stages specialize the same constant ID to different
//! values (each stage has its own VkSpecializationInfo), and a pipeline without
//! specialization takes the shaders' defaults. The image is compared exactly with the one
//! computed here from the constants (and lavapipe draws the same).

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::GraphicsDesc;
use ferrum_tests::scene::module;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target, H, W};

const VS: &str = "#version 450
layout(constant_id = 0) const int SHIFT = 0;
layout(constant_id = 1) const int GROW = 0;
layout(push_constant) uniform P { ivec4 rect; } pc;
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    vec2 p = vec2(right ? pc.rect.z + GROW : pc.rect.x, bottom ? pc.rect.w : pc.rect.y);
    p.x += float(SHIFT);
    gl_Position = vec4(p / vec2(37.0, 23.0) * 2.0 - 1.0, 0.0, 1.0);
}
";

const FS: &str = "#version 450
layout(constant_id = 0) const int SHIFT = 0;
layout(constant_id = 2) const uint LEVEL = 255u;
layout(constant_id = 3) const bool BLUE = false;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(LEVEL) / 255.0, float(SHIFT) / 255.0, BLUE ? 1.0 : 0.0, 1.0); }
";

const RECT: Rect = [4, 3, 20, 15];

/// Constants of one stage: (ID, 4-byte value), packed in order.
fn info(entries: &[(u32, [u8; 4])], data: &mut Vec<u8>) -> Vec<vk::SpecializationMapEntry> {
    entries
        .iter()
        .map(|&(id, bytes)| {
            let offset = data.len() as u32;
            data.extend(bytes);
            vk::SpecializationMapEntry { constant_id: id, offset, size: 4 }
        })
        .collect()
}

/// The image of one draw of `RECT` with the pipeline specialized by `vs` / `fs` (None: no
/// specialization of that stage).
fn render(
    h: &Harness,
    pd: vk::PhysicalDevice,
    vs: Option<&[(u32, [u8; 4])]>,
    fs: Option<&[(u32, [u8; 4])]>,
) -> Vec<u8> {
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
    let d = &gpu.device;
    let t = Target::new(h, pd, &gpu);
    let out = gpu.host_buffer(u64::from(W * H * 4));
    let modules = [module(d, VS, "vert"), module(d, FS, "frag")];
    let (mut vs_data, mut fs_data) = (Vec::new(), Vec::new());
    let vs_map = vs.map(|e| info(e, &mut vs_data)).unwrap_or_default();
    let fs_map = fs.map(|e| info(e, &mut fs_data)).unwrap_or_default();
    let vs_info = vk::SpecializationInfo::default().map_entries(&vs_map).data(&vs_data);
    let fs_info = vk::SpecializationInfo::default().map_entries(&fs_map).data(&fs_data);
    let mut desc = GraphicsDesc::new(t.pass, t.layout, modules);
    desc.specialization = [vs.map(|_| &vs_info), fs.map(|_| &fs_info)];
    // SAFETY: valid create infos and commands on live handles; destroyed after the wait.
    unsafe {
        let pipeline = desc.create(d);
        gpu.run(|d, cb| {
            t.begin(d, cb);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            let mut push = Vec::new();
            RECT.iter().for_each(|v| push.extend(v.to_le_bytes()));
            push.extend([0; 16]);
            let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
            d.cmd_push_constants(cb, t.layout, stages, 0, &push);
            d.cmd_draw(cb, 6, 1, 0, 0);
            d.cmd_end_render_pass(cb);
            t.read_back(d, cb, &out);
        });
        d.destroy_pipeline(pipeline, None);
        for m in modules {
            d.destroy_shader_module(m, None);
        }
    }
    let bytes = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    t.destroy(d);
    bytes
}

#[test]
fn both_stages_take_their_own_specialization() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let int = |v: i32| v.to_le_bytes();
    // Vertex: SHIFT 5, GROW 7 (ID 2 is not the vertex shader's: an entry for an ID a stage
    // does not declare is ignored). Fragment: SHIFT 102 (so green is 102/255), LEVEL 51,
    // BLUE true (a VkBool32).
    let vs: &[(u32, [u8; 4])] = &[(0, int(5)), (1, int(7)), (2, int(9))];
    let fs: &[(u32, [u8; 4])] = &[(0, int(102)), (2, 51u32.to_le_bytes()), (3, 1u32.to_le_bytes())];
    let [x0, y0, x1, y1] = RECT;
    let moved: Rect = [x0 + 5, y0, x1 + 7 + 5, y1];
    let specialized = raster::painted(&[(moved, [0.2, 0.4, 1.0, 1.0])]);
    let defaults = raster::painted(&[(RECT, [1.0, 0.0, 0.0, 1.0])]);
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let got = render(&h, pd, Some(vs), Some(fs));
        assert!(raster::close(&got, &specialized), "{name}: specialized pipeline");
        let got = render(&h, pd, None, None);
        assert!(raster::close(&got, &defaults), "{name}: the shaders' defaults");
        // Only the fragment stage specialized: the rectangle stays, the colour changes.
        let got = render(&h, pd, None, Some(fs));
        let want = raster::painted(&[(RECT, [0.2, 0.4, 1.0, 1.0])]);
        assert!(raster::close(&got, &want), "{name}: fragment stage alone");
    }
    h.assert_clean();
}
