//! Strict mode for the back end: the registers a draw's scan conversion, pixel shader,
//! depth/stencil and colour stages read must have been written (after the last
//! CLEAR_STATE), as real hardware would otherwise run on whatever the registers held.

use super::addr::*;
use super::state::require;
use crate::cp::regs::{field, RegisterFile};
use crate::error::GpuError;
use ferrum_regs::gfx103 as r;

/// Checks every register the back end will read for this draw.
pub fn require_back_end(regs: &RegisterFile) -> Result<(), GpuError> {
    let why = "a draw's back end";
    require(
        regs,
        &[
            PA_SU_VTX_CNTL,
            PA_SC_SCREEN_SCISSOR_TL,
            PA_SC_SCREEN_SCISSOR_BR,
            PA_SC_WINDOW_SCISSOR_TL,
            PA_SC_WINDOW_SCISSOR_BR,
            PA_SC_GENERIC_SCISSOR_TL,
            PA_SC_GENERIC_SCISSOR_BR,
            PA_SC_WINDOW_OFFSET,
            PA_SC_MODE_CNTL_0,
            PA_SC_AA_CONFIG,
            PA_SC_AA_MASK_X0Y0_X1Y0,
            PA_SC_AA_MASK_X0Y1_X1Y1,
            SPI_SHADER_PGM_LO_PS,
            SPI_SHADER_PGM_RSRC1_PS,
            SPI_SHADER_PGM_RSRC2_PS,
            SPI_PS_INPUT_ENA,
            SPI_PS_INPUT_ADDR,
            SPI_PS_IN_CONTROL,
            SPI_BARYC_CNTL,
            SPI_SHADER_COL_FORMAT,
            SPI_SHADER_Z_FORMAT,
            DB_SHADER_CONTROL,
            DB_DEPTH_CONTROL,
            CB_COLOR_CONTROL,
            CB_TARGET_MASK,
            CB_SHADER_MASK,
        ],
        why,
    )?;
    let mut need = Vec::new();
    let rsrc2 = regs.get(SPI_SHADER_PGM_RSRC2_PS);
    let user = field(rsrc2, 1, 5) + (field(rsrc2, 27, 27) << 5);
    need.extend((0..user.min(32)).map(|i| SPI_SHADER_USER_DATA_PS_0 + 4 * i));
    let interp = field(regs.get(SPI_PS_IN_CONTROL), 0, 5);
    need.extend((0..interp.min(32)).map(|i| SPI_PS_INPUT_CNTL_0 + 4 * i));
    let mode0 = regs.get(PA_SC_MODE_CNTL_0);
    if mode0 & 1 != 0 && field(regs.get(PA_SC_AA_CONFIG), 0, 2) != 0 {
        need.extend((0..16).map(|i| PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 4 * i));
        need.extend([PA_SC_CENTROID_PRIORITY_0, PA_SC_CENTROID_PRIORITY_1]);
    }
    if mode0 & 2 != 0 {
        need.extend([PA_SC_VPORT_SCISSOR_0_TL, PA_SC_VPORT_SCISSOR_0_BR]);
    }
    let dc = regs.get(DB_DEPTH_CONTROL);
    let z_export = regs.get(DB_SHADER_CONTROL) & 1 != 0;
    if dc & 0xf != 0 || z_export {
        need.extend([
            DB_Z_INFO,
            DB_STENCIL_INFO,
            DB_DEPTH_SIZE_XY,
            DB_DEPTH_VIEW,
            PA_SC_VPORT_ZMIN_0,
            PA_SC_VPORT_ZMAX_0,
        ]);
        if field(regs.get(DB_Z_INFO), 0, 1) != 0 {
            need.extend([DB_Z_READ_BASE, DB_Z_WRITE_BASE]);
        }
        if regs.get(DB_STENCIL_INFO) & 1 != 0 {
            need.extend([DB_STENCIL_READ_BASE, DB_STENCIL_WRITE_BASE]);
        }
    }
    if dc & 1 != 0 {
        need.extend([DB_STENCIL_CONTROL, DB_STENCILREFMASK, DB_STENCILREFMASK_BF]);
    }
    if dc & 8 != 0 {
        need.extend([DB_DEPTH_BOUNDS_MIN, DB_DEPTH_BOUNDS_MAX]);
    }
    let su = regs.get(r::PA_SU_SC_MODE_CNTL);
    let (front, back) = (su >> 11 & 1 != 0, su >> 12 & 1 != 0);
    if front || back || su >> 13 & 1 != 0 {
        need.extend([
            r::PA_SU_SC_MODE_CNTL,
            r::PA_SU_POLY_OFFSET_DB_FMT_CNTL,
            r::PA_SU_POLY_OFFSET_CLAMP,
        ]);
    }
    if front {
        need.extend([r::PA_SU_POLY_OFFSET_FRONT_SCALE, r::PA_SU_POLY_OFFSET_FRONT_OFFSET]);
    }
    if back {
        need.extend([r::PA_SU_POLY_OFFSET_BACK_SCALE, r::PA_SU_POLY_OFFSET_BACK_OFFSET]);
    }
    if field(regs.get(CB_COLOR_CONTROL), 4, 6) != 0 {
        let mask = regs.get(CB_TARGET_MASK) & regs.get(CB_SHADER_MASK);
        for i in 0..8u32 {
            if mask >> (4 * i) & 0xf == 0 {
                continue;
            }
            need.push(CB_COLOR0_INFO + i * CB_COLOR_STRIDE);
            if field(regs.get(CB_COLOR0_INFO + i * CB_COLOR_STRIDE), 2, 6) == 0 {
                continue;
            }
            need.extend(
                [CB_COLOR0_BASE, CB_COLOR0_VIEW, CB_COLOR0_ATTRIB].map(|a| a + i * CB_COLOR_STRIDE),
            );
            need.extend(
                [CB_COLOR0_ATTRIB2, CB_COLOR0_ATTRIB3, CB_COLOR0_BASE_EXT]
                    .map(|a| a + i * CB_COLOR_EXT_STRIDE),
            );
            let blend = CB_BLEND0_CONTROL + 4 * i;
            need.push(blend);
            if r::CB_BLEND0_CONTROL::ENABLE.is_set(regs.get(blend)) {
                need.extend([CB_BLEND_RED, CB_BLEND_GREEN, CB_BLEND_BLUE, CB_BLEND_ALPHA]);
            }
        }
    }
    require(regs, &need, why)
}
