//! The dynamic variant of the depth/stencil corpus: every scene drawn again with pipelines
//! whose extended dynamic state (VK_EXT_extended_dynamic_state and _state2) is baked with
//! decoy values (the opposite of what the draw wants), the real values set by vkCmdSet*EXT
//! before each draw, viewport and scissor with count, and the vertex stride given by
//! vkCmdBindVertexBuffers2EXT. Ferrum must draw exactly the image of the static pipelines.

use ash_loaded::{ext, vk, Device, Instance};
use ferrum_tests::pipeline::GraphicsDesc;

use super::scenes::State;
use super::{Result, W};

/// The device extensions the dynamic variant needs.
pub const EXTENSIONS: [&std::ffi::CStr; 2] =
    [c"VK_EXT_extended_dynamic_state", c"VK_EXT_extended_dynamic_state2"];

/// Every state the variant takes from the command buffer.
const STATES: [vk::DynamicState; 15] = [
    vk::DynamicState::CULL_MODE,
    vk::DynamicState::FRONT_FACE,
    vk::DynamicState::PRIMITIVE_TOPOLOGY,
    vk::DynamicState::VIEWPORT_WITH_COUNT,
    vk::DynamicState::SCISSOR_WITH_COUNT,
    vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE,
    vk::DynamicState::DEPTH_TEST_ENABLE,
    vk::DynamicState::DEPTH_WRITE_ENABLE,
    vk::DynamicState::DEPTH_COMPARE_OP,
    vk::DynamicState::DEPTH_BOUNDS_TEST_ENABLE,
    vk::DynamicState::STENCIL_TEST_ENABLE,
    vk::DynamicState::STENCIL_OP,
    vk::DynamicState::RASTERIZER_DISCARD_ENABLE,
    vk::DynamicState::DEPTH_BIAS_ENABLE,
    vk::DynamicState::PRIMITIVE_RESTART_ENABLE,
];

/// The vertex stride the pipelines are baked with (the scenes' vertices are 16 bytes apart).
pub const DECOY_STRIDE: u32 = 8;

/// The extensions' command tables on one device.
pub struct Eds {
    one: ext::extended_dynamic_state::Device,
    two: ext::extended_dynamic_state2::Device,
}

impl Eds {
    pub fn new(instance: &Instance, device: &Device) -> Eds {
        Eds {
            one: ext::extended_dynamic_state::Device::new(instance, device),
            two: ext::extended_dynamic_state2::Device::new(instance, device),
        }
    }
}

/// A compare op other than `op`.
fn other_compare(op: vk::CompareOp) -> vk::CompareOp {
    if op == vk::CompareOp::NEVER {
        vk::CompareOp::ALWAYS
    } else {
        vk::CompareOp::NEVER
    }
}

/// `s` with decoy operations (its masks and reference are not extended dynamic state).
fn decoy_ops(s: vk::StencilOpState) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: vk::StencilOp::INVERT,
        pass_op: vk::StencilOp::INVERT,
        depth_fail_op: vk::StencilOp::INVERT,
        compare_op: other_compare(s.compare_op),
        ..s
    }
}

/// Bakes the opposite of `st` into `desc` for every state in `STATES` and makes them dynamic.
pub fn decoy(desc: &mut GraphicsDesc<'_>, st: &State) {
    let cull = if st.cull == vk::CullModeFlags::NONE {
        vk::CullModeFlags::FRONT_AND_BACK
    } else {
        vk::CullModeFlags::NONE
    };
    desc.rasterization = desc
        .rasterization
        .cull_mode(cull)
        .front_face(vk::FrontFace::CLOCKWISE)
        .rasterizer_discard_enable(true)
        .depth_bias_enable(st.bias.is_none());
    desc.topology = vk::PrimitiveTopology::TRIANGLE_STRIP;
    let ds = desc.depth_stencil.as_mut().expect("the scene's depth/stencil state");
    *ds = ds
        .depth_test_enable(!st.depth_test)
        .depth_write_enable(!st.depth_write)
        .depth_compare_op(other_compare(st.compare))
        .depth_bounds_test_enable(st.bounds.is_none())
        .stencil_test_enable(!st.stencil)
        .front(decoy_ops(st.front))
        .back(decoy_ops(st.back));
    desc.dynamic.extend(STATES);
}

/// Sets the real values of `st` (the state `decoy` baked the opposite of) on `cb`.
///
/// # Safety
/// `cb` is recording inside a render pass on the device of `eds`.
pub unsafe fn set(eds: &Eds, cb: vk::CommandBuffer, st: &State, viewport: vk::Viewport) {
    let scissor = vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: vk::Extent2D { width: viewport.width as u32, height: viewport.height as u32 },
    };
    let (one, two) = (&eds.one, &eds.two);
    // SAFETY: forwarded to the caller.
    unsafe {
        one.cmd_set_cull_mode(cb, st.cull);
        one.cmd_set_front_face(cb, vk::FrontFace::COUNTER_CLOCKWISE);
        one.cmd_set_primitive_topology(cb, vk::PrimitiveTopology::TRIANGLE_LIST);
        one.cmd_set_viewport_with_count(cb, &[viewport]);
        one.cmd_set_scissor_with_count(cb, &[scissor]);
        one.cmd_set_depth_test_enable(cb, st.depth_test);
        one.cmd_set_depth_write_enable(cb, st.depth_write);
        one.cmd_set_depth_compare_op(cb, st.compare);
        one.cmd_set_depth_bounds_test_enable(cb, st.bounds.is_some());
        one.cmd_set_stencil_test_enable(cb, st.stencil);
        for (face, s) in
            [(vk::StencilFaceFlags::FRONT, st.front), (vk::StencilFaceFlags::BACK, st.back)]
        {
            one.cmd_set_stencil_op(cb, face, s.fail_op, s.pass_op, s.depth_fail_op, s.compare_op);
        }
        two.cmd_set_rasterizer_discard_enable(cb, false);
        two.cmd_set_depth_bias_enable(cb, st.bias.is_some());
        two.cmd_set_primitive_restart_enable(cb, false);
    }
}

/// Binds `buffer` to binding 0 with the scenes' real stride.
///
/// # Safety
/// `cb` is recording on the device of `eds`.
pub unsafe fn bind_vertices(eds: &Eds, cb: vk::CommandBuffer, buffer: vk::Buffer, size: u64) {
    // SAFETY: forwarded to the caller.
    unsafe { eds.one.cmd_bind_vertex_buffers2(cb, 0, &[buffer], &[0], Some(&[size]), Some(&[16])) }
}

/// Where two renderings of one scene differ at all.
pub fn identical(a: &Result, b: &Result) -> Option<String> {
    let first = |what: &str, n: usize, differs: &dyn Fn(usize) -> bool| {
        (0..n)
            .find(|&i| differs(i))
            .map(|i| format!("{what} differs at ({}, {})", i % W as usize, i / W as usize))
    };
    let n = a.color.len();
    first("colour", n, &|i| a.color[i] != b.color[i])
        .or_else(|| first("depth", n, &|i| a.depth[i].to_bits() != b.depth[i].to_bits()))
        .or_else(|| first("stencil", n, &|i| a.stencil[i] != b.stencil[i]))
}
