use super::*;

fn info() -> vk::PipelineRasterizationStateCreateInfo<'static> {
    vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
        .line_width(1.0)
}

fn mode(s: Raster) -> u32 {
    su_sc_mode_cntl(&s).unwrap()
}

#[test]
fn default_fill_state() {
    let regs = rasterization(&info()).unwrap();
    // PA_SU_SC_MODE_CNTL: fill (POLYMODE_*_PTYPE = X_DRAW_TRIANGLES = 2 at bits 5 and 8).
    assert_eq!(regs.get(0x28814), Some(2 << 5 | 2 << 8));
    // PA_CL_CLIP_CNTL: DX_CLIP_SPACE_DEF (bit 19) and DX_LINEAR_ATTR_CLIP_ENA (bit 24).
    assert_eq!(regs.get(0x28810), Some(1 << 19 | 1 << 24));
    // PA_SU_LINE_CNTL: width 1 = 8 eighths.
    assert_eq!(regs.get(0x28a08), Some(8));
    // PA_SU_VTX_CNTL: PIX_CENTER, ROUND_MODE X_ROUND_TO_EVEN (2), QUANT_MODE 1/256 (5).
    assert_eq!(regs.get(0x28be4), Some(1 | 2 << 1 | 5 << 3));
}

#[test]
fn cull_modes_and_front_face() {
    let s = Raster::from_info(&info());
    let cull = |c| mode(Raster { cull_mode: c, ..s }) & 3;
    assert_eq!(cull(vk::CullModeFlags::NONE), 0);
    assert_eq!(cull(vk::CullModeFlags::FRONT), 1);
    assert_eq!(cull(vk::CullModeFlags::BACK), 2);
    assert_eq!(cull(vk::CullModeFlags::FRONT_AND_BACK), 3);
    // FACE (bit 2) = 1: clockwise triangles are front facing.
    assert_eq!(mode(Raster { front_face: vk::FrontFace::CLOCKWISE, ..s }) >> 2 & 1, 1);
    assert_eq!(mode(s) >> 2 & 1, 0);
    assert_eq!(mode(Raster { provoking_last: true, ..s }) >> 19 & 1, 1);
}

#[test]
fn polygon_modes_use_dual_mode_and_keep_together() {
    let s = Raster::from_info(&info());
    let line = mode(Raster { polygon_mode: vk::PolygonMode::LINE, ..s });
    // POLY_MODE = X_DUAL_MODE (1) at bit 3, both ptypes X_DRAW_LINES (1), KEEP_TOGETHER bit 24.
    assert_eq!(line, 1 << 3 | 1 << 5 | 1 << 8 | 1 << 24);
    let point = mode(Raster { polygon_mode: vk::PolygonMode::POINT, ..s });
    assert_eq!(point, 1 << 3 | 1 << 24);
    let bad = Raster { polygon_mode: vk::PolygonMode::FILL_RECTANGLE_NV, ..s };
    assert!(su_sc_mode_cntl(&bad).is_err());
}

#[test]
fn depth_bias_enables_and_registers() {
    let s = Raster::from_info(&info().depth_bias_enable(true));
    // POLY_OFFSET_FRONT_ENABLE, _BACK_ENABLE, _PARA_ENABLE: bits 11, 12, 13.
    assert_eq!(mode(s) >> 11 & 7, 7);
    assert_eq!(mode(Raster { depth_bias: false, ..s }) >> 11 & 7, 0);
    // Polygon modes keep all three enables: the edges and vertices carry the polygon's bias.
    let line = Raster { polygon_mode: vk::PolygonMode::LINE, ..s };
    assert_eq!(mode(line) >> 11 & 7, 7);
    let b = DepthBias { constant: 2.0, clamp: -0.5, slope: 1.5 };
    let d16 = depth_bias(b, Some(vk::Format::D16_UNORM));
    // POLY_OFFSET_NEG_NUM_DB_BITS = -16 as an 8-bit field.
    assert_eq!(d16.get(0x28b78), Some(0xf0));
    assert_eq!(d16.get(0x28b7c), Some((-0.5f32).to_bits()));
    assert_eq!(d16.get(0x28b80), Some(24.0f32.to_bits()));
    assert_eq!(d16.get(0x28b84), Some(2.0f32.to_bits()));
    assert_eq!(d16.get(0x28b88), Some(24.0f32.to_bits()));
    assert_eq!(d16.get(0x28b8c), Some(2.0f32.to_bits()));
    let d32 = depth_bias(b, Some(vk::Format::D32_SFLOAT_S8_UINT));
    // -23 = 0xe9, POLY_OFFSET_DB_IS_FLOAT_FMT at bit 8.
    assert_eq!(d32.get(0x28b78), Some(0xe9 | 1 << 8));
    assert_eq!(depth_bias(b, None).get(0x28b78), Some(0));
}

#[test]
fn clip_control_clamp_discard_and_planes() {
    let c = clip_cntl(true, true, 0b10_0101);
    assert_eq!(c & 0x3f, 0b10_0101);
    assert_eq!(c >> 26 & 3, 3, "near and far clipping off under depth clamp");
    assert_eq!(c >> 22 & 1, 1, "DX_RASTERIZATION_KILL");
    assert_eq!(clip_cntl(false, false, 0xff) & 0x3f, 0x3f, "only six planes");
}

#[test]
fn line_width_saturates() {
    assert_eq!(line_cntl(0.0), 0);
    assert_eq!(line_cntl(2.5), 20);
    assert_eq!(line_cntl(8191.875), 0xffff);
    assert_eq!(line_cntl(1e9), 0xffff);
    assert_eq!(line_cntl(-1.0), 0);
    assert_eq!(line_cntl(f32::NAN), 0);
}

#[test]
fn point_size_and_clamp() {
    let regs = points(8191.875);
    // 1.0 pixel: half is 0.5 = 8 in 12.4, in both HEIGHT and WIDTH.
    assert_eq!(regs.get(0x28a00), Some(8 | 8 << 16));
    // MIN_SIZE 0, MAX_SIZE 8191.875 / 2 in 12.4 = 0xffff.
    assert_eq!(regs.get(0x28a04), Some(0xffff << 16));
    assert_eq!(points(64.0).get(0x28a04), Some(512 << 16));
}
