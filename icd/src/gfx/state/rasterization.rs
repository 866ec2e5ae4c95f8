//! Rasterization state: face culling, front face, polygon mode, depth bias, depth clamp,
//! rasterizer discard and line width (PA_SU_SC_MODE_CNTL, PA_CL_CLIP_CNTL, PA_SU_LINE_CNTL,
//! PA_SU_POLY_OFFSET_*).
//!
//! Facts: the register database (`registers/gfx103.json`) for fields; RADV
//! (`radv_cmd_buffer.c`: culling, line width, depth bias, clip control) for how Vulkan maps
//! onto them: polygon modes other than fill use the dual mode with a per-face primitive type,
//! depth clamp disables near/far clipping (the DB then clamps to PA_SC_VPORT_ZMIN/ZMAX), line
//! width is in 1/8 pixel (half the width in 12.4 fixed point).

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::PA_SU_SC_MODE_CNTL__POLYMODE_FRONT_PTYPE as Ptype;
use r::enums::PA_SU_SC_MODE_CNTL__POLY_MODE as PolyMode;

use crate::error::VkResult;
use crate::gfx::{fui, refuse, Regs};

/// The values of `VkPipelineRasterizationStateCreateInfo` (and their dynamic-state
/// counterparts of extended dynamic state 1/2) that the registers depend on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Raster {
    pub depth_clamp: bool,
    pub discard: bool,
    pub polygon_mode: vk::PolygonMode,
    pub cull_mode: vk::CullModeFlags,
    pub front_face: vk::FrontFace,
    pub depth_bias: bool,
    pub line_width: f32,
    /// VK_EXT_provoking_vertex: the last vertex provokes (false: the first, Vulkan's default).
    pub provoking_last: bool,
}

impl Raster {
    pub fn from_info(info: &vk::PipelineRasterizationStateCreateInfo<'_>) -> Raster {
        Raster {
            depth_clamp: info.depth_clamp_enable != 0,
            discard: info.rasterizer_discard_enable != 0,
            polygon_mode: info.polygon_mode,
            cull_mode: info.cull_mode,
            front_face: info.front_face,
            depth_bias: info.depth_bias_enable != 0,
            line_width: info.line_width,
            provoking_last: false,
        }
    }
}

/// All registers of the rasterization state block.
pub fn rasterization(info: &vk::PipelineRasterizationStateCreateInfo<'_>) -> VkResult<Regs> {
    raster_regs(&Raster::from_info(info))
}

/// The registers of the rasterization state block from its values (the pipeline's, or
/// combined with the command buffer's dynamic state).
pub fn raster_regs(s: &Raster) -> VkResult<Regs> {
    let mut regs = Regs::new();
    regs.push(r::PA_SU_SC_MODE_CNTL, su_sc_mode_cntl(s)?);
    regs.push(r::PA_CL_CLIP_CNTL, clip_cntl(s.depth_clamp, s.discard, 0));
    regs.push(r::PA_SU_LINE_CNTL, line_cntl(s.line_width));
    regs.push(r::PA_SU_VTX_CNTL, vtx_cntl());
    Ok(regs)
}

fn poly_type(mode: vk::PolygonMode) -> VkResult<u32> {
    match mode {
        vk::PolygonMode::FILL => Ok(Ptype::X_DRAW_TRIANGLES),
        vk::PolygonMode::LINE => Ok(Ptype::X_DRAW_LINES),
        vk::PolygonMode::POINT => Ok(Ptype::X_DRAW_POINTS),
        _ => Err(refuse("polygon mode other than fill, line or point")),
    }
}

/// PA_SU_SC_MODE_CNTL (also the value for the dynamic cull mode, front face, polygon mode and
/// depth bias enable: the register holds all of them).
///
/// Depth bias enables polygon offset for front and back faces and POLY_OFFSET_PARA_ENABLE,
/// which extends it to the points and lines a polygon mode draws for a polygon (each with
/// the polygon's bias, as Vulkan biases polygons in every polygon mode; radeonsi sets PARA
/// exactly when point- or line-mode polygons are offset). Vulkan biases polygons only, so
/// the caller clears `depth_bias` for point and line topologies (the simulator refuses
/// PARA_ENABLE on point and line primitives as not modelled).
pub fn su_sc_mode_cntl(s: &Raster) -> VkResult<u32> {
    use r::PA_SU_SC_MODE_CNTL as F;
    let fill = s.polygon_mode == vk::PolygonMode::FILL;
    let ptype = poly_type(s.polygon_mode)?;
    let clockwise = s.front_face == vk::FrontFace::CLOCKWISE;
    Ok(F::CULL_FRONT.val(s.cull_mode.contains(vk::CullModeFlags::FRONT) as u32)
        | F::CULL_BACK.val(s.cull_mode.contains(vk::CullModeFlags::BACK) as u32)
        | F::FACE.val(clockwise as u32)
        | F::POLY_MODE.val(if fill { PolyMode::X_DISABLE_POLY_MODE } else { PolyMode::X_DUAL_MODE })
        | F::POLYMODE_FRONT_PTYPE.val(ptype)
        | F::POLYMODE_BACK_PTYPE.val(ptype)
        | F::POLY_OFFSET_FRONT_ENABLE.val(s.depth_bias as u32)
        | F::POLY_OFFSET_BACK_ENABLE.val(s.depth_bias as u32)
        | F::POLY_OFFSET_PARA_ENABLE.val(s.depth_bias as u32)
        | F::PROVOKING_VTX_LAST.val(s.provoking_last as u32)
        // GFX10 keeps the primitives of one polygon together in polygon mode (RADV).
        | F::KEEP_TOGETHER_ENABLE.val(!fill as u32))
}

/// PA_CL_CLIP_CNTL: Vulkan's [0, 1] clip-space depth, near/far clipping off under depth
/// clamp, rasterizer discard, and the user clip planes `ucp_mask` the vertex shader's
/// ClipDistance outputs enable (bit i = plane i; the pipeline knows them from the shader).
pub fn clip_cntl(depth_clamp: bool, discard: bool, ucp_mask: u32) -> u32 {
    use r::PA_CL_CLIP_CNTL as F;
    let ucp = [F::UCP_ENA_0, F::UCP_ENA_1, F::UCP_ENA_2, F::UCP_ENA_3, F::UCP_ENA_4, F::UCP_ENA_5];
    let planes = ucp.iter().enumerate().fold(0, |v, (i, f)| v | f.val(ucp_mask >> i & 1));
    planes
        | F::DX_CLIP_SPACE_DEF.val(1)
        | F::ZCLIP_NEAR_DISABLE.val(depth_clamp as u32)
        | F::ZCLIP_FAR_DISABLE.val(depth_clamp as u32)
        | F::DX_RASTERIZATION_KILL.val(discard as u32)
        | F::DX_LINEAR_ATTR_CLIP_ENA.val(1)
}

/// PA_SU_LINE_CNTL for `width` pixels (dynamic line width too): WIDTH is half the width in
/// 12.4 fixed point, i.e. 1/8 pixel units, saturated to the field.
pub fn line_cntl(width: f32) -> u32 {
    let eighths = (width.max(0.0) * 8.0).round().min(0xffff as f32) as u32;
    r::PA_SU_LINE_CNTL::WIDTH.val(eighths)
}

/// PA_SU_VTX_CNTL: pixel centres at half-integers (Vulkan), vertices snapped to 1/256 pixel
/// (16.8 fixed point, navi21's `subPixelPrecisionBits` = 8) rounding to even, as RADV
/// programs it.
pub fn vtx_cntl() -> u32 {
    use r::enums::PA_SU_VTX_CNTL__ROUND_MODE as Round;
    use r::enums::QUANT_MODE as Q;
    use r::PA_SU_VTX_CNTL as F;
    F::PIX_CENTER.val(1)
        | F::ROUND_MODE.val(Round::X_ROUND_TO_EVEN)
        | F::QUANT_MODE.val(Q::X_16_8_FIXED_POINT_1_256TH)
}

/// Half of `pixels` in 12.4 fixed point (the unit of the point size fields), saturated.
fn half_12p4(pixels: f32) -> u32 {
    (pixels.max(0.0) * 8.0).round().min(0xffff as f32) as u32
}

/// PA_SU_POINT_SIZE (the size of points whose shader writes no PointSize: Vulkan says 1.0)
/// and PA_SU_POINT_MINMAX (the clamp of shader point sizes: [0, maxPointSize]).
pub fn points(max_point_size: f32) -> Regs {
    use r::PA_SU_POINT_MINMAX as M;
    use r::PA_SU_POINT_SIZE as S;
    let one = half_12p4(1.0);
    let mut regs = Regs::new();
    regs.push(r::PA_SU_POINT_SIZE, S::HEIGHT.val(one) | S::WIDTH.val(one));
    regs.push(
        r::PA_SU_POINT_MINMAX,
        M::MIN_SIZE.val(0) | M::MAX_SIZE.val(half_12p4(max_point_size)),
    );
    regs
}

/// Depth-bias values (pipeline or vkCmdSetDepthBias).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DepthBias {
    pub constant: f32,
    pub clamp: f32,
    pub slope: f32,
}

/// The PA_SU_POLY_OFFSET_* registers for `bias` against a depth attachment of `format`
/// (None: no depth attachment). The hardware's constant unit is the minimum resolvable
/// difference of a format of `-NEG_NUM_DB_BITS` bits, which is exactly Vulkan's `r` for UNORM
/// formats; for D32_SFLOAT the DB is told the format is float (23 mantissa bits) and
/// computes `r` from the primitive's exponent. The slope is in 1/16 units (RADV scales it).
pub fn depth_bias(bias: DepthBias, format: Option<vk::Format>) -> Regs {
    use r::PA_SU_POLY_OFFSET_DB_FMT_CNTL as F;
    let fmt_cntl = match format {
        Some(vk::Format::D16_UNORM) | Some(vk::Format::D16_UNORM_S8_UINT) => {
            F::POLY_OFFSET_NEG_NUM_DB_BITS.val((-16i32) as u32)
        }
        Some(vk::Format::D32_SFLOAT) | Some(vk::Format::D32_SFLOAT_S8_UINT) => {
            F::POLY_OFFSET_NEG_NUM_DB_BITS.val((-23i32) as u32)
                | F::POLY_OFFSET_DB_IS_FLOAT_FMT.val(1)
        }
        _ => 0,
    };
    let slope = fui(bias.slope * 16.0);
    let offset = fui(bias.constant);
    let mut regs = Regs::new();
    regs.push(r::PA_SU_POLY_OFFSET_DB_FMT_CNTL, fmt_cntl);
    regs.push(r::PA_SU_POLY_OFFSET_CLAMP, fui(bias.clamp));
    regs.push(r::PA_SU_POLY_OFFSET_FRONT_SCALE, slope);
    regs.push(r::PA_SU_POLY_OFFSET_FRONT_OFFSET, offset);
    regs.push(r::PA_SU_POLY_OFFSET_BACK_SCALE, slope);
    regs.push(r::PA_SU_POLY_OFFSET_BACK_OFFSET, offset);
    regs
}

#[cfg(test)]
#[path = "rasterization_tests.rs"]
mod tests;
