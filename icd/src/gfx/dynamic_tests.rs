use ferrum_regs::gfx103 as r;

use super::*;
use crate::gfx::state::depth::DepthStencil;

/// A pipeline's static state: back-face culling, clockwise front faces, a triangle strip with
/// restart, depth bias on, depth test LESS with writes, stencil off with INVERT ops.
fn pipeline() -> Static {
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .cull_mode(vk::CullModeFlags::BACK)
        .front_face(vk::FrontFace::CLOCKWISE)
        .depth_bias_enable(true)
        .line_width(1.0);
    let op = vk::StencilOpState {
        fail_op: vk::StencilOp::INVERT,
        pass_op: vk::StencilOp::INVERT,
        depth_fail_op: vk::StencilOp::INVERT,
        compare_op: vk::CompareOp::EQUAL,
        ..Default::default()
    };
    let ds = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(true)
        .depth_compare_op(vk::CompareOp::LESS)
        .front(op)
        .back(op);
    Static {
        raster: Raster::from_info(&rs),
        topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
        restart: true,
        depth_stencil: DepthStencil::from_info(&ds),
    }
}

/// Command buffer values that differ from `pipeline()` in every field.
fn commands() -> Extended {
    let ops = StencilOps {
        fail: vk::StencilOp::ZERO,
        pass: vk::StencilOp::REPLACE,
        depth_fail: vk::StencilOp::INCREMENT_AND_WRAP,
        compare: vk::CompareOp::GREATER,
    };
    Extended {
        viewport_count: 1,
        scissor_count: 1,
        cull_mode: vk::CullModeFlags::FRONT,
        front_face: vk::FrontFace::COUNTER_CLOCKWISE,
        topology: vk::PrimitiveTopology::TRIANGLE_LIST,
        depth_test: false,
        depth_write: false,
        depth_compare: vk::CompareOp::GREATER_OR_EQUAL,
        depth_bounds_test: true,
        stencil_test: true,
        stencil_ops: [ops, StencilOps { fail: vk::StencilOp::KEEP, ..ops }],
        rasterizer_discard: true,
        depth_bias: false,
        primitive_restart: false,
        logic_op: vk::LogicOp::XOR,
    }
}

fn dynamic_info(states: &[vk::DynamicState]) -> VkResult<Dynamic> {
    Dynamic::from_info(Some(&vk::PipelineDynamicStateCreateInfo::default().dynamic_states(states)))
}

#[test]
fn without_dynamic_state_the_pipeline_decides() {
    let p = pipeline();
    let r = resolve(&Dynamic::default(), &p, &commands());
    assert_eq!(r.raster, p.raster);
    assert_eq!(r.topology, p.topology);
    assert!(r.restart);
    assert!(r.depth_stencil.depth_test && r.depth_stencil.depth_write);
    assert_eq!(r.depth_stencil.front.fail_op, vk::StencilOp::INVERT);
}

#[test]
fn every_extended_state_comes_from_the_command_buffer() {
    use vk::DynamicState as S;
    let d = dynamic_info(&[
        S::CULL_MODE,
        S::FRONT_FACE,
        S::PRIMITIVE_TOPOLOGY,
        S::DEPTH_TEST_ENABLE,
        S::DEPTH_WRITE_ENABLE,
        S::DEPTH_COMPARE_OP,
        S::DEPTH_BOUNDS_TEST_ENABLE,
        S::STENCIL_TEST_ENABLE,
        S::STENCIL_OP,
        S::RASTERIZER_DISCARD_ENABLE,
        S::DEPTH_BIAS_ENABLE,
        S::PRIMITIVE_RESTART_ENABLE,
    ])
    .unwrap();
    let (p, v) = (pipeline(), commands());
    let r = resolve(&d, &p, &v);
    assert_eq!(r.raster.cull_mode, vk::CullModeFlags::FRONT);
    assert_eq!(r.raster.front_face, vk::FrontFace::COUNTER_CLOCKWISE);
    assert!(r.raster.discard && !r.raster.depth_bias && !r.restart);
    assert_eq!(r.topology, vk::PrimitiveTopology::TRIANGLE_LIST);
    let ds = r.depth_stencil;
    assert!(!ds.depth_test && !ds.depth_write && ds.depth_bounds_test && ds.stencil_test);
    assert_eq!(ds.depth_compare, vk::CompareOp::GREATER_OR_EQUAL);
    assert_eq!(
        (ds.front.fail_op, ds.front.pass_op, ds.front.depth_fail_op, ds.front.compare_op),
        (
            vk::StencilOp::ZERO,
            vk::StencilOp::REPLACE,
            vk::StencilOp::INCREMENT_AND_WRAP,
            vk::CompareOp::GREATER
        )
    );
    assert_eq!(ds.back.fail_op, vk::StencilOp::KEEP);
    // vkCmdSetStencilOpEXT leaves the masks and reference (their own dynamic states) alone.
    assert_eq!(ds.front.compare_mask, p.depth_stencil.front.compare_mask);
}

#[test]
fn one_state_changes_only_its_value() {
    let d = dynamic_info(&[vk::DynamicState::CULL_MODE]).unwrap();
    let (p, v) = (pipeline(), commands());
    let r = resolve(&d, &p, &v);
    assert_eq!(r.raster, Raster { cull_mode: vk::CullModeFlags::FRONT, ..p.raster });
    assert_eq!(r.topology, p.topology);
    assert!(r.depth_stencil.depth_test);
}

#[test]
fn depth_bias_applies_to_polygons_only() {
    use vk::PrimitiveTopology as T;
    let d = dynamic_info(&[vk::DynamicState::PRIMITIVE_TOPOLOGY]).unwrap();
    let p = pipeline();
    for (t, biased) in [
        (T::TRIANGLE_LIST, true),
        (T::TRIANGLE_STRIP, true),
        (T::TRIANGLE_FAN, true),
        (T::POINT_LIST, false),
        (T::LINE_LIST, false),
        (T::LINE_STRIP, false),
    ] {
        let v = Extended { topology: t, ..commands() };
        assert_eq!(resolve(&d, &p, &v).raster.depth_bias, biased, "{t:?}");
    }
}

#[test]
fn registers_follow_the_resolved_values() {
    use r::PA_SU_SC_MODE_CNTL as M;
    let d = dynamic_info(&[
        vk::DynamicState::CULL_MODE,
        vk::DynamicState::FRONT_FACE,
        vk::DynamicState::PRIMITIVE_TOPOLOGY,
        vk::DynamicState::RASTERIZER_DISCARD_ENABLE,
    ])
    .unwrap();
    let v = Extended { rasterizer_discard: false, ..commands() };
    let regs = resolve(&d, &pipeline(), &v).regs().unwrap();
    // Triangle list (DI_PT_TRILIST = 4), restart from the pipeline.
    assert_eq!(regs.get(r::VGT_PRIMITIVE_TYPE), Some(4));
    assert_eq!(regs.get(r::GE_MULTI_PRIM_IB_RESET_EN), Some(1));
    let mode = regs.get(r::PA_SU_SC_MODE_CNTL).unwrap();
    assert!(M::CULL_FRONT.is_set(mode) && !M::CULL_BACK.is_set(mode));
    assert!(!M::FACE.is_set(mode), "counter-clockwise front faces");
    assert!(M::MULTI_PRIM_IB_ENA.is_set(mode));
    assert!(M::POLY_OFFSET_FRONT_ENABLE.is_set(mode), "bias from the pipeline");
    let clip = regs.get(r::PA_CL_CLIP_CNTL).unwrap();
    assert!(!r::PA_CL_CLIP_CNTL::DX_RASTERIZATION_KILL.is_set(clip));
    // Restart off: neither the GE enable nor MULTI_PRIM_IB_ENA.
    let p = Static { restart: false, ..pipeline() };
    let regs = resolve(&d, &p, &v).regs().unwrap();
    assert_eq!(regs.get(r::GE_MULTI_PRIM_IB_RESET_EN), Some(0));
    assert!(!M::MULTI_PRIM_IB_ENA.is_set(regs.get(r::PA_SU_SC_MODE_CNTL).unwrap()));
}

#[test]
fn dynamic_topology_is_checked_at_the_draw() {
    let d = dynamic_info(&[vk::DynamicState::PRIMITIVE_TOPOLOGY]).unwrap();
    let v = Extended { topology: vk::PrimitiveTopology::PATCH_LIST, ..commands() };
    assert!(resolve(&d, &pipeline(), &v).regs().is_err());
}

#[test]
fn unsupported_dynamic_states_are_refused() {
    use vk::DynamicState as S;
    for s in [S::PATCH_CONTROL_POINTS_EXT, S::VERTEX_INPUT_EXT] {
        assert!(matches!(dynamic_info(&[s]), Err(VkError::FeatureNotPresent(_))), "{s:?}");
    }
    let d = dynamic_info(&[S::VIEWPORT_WITH_COUNT, S::SCISSOR_WITH_COUNT, S::LINE_WIDTH]).unwrap();
    assert!(d.any_viewport() && d.any_scissor() && d.line_width && !d.viewport);
    assert!(dynamic_info(&[S::LOGIC_OP_EXT]).unwrap().logic_op);
    assert_eq!(Dynamic::from_info(None).unwrap(), Dynamic::default());
}
