use super::*;
use vk::CompareOp as C;

fn face(fail: vk::StencilOp, pass: vk::StencilOp, zfail: vk::StencilOp) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: fail,
        pass_op: pass,
        depth_fail_op: zfail,
        compare_op: C::EQUAL,
        compare_mask: 0x1ff,
        write_mask: 0x0f,
        reference: 0x180,
    }
}

fn ds(test: bool, write: bool, op: C) -> DepthStencil {
    DepthStencil {
        depth_test: test,
        depth_write: write,
        depth_compare: op,
        depth_bounds_test: false,
        stencil_test: false,
        front: vk::StencilOpState::default(),
        back: vk::StencilOpState::default(),
    }
}

#[test]
fn every_compare_op() {
    let ops = [
        C::NEVER,
        C::LESS,
        C::EQUAL,
        C::LESS_OR_EQUAL,
        C::GREATER,
        C::NOT_EQUAL,
        C::GREATER_OR_EQUAL,
        C::ALWAYS,
    ];
    for (i, op) in ops.into_iter().enumerate() {
        // Z_ENABLE (bit 1), ZFUNC at bits 4..6 = CompareFrag FRAG_NEVER..FRAG_ALWAYS = 0..7.
        assert_eq!(depth_control(&ds(true, false, op), true, true), 1 << 1 | (i as u32) << 4);
    }
}

#[test]
fn depth_write_needs_test_and_aspect() {
    assert_eq!(depth_control(&ds(true, true, C::LESS), true, false), 1 << 1 | 1 << 2 | 1 << 4);
    assert_eq!(depth_control(&ds(false, true, C::LESS), true, false), 0);
    assert_eq!(depth_control(&ds(true, true, C::LESS), false, true), 0);
    let bounds = DepthStencil { depth_bounds_test: true, ..ds(false, false, C::LESS) };
    assert_eq!(depth_control(&bounds, true, false), 1 << 3);
    assert_eq!(depth_control(&bounds, false, false), 0);
}

#[test]
fn stencil_functions_and_ops() {
    use vk::StencilOp as S;
    let s = DepthStencil {
        stencil_test: true,
        front: vk::StencilOpState { compare_op: C::GREATER, ..Default::default() },
        back: vk::StencilOpState { compare_op: C::NOT_EQUAL, ..Default::default() },
        ..ds(false, false, C::NEVER)
    };
    // STENCIL_ENABLE, BACKFACE_ENABLE, STENCILFUNC 4 at bit 8, STENCILFUNC_BF 5 at bit 20.
    assert_eq!(depth_control(&s, true, true), 1 | 1 << 7 | 4 << 8 | 5 << 20);
    assert_eq!(depth_control(&s, true, false), 0, "no stencil aspect");
    // StencilOp values from gfx103.json.
    let table = [
        (S::KEEP, 0),
        (S::ZERO, 1),
        (S::REPLACE, 3),
        (S::INCREMENT_AND_CLAMP, 5),
        (S::DECREMENT_AND_CLAMP, 6),
        (S::INVERT, 7),
        (S::INCREMENT_AND_WRAP, 8),
        (S::DECREMENT_AND_WRAP, 9),
    ];
    for (op, v) in table {
        assert_eq!(stencil_op(op), v, "{op:?}");
    }
    let front = face(S::ZERO, S::REPLACE, S::INVERT);
    let back = face(S::INCREMENT_AND_WRAP, S::DECREMENT_AND_CLAMP, S::KEEP);
    assert_eq!(stencil_control(&front, &back), 1 | 3 << 4 | 7 << 8 | 8 << 12 | 6 << 16);
}

#[test]
fn ref_masks_truncate_to_8_bits() {
    use vk::StencilOp as S;
    let f = face(S::KEEP, S::KEEP, S::KEEP);
    let regs = stencil_ref_mask(
        (&f).into(),
        StencilFace { reference: 1, compare_mask: 2, write_mask: 0xff },
    );
    assert_eq!(regs.get(0x28430), Some(0x80 | 0xff << 8 | 0x0f << 16 | 1 << 24));
    assert_eq!(regs.get(0x28434), Some(1 | 2 << 8 | 0xff << 16 | 1 << 24));
}

#[test]
fn whole_block_and_bounds() {
    let info = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(true)
        .depth_compare_op(C::LESS_OR_EQUAL)
        .min_depth_bounds(0.125)
        .max_depth_bounds(0.875);
    let regs = depth_stencil(&info, true, false);
    assert_eq!(regs.get(0x28800), Some(1 << 1 | 1 << 2 | 3 << 4));
    assert_eq!(regs.get(0x28020), Some(0.125f32.to_bits()));
    assert_eq!(regs.get(0x28024), Some(0.875f32.to_bits()));
    assert!(regs.get(0x2842c).is_some() && regs.get(0x28434).is_some());
}
