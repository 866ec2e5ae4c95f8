use super::*;

fn info(samples: vk::SampleCountFlags) -> vk::PipelineMultisampleStateCreateInfo<'static> {
    vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(samples)
}

#[test]
fn single_sample() {
    let regs = multisample(&info(vk::SampleCountFlags::TYPE_1), false).unwrap();
    // VPORT_SCISSOR_ENABLE and ALTERNATE_RBS_PER_TILE only.
    assert_eq!(regs.get(0x28a48), Some(1 << 1 | 1 << 5));
    assert_eq!(regs.get(0x28be0), Some(0));
    assert_eq!(regs.get(0x28c38), Some(1 | 1 << 16));
    assert_eq!(regs.get(0x28bf8), None, "no sample locations");
    // DB_EQAA: PS_ITER_SAMPLES 0.
    assert_eq!(regs.get(0x28804).unwrap() >> 4 & 7, 0);
}

#[test]
fn four_samples_standard_locations() {
    let regs = multisample(&info(vk::SampleCountFlags::TYPE_4), false).unwrap();
    assert_eq!(regs.get(0x28a48), Some(1 | 1 << 1 | 1 << 5));
    // MSAA_NUM_SAMPLES 2, MAX_SAMPLE_DIST 6 (bits 13..16), EXPOSED 2 (bit 20), bit 29.
    assert_eq!(regs.get(0x28be0), Some(2 | 6 << 13 | 2 << 20 | 1 << 29));
    // Standard 4x: (0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875) ->
    // offsets from the centre in 1/16: (-2,-6), (6,-2), (-6,2), (2,6), as signed nibbles.
    let n = |v: i32| (v as u32) & 0xf;
    let word = [(-2, -6), (6, -2), (-6, 2), (2, 6)]
        .iter()
        .enumerate()
        .fold(0, |w, (s, &(x, y))| w | (n(x) | n(y) << 4) << (8 * s));
    for pixel in 0..4 {
        assert_eq!(regs.get(0x28bf8 + 16 * pixel), Some(word), "pixel {pixel}");
        assert_eq!(regs.get(0x28bfc + 16 * pixel), Some(0));
    }
    // All four are sqrt(40) from the centre: index order, repeated.
    assert_eq!(regs.get(0x28bd4), Some(0x3210_3210));
    assert_eq!(regs.get(0x28bd8), Some(0x3210_3210));
    assert_eq!(regs.get(0x28c38), Some(0xf | 0xf << 16));
}

#[test]
fn eight_samples_priority_and_distance() {
    let regs = sample_locations(3);
    // Distances^2 of the 8x pattern from the centre: s0 10, s1 10, s2 26, s3 34, s4 50,
    // s5 50, s6 58, s7 98.
    assert_eq!(regs.get(0x28bd4), Some(0x7654_3210));
    assert_eq!(regs.get(0x28bd8), Some(0x7654_3210));
    assert_eq!(aa_config(3) >> 13 & 0xf, 7);
    assert_eq!(aa_config(1) >> 13 & 0xf, 4);
}

#[test]
fn sample_mask_and_shading() {
    let mask = [0b1010_0110u32];
    let i = info(vk::SampleCountFlags::TYPE_4).sample_mask(&mask);
    let regs = multisample(&i, false).unwrap();
    assert_eq!(regs.get(0x28c38), Some(0b0110 | 0b0110 << 16));
    assert_eq!(regs.get(0x28c3c), Some(0b0110 | 0b0110 << 16));
    // minSampleShading 0.25 of 4 samples = 1 invocation: per pixel.
    let low =
        info(vk::SampleCountFlags::TYPE_4).sample_shading_enable(true).min_sample_shading(0.25);
    assert_eq!(multisample(&low, false).unwrap().get(0x28804).unwrap() >> 4 & 7, 0);
    // 0.5 asks for 2: the simulator runs one per sample (4), which satisfies "at least".
    let half =
        info(vk::SampleCountFlags::TYPE_4).sample_shading_enable(true).min_sample_shading(0.5);
    let eqaa = multisample(&half, false).unwrap().get(0x28804).unwrap();
    assert_eq!(eqaa, 2 | 2 << 4 | 2 << 8 | 2 << 12 | 1 << 16 | 1 << 17 | 1 << 18 | 1 << 20);
}

#[test]
fn alpha_to_coverage_as_radv_programs_it() {
    let on = info(vk::SampleCountFlags::TYPE_4).alpha_to_coverage_enable(true);
    // DB_ALPHA_TO_MASK: ENABLE, offsets 3, 1, 0, 2 (bits 8..15), OFFSET_ROUND (bit 16).
    let want = 1 | 3 << 8 | 1 << 10 | 2 << 14 | 1 << 16;
    assert_eq!(multisample(&on, false).unwrap().get(0x28b70), Some(want));
    let off = multisample(&info(vk::SampleCountFlags::TYPE_4), false).unwrap();
    assert_eq!(off.get(0x28b70), Some(want & !1));
    // DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES (bits 12..14) = log2 samples.
    assert_eq!(off.get(0x28804).unwrap() >> 12 & 7, 2);
    use r::enums::SPI_SHADER_EX_FORMAT as EX;
    assert_eq!(alpha_export_format(EX::SPI_SHADER_ZERO), EX::SPI_SHADER_32_AR);
    assert_eq!(alpha_export_format(EX::SPI_SHADER_32_R), EX::SPI_SHADER_32_AR);
    assert_eq!(alpha_export_format(EX::SPI_SHADER_32_GR), EX::SPI_SHADER_32_ABGR);
    assert_eq!(alpha_export_format(EX::SPI_SHADER_FP16_ABGR), EX::SPI_SHADER_FP16_ABGR);
    assert_eq!(alpha_export_format(EX::SPI_SHADER_32_AR), EX::SPI_SHADER_32_AR);
}

#[test]
fn refusals() {
    assert!(multisample(&info(vk::SampleCountFlags::TYPE_16), false).is_err());
    // Alpha to one is the shader's (the PS key), not a register: accepted here.
    assert!(
        multisample(&info(vk::SampleCountFlags::TYPE_1).alpha_to_one_enable(true), false).is_ok()
    );
}

#[test]
fn sample_mask_limits_to_existing_samples() {
    assert_eq!(sample_mask(0, u32::MAX).0[0].1, 1 | 1 << 16);
    assert_eq!(sample_mask(3, u32::MAX).0[0].1, 0xff | 0xff << 16);
    assert_eq!(sample_mask(4, u32::MAX).0[0].1, u32::MAX);
    assert_eq!(sample_mask(9, 0x1_0003).0[0].1, 3 | 3 << 16);
}
