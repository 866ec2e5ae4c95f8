use super::*;
use vk::BlendFactor as V;

fn att(enable: bool) -> vk::PipelineColorBlendAttachmentState {
    vk::PipelineColorBlendAttachmentState {
        blend_enable: enable as u32,
        src_color_blend_factor: V::SRC_ALPHA,
        dst_color_blend_factor: V::ONE_MINUS_SRC_ALPHA,
        color_blend_op: vk::BlendOp::ADD,
        src_alpha_blend_factor: V::ONE,
        dst_alpha_blend_factor: V::ZERO,
        alpha_blend_op: vk::BlendOp::ADD,
        color_write_mask: vk::ColorComponentFlags::RGBA,
    }
}

#[test]
fn every_blend_factor() {
    // (Vulkan factor, BlendOp value from gfx103.json).
    let table = [
        (V::ZERO, 0),
        (V::ONE, 1),
        (V::SRC_COLOR, 2),
        (V::ONE_MINUS_SRC_COLOR, 3),
        (V::SRC_ALPHA, 4),
        (V::ONE_MINUS_SRC_ALPHA, 5),
        (V::DST_ALPHA, 6),
        (V::ONE_MINUS_DST_ALPHA, 7),
        (V::DST_COLOR, 8),
        (V::ONE_MINUS_DST_COLOR, 9),
        (V::SRC_ALPHA_SATURATE, 10),
        (V::CONSTANT_COLOR, 13),
        (V::ONE_MINUS_CONSTANT_COLOR, 14),
        (V::SRC1_COLOR, 15),
        (V::ONE_MINUS_SRC1_COLOR, 16),
        (V::SRC1_ALPHA, 17),
        (V::ONE_MINUS_SRC1_ALPHA, 18),
        (V::CONSTANT_ALPHA, 19),
        (V::ONE_MINUS_CONSTANT_ALPHA, 20),
    ];
    assert_eq!(table.len(), 19, "every core factor");
    for (f, v) in table {
        assert_eq!(blend_factor(f).unwrap(), v, "{f:?}");
    }
    assert!(blend_factor(V::from_raw(19)).is_err());
}

#[test]
fn every_blend_op_and_min_max_ignore_factors() {
    use vk::BlendOp as O;
    for (op, comb) in
        [(O::ADD, 0), (O::SUBTRACT, 1), (O::REVERSE_SUBTRACT, 4), (O::MIN, 2), (O::MAX, 3)]
    {
        assert_eq!(blend_op(op).unwrap(), comb, "{op:?}");
    }
    assert!(blend_op(O::MULTIPLY_EXT).is_err());
    let a = vk::PipelineColorBlendAttachmentState {
        color_blend_op: O::MIN,
        alpha_blend_op: O::MAX,
        src_color_blend_factor: V::DST_COLOR,
        ..att(true)
    };
    // ONE/ONE for both; COMB 2 and 3; SEPARATE_ALPHA_BLEND and ENABLE.
    let want = 1 | 2 << 5 | 1 << 8 | 1 << 16 | 3 << 21 | 1 << 24 | 1 << 29 | 1 << 30;
    assert_eq!(blend_control(&a).unwrap(), want);
}

#[test]
fn classic_alpha_blend_control() {
    // src SRC_ALPHA (4), ADD, dst ONE_MINUS_SRC_ALPHA (5); alpha ONE, ADD, ZERO.
    let want = 4 | 5 << 8 | 1 << 16 | 1 << 29 | 1 << 30;
    assert_eq!(blend_control(&att(true)).unwrap(), want);
    assert_eq!(blend_control(&att(false)).unwrap(), 0);
    assert!(!uses_dual_source(&att(true)));
    let dual = vk::PipelineColorBlendAttachmentState {
        dst_alpha_blend_factor: V::SRC1_ALPHA,
        ..att(true)
    };
    assert!(uses_dual_source(&dual));
    assert!(!uses_dual_source(&vk::PipelineColorBlendAttachmentState { blend_enable: 0, ..dual }));
}

#[test]
fn every_logic_op_is_its_truth_table() {
    use vk::LogicOp as L;
    // ROP3 over source S = 0xCC and destination D = 0xAA, computed here bit-wise.
    let (s, d) = (0xccu32, 0xaau32);
    let table = [
        (L::CLEAR, 0),
        (L::AND, s & d),
        (L::AND_REVERSE, s & !d),
        (L::COPY, s),
        (L::AND_INVERTED, !s & d),
        (L::NO_OP, d),
        (L::XOR, s ^ d),
        (L::OR, s | d),
        (L::NOR, !(s | d)),
        (L::EQUIVALENT, !(s ^ d)),
        (L::INVERT, !d),
        (L::OR_REVERSE, s | !d),
        (L::COPY_INVERTED, !s),
        (L::OR_INVERTED, !s | d),
        (L::NAND, !(s & d)),
        (L::SET, 0xff),
    ];
    for (op, want) in table {
        assert_eq!(rop3(op).unwrap(), want & 0xff, "{op:?}");
    }
}

#[test]
fn color_control_mode_and_rop() {
    // MODE CB_NORMAL (1) at bit 4, ROP3 COPY (0xCC) at bit 16.
    assert_eq!(color_control(true, None, false).unwrap(), 1 << 4 | 0xcc << 16);
    assert_eq!(color_control(false, None, false).unwrap(), 0xcc << 16);
    // A logic op or dual-source blending disables dual quads (bit 0).
    assert_eq!(
        color_control(true, Some(vk::LogicOp::XOR), false).unwrap(),
        1 | 1 << 4 | 0x66 << 16
    );
    assert_eq!(color_control(true, None, true).unwrap(), 1 | 1 << 4 | 0xcc << 16);
}

#[test]
fn whole_state_with_holes_and_masks() {
    let atts = [
        att(true),
        vk::PipelineColorBlendAttachmentState {
            color_write_mask: vk::ColorComponentFlags::R | vk::ColorComponentFlags::A,
            ..att(false)
        },
        att(true),
    ];
    let info = vk::PipelineColorBlendStateCreateInfo::default()
        .attachments(&atts)
        .blend_constants([0.25, 0.5, 0.75, 1.0]);
    // Attachment 2 is VK_ATTACHMENT_UNUSED: present = 0b011.
    let regs = color_blend(&info, 0b011).unwrap();
    assert_eq!(regs.get(0x28780), Some(blend_control(&atts[0]).unwrap()));
    assert_eq!(regs.get(0x28784), Some(0));
    assert_eq!(regs.get(0x28788), Some(0), "absent attachment");
    assert_eq!(regs.get(0x2879c), Some(0));
    assert_eq!(regs.get(0x28238), Some(0xf | 0x9 << 4));
    assert_eq!(regs.get(0x28414), Some(0.25f32.to_bits()));
    assert_eq!(regs.get(0x28420), Some(1.0f32.to_bits()));
    let none = color_blend(&vk::PipelineColorBlendStateCreateInfo::default(), 0).unwrap();
    assert_eq!(none.get(0x28238), Some(0));
    assert_eq!(none.get(0x28808), Some(0xcc << 16));
    // Write masks all zero: the CB is disabled.
    let masked = [vk::PipelineColorBlendAttachmentState {
        color_write_mask: vk::ColorComponentFlags::empty(),
        ..att(false)
    }];
    let off = vk::PipelineColorBlendStateCreateInfo::default().attachments(&masked);
    assert_eq!(color_blend(&off, 1).unwrap().get(0x28808), Some(0xcc << 16));
    let nine = [att(false); 9];
    let too_many = vk::PipelineColorBlendStateCreateInfo::default().attachments(&nine);
    assert!(color_blend(&too_many, 0x1ff).is_err());
}

#[test]
fn target_mask_packs_nibbles() {
    let all = vk::ColorComponentFlags::RGBA;
    assert_eq!(target_mask(&[all; 8], 0xff), u32::MAX);
    assert_eq!(target_mask(&[all; 8], 0x80), 0xf000_0000);
    assert_eq!(target_mask(&[vk::ColorComponentFlags::G], 1), 2);
}
