//! The scene harness of the graphics differential tests (tests/graphics.rs,
//! tests/graphics_shaders.rs): a single-subpass render pass over one colour target left in
//! SHADER_READ_ONLY_OPTIMAL for a compute reader, and the comparison of two renderings with
//! the edge slack Vulkan's coverage rules allow.

use ash_loaded::{vk, Device};

use crate::Harness;

/// A compute shader copying a `w` x `h` RGBA target (set 0: sampled image 0, sampler 1) into
/// a storage buffer (binding 2) as packed UNORM8 texels, row-major.
pub fn reader_source(w: u32, h: u32) -> String {
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) buffer Out {{ uint o[]; }};
void main() {{
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x < {w} && g.y < {h}) {{
        vec4 c = texelFetch(sampler2D(tex, smp), g, 0);
        o[g.y * {w} + g.x] = packUnorm4x8(c);
    }}
}}
"
    )
}

/// The first memory type in `bits`.
pub fn memory_type(h: &Harness, pd: vk::PhysicalDevice, bits: u32) -> u32 {
    // SAFETY: a live physical device.
    let m = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    (0..m.memory_type_count).find(|&i| bits & (1 << i) != 0).expect("memory type")
}

/// A render pass over one colour attachment of `format`, loaded or cleared as `load` says
/// and left in SHADER_READ_ONLY_OPTIMAL for the compute reader.
///
/// # Safety
/// `d` is a live device.
pub unsafe fn render_pass(
    d: &Device,
    format: vk::Format,
    load: vk::AttachmentLoadOp,
) -> vk::RenderPass {
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let att = [vk::AttachmentDescription::default()
        .format(format)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(load)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(if load == vk::AttachmentLoadOp::LOAD {
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
        } else {
            vk::ImageLayout::UNDEFINED
        })
        .final_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)];
    let refs = [vk::AttachmentReference { attachment: 0, layout }];
    let sub = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs)];
    let deps = [
        vk::SubpassDependency::default()
            .src_subpass(vk::SUBPASS_EXTERNAL)
            .dst_subpass(0)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(
                vk::AccessFlags::COLOR_ATTACHMENT_WRITE | vk::AccessFlags::COLOR_ATTACHMENT_READ,
            ),
        vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(
                vk::PipelineStageFlags::COMPUTE_SHADER
                    | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            )
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(
                vk::AccessFlags::SHADER_READ | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            ),
    ];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&att).subpasses(&sub).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// A comparison's tolerances.
pub struct Tolerance {
    /// Target width and height.
    pub w: u32,
    pub h: u32,
    /// Per channel, in UNORM8 steps.
    pub channel: i32,
    /// Pixels allowed to differ (each next to a pixel of the other's value: an edge).
    pub edge_slack: usize,
}

/// Whether two RGBA8 texels agree within `tol` per channel.
pub fn close(a: u32, b: u32, tol: i32) -> bool {
    (0..4).all(|c| ((a >> (8 * c) & 0xff) as i32 - (b >> (8 * c) & 0xff) as i32).abs() <= tol)
}

/// Mismatching pixels of `ours` against `lvp` with no neighbour of the other value (a
/// difference there is not an edge-coverage choice).
pub fn compare(name: &str, t: &Tolerance, ours: &[u32], lvp: &[u32]) -> Result<(), String> {
    let (tol, w, h) = (t.channel, t.w, t.h);
    let bad: Vec<usize> = (0..ours.len()).filter(|&i| !close(ours[i], lvp[i], tol)).collect();
    let inner: Vec<usize> = bad
        .iter()
        .copied()
        .filter(|&i| {
            let (x, y) = ((i as u32 % w) as i32, (i as u32 / w) as i32);
            let near = |dx: i32, dy: i32| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0 && ny >= 0 && nx < w as i32 && ny < h as i32 && {
                    let j = (ny as u32 * w + nx as u32) as usize;
                    close(ours[i], lvp[j], tol) || close(lvp[i], ours[j], tol)
                }
            };
            !(near(1, 0) || near(-1, 0) || near(0, 1) || near(0, -1))
        })
        .collect();
    if bad.len() > t.edge_slack || !inner.is_empty() {
        let show: Vec<String> = bad
            .iter()
            .take(8)
            .map(|&i| {
                format!(
                    "({}, {}): ferrum {:08x} lavapipe {:08x}",
                    i as u32 % w,
                    i as u32 / w,
                    ours[i],
                    lvp[i]
                )
            })
            .collect();
        return Err(format!(
            "{}: {} pixels differ ({} not at edges)\n{}",
            name,
            bad.len(),
            inner.len(),
            show.join("\n")
        ));
    }
    Ok(())
}
