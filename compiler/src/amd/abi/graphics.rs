//! The legacy (non-NGG) GFX10.3 vertex and pixel shader ABI: what the driver programs so a VS
//! and a PS compiled by us run, and how the two stages meet. Register values are built from
//! the `ferrum-regs` field table, so the driver copies them without knowing field layouts.
//!
//! # Vertex shader (hardware VS stage, wave32)
//! * User SGPRs (`RSRC2_VS.USER_SGPR` = [`VS_USER_SGPRS`]; `SPI_SHADER_USER_DATA_VS_0..9`):
//!   - `s[0:1]` descriptor-set table, `s[2:3]` push block (as compute);
//!   - `s[4:5]` ([`VS_SGPR_VERTEX_INPUTS`]) the vertex-input table: the 64-bit address of an
//!     array of 16-byte buffer descriptors (V#), one per input location (index = location).
//!     The driver builds each at draw time: base = buffer address + binding offset +
//!     attribute offset, STRIDE = binding stride, FORMAT and DST_SEL from the attribute's
//!     VkFormat (the shader's `buffer_load_format_*` converts, and components the format
//!     lacks read as (0, 0, 0, 1) through DST_SEL), NUM_RECORDS/OOB_SELECT so in-range
//!     structured (`idxen`) indices fetch;
//!   - `s6` ([`VS_SGPR_BASE_VERTEX`]) firstVertex (non-indexed) or vertexOffset (indexed);
//!   - `s7` ([`VS_SGPR_BASE_INSTANCE`]) firstInstance;
//!   - `s8` ([`VS_SGPR_DRAW_INDEX`]) the draw index (`gl_DrawIndex`; 0 outside multi-draws);
//!   - `s9` ([`VS_SGPR_VIEW_INDEX`]) the view index (`gl_ViewIndex`): the driver runs each
//!     draw of a multiview subpass once per view, writing the view's index here (0 outside
//!     multiview).
//!
//!   Indirect draws have the CP write `s6`, `s7`, `s8` through `BASE_VTX_LOC`,
//!   `START_INST_LOC`, `DRAW_INDEX_LOC` = [`VS_USER_DATA_BASE_VERTEX`] etc. (register
//!   offsets from the SH base).
//! * VGPR inputs (`RSRC1_VS.VGPR_COMP_CNT` = 3): `v0` the vertex id as the VGT provides it
//!   (the fetched index, or the auto index from 0), with `GE_INDX_OFFSET` = 0; `v3` the
//!   instance id from 0. `gl_VertexIndex` = `v0 + s6`, `gl_InstanceIndex` = `v3 + s7`.
//! * Vertex input location `l` is fetched with `buffer_load_format_*` `idxen` from V# `l`
//!   at index `v0 + s6` (per-vertex rate) or `s7 + v3 / divisor` (per-instance rate;
//!   divisor 0: `s7`), the rate and divisor from [`VsKey`].
//! * Exports at the end of the program: `exp pos0` (4 components), then the misc vector
//!   (gl_PointSize in x, gl_Layer in z, gl_ViewportIndex in w) when one of them is written,
//!   then the clip/cull distance vectors ([`VsExtras`]), every one with 4 components, the
//!   last position export with `done`, then
//!   `exp paramN` for every written location in increasing location order
//!   ([`VsMetadata::param_locations`]), with exactly the written components enabled.
//!
//! * A VS with private memory in the scratch ring (`RSRC2_VS.SCRATCH_EN`) takes the ring's
//!   64-bit address in two more user SGPRs (`s[10:11]`, USER_SGPR = 12), and the SPI loads the
//!   wave's byte offset into the ring in the next SGPR (`s12`: no streamout SGPRs come
//!   between, as RADV declares the legacy VS's scratch offset) ([`GfxSgprs`]).
//!
//! # Pixel shader (wave32, `SPI_PS_IN_CONTROL.PS_W32_EN`)
//! * User SGPRs `s[0:1]` sets, `s[2:3]` push, `s4` the view index ([`PS_SGPR_VIEW_INDEX`],
//!   as the VS's `s9`) ([`PS_USER_SGPRS`]), then the PRIM_MASK SGPR (`s5`), which the program
//!   moves to M0 before `v_interp_*`.
//! * With scratch (`RSRC2_PS.SCRATCH_EN`) the ring address takes `s[5:6]` (USER_SGPR = 7),
//!   PRIM_MASK moves to `s7` and the wave's ring offset follows it in `s8` (RADV's order:
//!   user SGPRs, PRIM_MASK, scratch offset) ([`GfxSgprs`]).
//! * Both stages share one ring (`SPI_TMPRING_SIZE`, a context register: WAVES slots of the
//!   larger stage's WAVESIZE, [`gfx_tmpring_size`]); the SPI gives every graphics wave with
//!   scratch its own slot.
//! * `SPI_PS_INPUT_ENA` = `SPI_PS_INPUT_ADDR`: PERSP_CENTER always (the hardware needs one
//!   barycentric input), the PERSP/LINEAR SAMPLE, CENTER and CENTROID pairs the inputs'
//!   interpolation reads (`noperspective`, `centroid`, `sample`, interpolateAtCentroid),
//!   POS_X..POS_W_FLOAT when the shader reads `gl_FragCoord`, ANCILLARY for gl_SampleID
//!   (bits 8..11) and gl_SamplePosition; every enabled input takes the next VGPRs in
//!   SPI_PS_INPUT_ENA bit order ([`PsUses::input_vgpr`]).
//! * gl_SamplePosition and interpolateAtSample read [`STANDARD_SAMPLE_LOCATIONS`] for the
//!   key's sample count ([`PsKey::samples`]) from constants in the code (a 4-bit field per
//!   sample): no user SGPR or table in memory, as the device has standardSampleLocations
//!   and no programmable locations. interpolateAtOffset/AtSample move the centre
//!   barycentrics along their quad derivatives (whole-quad mode), as ACO does.
//! * A shader reading gl_SampleID/gl_SamplePosition or with `sample` inputs runs once per
//!   sample ([`PsMetadata::per_sample`]): the driver sets DB_EQAA.PS_ITER_SAMPLES and
//!   SPI_BARYC_CNTL.POS_FLOAT_LOCATION (gl_FragCoord at the sample).
//! * Input `i` of the PS is [`PsMetadata::input_locations`]`[i]`: `v_interp_*` reads
//!   attribute `i`, and `SPI_PS_INPUT_CNTL_i` points at the VS parameter slot of that
//!   location ([`ps_input_cntl`]).
//! * FRONT_FACE (`FRONT_FACE_ENA`, [`PsUses::front_face_vgpr`]): non-zero means
//!   front-facing. SAMPLE_COVERAGE (gl_SampleMaskIn, [`PsUses::sample_coverage_vgpr`]).
//! * `gl_FragDepth` is exported to `mrtz` (first register) before the colours, with
//!   `SPI_SHADER_Z_FORMAT` = 32_R and `DB_SHADER_CONTROL.Z_EXPORT_ENABLE`; gl_SampleMask
//!   goes in the third register, with 32_ABGR and MASK_EXPORT_ENABLE.
//! * Alpha to one ([`PsKey::alpha_to_one`]) exports 1.0 as the alpha of the targets it
//!   names; with alpha to coverage too, the shader's own `mrt0` alpha goes to `mrtz`'s fourth
//!   register (32_ABGR) first, as RADV and radeonsi order them, for the DB's alpha to mask.
//! * `discard` clears the lanes from EXEC and from a live mask saved at launch; the exports
//!   run with the live mask (so `vm` tells the DB which pixels survive), and
//!   [`PsMetadata::db_shader_control`] sets KILL_ENABLE.
//! * Colour output location `n` is exported to `mrtN` in the key's format for that target
//!   ([`PsKey::color_formats`]); the last export has `done` and `vm`. A shader without
//!   colour outputs exports to the null target.

use ferrum_regs::gfx103 as r;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

use super::{rsrc1::FLOAT_MODE_DEFAULT as FLOAT_MODE_DEFAULT_VALUE, VGPR_GRANULE};

/// User SGPRs every graphics stage starts with (set table and push block).
pub const GFX_USER_SGPRS: u32 = 4;
/// User SGPRs of a vertex shader (`RSRC2_VS.USER_SGPR`): set table, push block,
/// vertex-input table, base vertex, base instance, draw index, view index.
pub const VS_USER_SGPRS: u32 = 10;
/// User SGPRs of a pixel shader (`RSRC2_PS.USER_SGPR`): set table, push block, view index.
pub const PS_USER_SGPRS: u32 = GFX_USER_SGPRS + 1;
/// The VS SGPR holding the view index (gl_ViewIndex).
pub const VS_SGPR_VIEW_INDEX: u8 = 9;
/// The PS SGPR holding the view index (gl_ViewIndex).
pub const PS_SGPR_VIEW_INDEX: u8 = GFX_USER_SGPRS as u8;
/// `SPI_SHADER_USER_DATA_VS_n` index of the view index.
pub const VS_USER_DATA_VIEW_INDEX: u32 = VS_SGPR_VIEW_INDEX as u32;
/// `SPI_SHADER_USER_DATA_PS_n` index of the view index.
pub const PS_USER_DATA_VIEW_INDEX: u32 = PS_SGPR_VIEW_INDEX as u32;
/// The VS SGPR pair holding the vertex-input table address (V# per location).
pub const VS_SGPR_VERTEX_INPUTS: u8 = 4;
/// The VS SGPR holding the base vertex (firstVertex or vertexOffset).
pub const VS_SGPR_BASE_VERTEX: u8 = 6;
/// The VS SGPR holding the base instance (firstInstance).
pub const VS_SGPR_BASE_INSTANCE: u8 = 7;
/// The VS SGPR holding the draw index.
pub const VS_SGPR_DRAW_INDEX: u8 = 8;
/// `SPI_SHADER_USER_DATA_VS_n` index of the vertex-input table's low half.
pub const VS_USER_DATA_VERTEX_INPUTS: u32 = VS_SGPR_VERTEX_INPUTS as u32;
/// `SPI_SHADER_USER_DATA_VS_n` index of the base vertex (BASE_VTX_LOC for indirect draws is
/// `SPI_SHADER_USER_DATA_VS_0 + 4 * n` as an SH register offset).
pub const VS_USER_DATA_BASE_VERTEX: u32 = VS_SGPR_BASE_VERTEX as u32;
/// `SPI_SHADER_USER_DATA_VS_n` index of the base instance (START_INST_LOC).
pub const VS_USER_DATA_BASE_INSTANCE: u32 = VS_SGPR_BASE_INSTANCE as u32;
/// `SPI_SHADER_USER_DATA_VS_n` index of the draw index (DRAW_INDEX_LOC).
pub const VS_USER_DATA_DRAW_INDEX: u32 = VS_SGPR_DRAW_INDEX as u32;
/// Bytes per vertex-input table entry (one buffer descriptor).
pub const VERTEX_INPUT_DESCRIPTOR_SIZE: u32 = 16;
/// Vertex input locations the table and [`VsKey`] cover.
pub const MAX_VERTEX_INPUTS: usize = 32;
/// The VS VGPR holding the vertex index.
pub const VS_VGPR_VERTEX_INDEX: u8 = 0;
/// The VS VGPR holding the instance id.
pub const VS_VGPR_INSTANCE_ID: u8 = 3;
/// Export target `mrtz` (depth, stencil, sample mask).
pub const EXP_MRTZ: u8 = 8;
/// Export target of `mrt0`.
pub const EXP_MRT0: u8 = 0;
/// Export target `null`.
pub const EXP_NULL: u8 = 9;
/// Export target of `pos0`.
pub const EXP_POS0: u8 = 12;
/// Export target of `param0`.
pub const EXP_PARAM0: u8 = 32;
/// The most parameter slots a VS may export.
pub const MAX_PARAMS: u32 = 32;
/// The parameter "location" of clip/cull distances 0..3 (4..7 in the next): a VS that
/// writes distances also exports them as parameters, for fragment shaders that read
/// gl_ClipDistance / gl_CullDistance (locations past the 32 an application can use).
pub const CLIP_DIST_LOCATION: u32 = MAX_PARAMS;
/// The input "location" of gl_PointCoord: [`ps_input_cntl`] gives it PT_SPRITE_TEX, so the
/// rasterizer's point sprite coordinates replace the parameter (for points; other
/// primitives read the default 0). Real hardware also needs SPI_INTERP_CONTROL_0's
/// PNT_SPRITE_ENA with OVRD_X/Y = S/T (the driver's, as RADV programs it).
pub const POINT_COORD_LOCATION: u32 = CLIP_DIST_LOCATION + 2;

/// Where a graphics stage's SGPR inputs land, with or without scratch (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GfxSgprs {
    /// A pixel shader (else a hardware VS).
    pub pixel: bool,
    /// The shader has private memory in the scratch ring.
    pub scratch: bool,
}

impl GfxSgprs {
    /// RSRC2.USER_SGPR: the stage's user SGPRs, then the ring address with scratch.
    pub fn user_count(self) -> u32 {
        let base = if self.pixel { PS_USER_SGPRS } else { VS_USER_SGPRS };
        base + 2 * u32::from(self.scratch)
    }

    /// First SGPR of the scratch ring address (the `SPI_SHADER_USER_DATA_*` index as well).
    pub fn scratch_ring(self) -> Option<u8> {
        self.scratch.then(|| (self.user_count() - 2) as u8)
    }

    /// The PS's PRIM_MASK SGPR (right after the user SGPRs).
    pub fn prim_mask(self) -> u8 {
        self.user_count() as u8
    }

    /// The SGPR the SPI loads with the wave's byte offset into the scratch ring.
    pub fn scratch_wave_offset(self) -> Option<u8> {
        self.scratch.then(|| self.user_count() as u8 + u8::from(self.pixel))
    }

    /// SGPRs the SPI initialises (user SGPRs, PRIM_MASK, the scratch wave offset).
    pub fn initialised(self) -> u32 {
        self.user_count() + u32::from(self.pixel) + u32::from(self.scratch)
    }
}

/// `SPI_TMPRING_SIZE` and the ring's size in bytes for a pipeline whose stages need
/// `bytes_per_lane` each (0: none): [`super::SCRATCH_RING_WAVES`] slots of the larger stage's
/// wave size, as every graphics wave with scratch takes one slot of the same ring.
pub fn gfx_tmpring_size(bytes_per_lane: [u32; 2]) -> (u32, u64) {
    let lane = bytes_per_lane[0].max(bytes_per_lane[1]);
    if lane == 0 {
        return (0, 0);
    }
    let wave = super::scratch_wave_bytes(lane);
    let ring = u64::from(super::SCRATCH_RING_WAVES) * u64::from(wave);
    (super::tmpring_size(super::SCRATCH_RING_WAVES, wave), ring)
}

/// Vulkan's standard sample locations (`standardSampleLocations`), in 1/16 pixel from the
/// pixel's top-left corner, by log2 of the sample count: the one table the driver programs
/// into PA_SC_AA_SAMPLE_LOCS_* and the pixel shader reads for gl_SamplePosition and
/// interpolateAtSample.
pub const STANDARD_SAMPLE_LOCATIONS: [&[(i32, i32)]; 4] = [
    &[(8, 8)],
    &[(12, 12), (4, 4)],
    &[(6, 2), (14, 6), (2, 10), (10, 14)],
    &[(9, 5), (7, 11), (13, 9), (5, 3), (3, 13), (1, 7), (11, 15), (15, 1)],
];

/// The standard locations of `samples` (1, 2, 4, 8; more reads as 8).
pub fn standard_sample_locations(samples: u32) -> &'static [(i32, i32)] {
    STANDARD_SAMPLE_LOCATIONS[samples.max(1).trailing_zeros().min(3) as usize]
}

/// Pipeline state a pixel shader's code depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PsKey {
    /// Export format (`SPI_SHADER_EX_FORMAT`) of each colour target; `SPI_SHADER_ZERO` for
    /// targets without an attachment (their outputs are dropped).
    pub color_formats: [u32; 8],
    /// rasterizationSamples: which standard locations gl_SamplePosition and
    /// interpolateAtSample read.
    pub samples: u32,
    /// alphaToOneEnable: the colour targets (bit per target) whose exported alpha is 1.0
    /// instead of the shader's (the driver leaves integer targets out).
    pub alpha_to_one: u8,
    /// Alpha to coverage together with alpha to one: the shader's `mrt0` alpha goes to
    /// `mrtz`'s fourth register (Z_FORMAT 32_ABGR), where the DB takes the alpha-to-mask
    /// alpha from, while `mrt0` carries the 1.0 (RADV: "alpha to MRTZ.a and one to MRT0.a").
    pub alpha_to_coverage_via_mrtz: bool,
    /// Input location components the pipeline's vertex shader stores one constant to
    /// ([`crate::passes::link_stages::constant_outputs`]): the PS reads the constant instead
    /// of interpolating it, so it stops reading the component and the linked VS drops it
    /// ([`VsKey::unread_outputs`]). Empty by default.
    pub constant_inputs: ConstantInputs,
}

impl Default for PsKey {
    fn default() -> Self {
        PsKey {
            color_formats: [EX::SPI_SHADER_32_ABGR; 8],
            samples: 1,
            alpha_to_one: 0,
            alpha_to_coverage_via_mrtz: false,
            constant_inputs: ConstantInputs::default(),
        }
    }
}

/// 32-bit constants by location component (bit/index `4 * location + component`, locations
/// 0..31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConstantInputs {
    /// Which components are constant.
    pub mask: u128,
    /// The constant of each component in `mask` (0 elsewhere, so equal sets compare equal).
    pub values: [u32; 128],
}

impl Default for ConstantInputs {
    fn default() -> Self {
        ConstantInputs { mask: 0, values: [0; 128] }
    }
}

impl ConstantInputs {
    /// The constant of location `loc` component `comp`, if it has one.
    pub fn get(&self, loc: u32, comp: u8) -> Option<u32> {
        let i = 4 * loc + u32::from(comp);
        (i < 128 && self.mask >> i & 1 != 0).then(|| self.values[i as usize])
    }
}

/// How one vertex input location steps through its buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputRate {
    /// Index `gl_VertexIndex` (`VK_VERTEX_INPUT_RATE_VERTEX`).
    #[default]
    Vertex,
    /// Index `firstInstance + instance / divisor` (`VK_VERTEX_INPUT_RATE_INSTANCE`; divisor
    /// 1 without `VK_EXT_vertex_attribute_divisor`, 0 repeats `firstInstance`'s element).
    Instance {
        /// The instance divisor.
        divisor: u32,
    },
}

/// Pipeline state a vertex shader's code depends on: the input rate of each location and
/// the outputs the pipeline's fragment shader never reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VsKey {
    /// Rate of input location `l` (index = location).
    pub rates: [InputRate; MAX_VERTEX_INPUTS],
    /// Output location components (bit `4 * location + component`, locations 0..31) the
    /// pipeline's fragment shader does not read ([`PsMetadata::input_reads`]): the VS's
    /// stores to them are removed, and a location left without stores gets no parameter
    /// slot. 0 (the default) keeps every output.
    pub unread_outputs: u128,
    /// The pipeline's fragment shader reads no gl_ClipDistance/gl_CullDistance: the distances
    /// go to the clipper only, without their parameter copies. False (the default) exports
    /// them.
    pub unread_clip_distances: bool,
}

/// The pipeline state a graphics stage's code depends on ([`VsKey`] for a VS, [`PsKey`] for
/// a PS; the other half is ignored) and what both depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GfxKey {
    /// Vertex-stage state.
    pub vs: VsKey,
    /// Pixel-stage state.
    pub ps: PsKey,
    /// The pipeline renders without multiview (view mask 0): gl_ViewIndex is the constant
    /// 0 in either stage instead of the view-index user SGPR.
    pub single_view: bool,
}

impl From<PsKey> for GfxKey {
    fn from(ps: PsKey) -> Self {
        GfxKey { ps, ..Default::default() }
    }
}

impl From<VsKey> for GfxKey {
    fn from(vs: VsKey) -> Self {
        GfxKey { vs, ..Default::default() }
    }
}

/// What a vertex shader exports besides the position and its parameters: the misc vector
/// (`exp pos1`: point size in x, render-target layer in z, viewport index in w) and the
/// clip/cull distance vectors that follow it (`exp pos1/pos2/pos3`, CCDIST0 with distances
/// 0..3, CCDIST1 with 4..7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VsExtras {
    /// Writes gl_PointSize (USE_VTX_POINT_SIZE).
    pub point_size: bool,
    /// Writes gl_Layer (USE_VTX_RENDER_TARGET_INDX).
    pub layer: bool,
    /// Writes gl_ViewportIndex (USE_VTX_VIEWPORT_INDX).
    pub viewport_index: bool,
    /// Distances (index into the CCDIST vectors) that clip: gl_ClipDistance[i] is distance
    /// i (PA_CL_VS_OUT_CNTL.CLIP_DIST_ENA_i).
    pub clip_mask: u8,
    /// Distances that cull: gl_CullDistance[j] is distance (length of gl_ClipDistance) + j
    /// (CULL_DIST_ENA_i).
    pub cull_mask: u8,
}

impl VsExtras {
    /// Whether the misc vector is exported.
    pub fn misc(&self) -> bool {
        self.point_size || self.layer || self.viewport_index
    }

    /// How many CCDIST vectors are exported (0, 1 or 2).
    pub fn ccdist_vectors(&self) -> u32 {
        match self.clip_mask | self.cull_mask {
            0 => 0,
            m if m & 0xf0 == 0 => 1,
            _ => 2,
        }
    }

    /// Position exports after `pos0`.
    pub fn extra_pos_exports(&self) -> u32 {
        u32::from(self.misc()) + self.ccdist_vectors()
    }

    /// `PA_CL_VS_OUT_CNTL`.
    pub fn pa_cl_vs_out_cntl(&self) -> u32 {
        use r::PA_CL_VS_OUT_CNTL as VO;
        let misc = u32::from(self.misc());
        let cc = self.ccdist_vectors();
        u32::from(self.clip_mask)
            | u32::from(self.cull_mask) << 8
            | VO::USE_VTX_POINT_SIZE.val(u32::from(self.point_size))
            | VO::USE_VTX_RENDER_TARGET_INDX.val(u32::from(self.layer))
            | VO::USE_VTX_VIEWPORT_INDX.val(u32::from(self.viewport_index))
            | VO::VS_OUT_MISC_VEC_ENA.val(misc)
            | VO::VS_OUT_MISC_SIDE_BUS_ENA.val(misc)
            | VO::VS_OUT_CCDIST0_VEC_ENA.val(u32::from(cc >= 1))
            | VO::VS_OUT_CCDIST1_VEC_ENA.val(u32::from(cc >= 2))
    }
}

/// Register values of a compiled vertex shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VsMetadata {
    /// `SPI_SHADER_PGM_RSRC1_VS`.
    pub rsrc1: u32,
    /// `SPI_SHADER_PGM_RSRC2_VS`.
    pub rsrc2: u32,
    /// `SPI_VS_OUT_CONFIG`.
    pub vs_out_config: u32,
    /// `SPI_SHADER_POS_FORMAT`.
    pub pos_format: u32,
    /// `PA_CL_VS_OUT_CNTL`.
    pub pa_cl_vs_out_cntl: u32,
    /// Location exported to each parameter slot (slot = index).
    pub param_locations: Vec<u32>,
    /// The misc vector and clip/cull distances exported.
    pub extras: VsExtras,
    /// VGPRs used per lane (before granule rounding).
    pub vgprs: u32,
    /// SGPRs used.
    pub sgprs: u32,
    /// Scratch bytes per lane (0: none; then RSRC2.SCRATCH_EN and the ring-address user
    /// SGPRs of [`GfxSgprs`]).
    pub scratch_bytes_per_lane: u32,
}

/// RSRC2 (VS or PS: SCRATCH_EN and USER_SGPR sit at the same bits) with `scratch` bytes per
/// lane of private memory: SCRATCH_EN and the ring address's two user SGPRs.
fn rsrc2_with_scratch(rsrc2: u32, sgprs: GfxSgprs) -> u32 {
    use r::SPI_SHADER_PGM_RSRC2_VS as R2;
    let cleared = rsrc2 & !(R2::USER_SGPR.val(0x1f) | R2::SCRATCH_EN.val(1));
    cleared | R2::USER_SGPR.val(sgprs.user_count()) | R2::SCRATCH_EN.val(u32::from(sgprs.scratch))
}

impl VsMetadata {
    /// These registers for a shader with `bytes` of private memory per lane in the ring.
    pub fn with_scratch(mut self, bytes: u32) -> Self {
        self.scratch_bytes_per_lane = bytes;
        self.rsrc2 = rsrc2_with_scratch(self.rsrc2, self.user_sgprs());
        self
    }

    /// The SGPR layout these registers select.
    pub fn user_sgprs(&self) -> GfxSgprs {
        GfxSgprs { pixel: false, scratch: self.scratch_bytes_per_lane > 0 }
    }

    /// Register values for a VS using `vgprs`/`sgprs` that exports `param_locations` and
    /// the misc vector and distances `extras` says.
    pub fn new(vgprs: u32, sgprs: u32, param_locations: Vec<u32>, extras: VsExtras) -> Self {
        use r::SPI_SHADER_PGM_RSRC1_VS as R1;
        use r::SPI_SHADER_PGM_RSRC2_VS as R2;
        let vgprs = vgprs.max(u32::from(VS_VGPR_INSTANCE_ID) + 1);
        let rsrc1 = R1::VGPRS.val(vgprs.div_ceil(VGPR_GRANULE) - 1)
            | R1::FLOAT_MODE.val(FLOAT_MODE_DEFAULT_VALUE)
            | R1::DX10_CLAMP.val(1)
            | R1::VGPR_COMP_CNT.val(3)
            | R1::MEM_ORDERED.val(1);
        let rsrc2 = R2::USER_SGPR.val(VS_USER_SGPRS);
        use r::SPI_VS_OUT_CONFIG as OC;
        let vs_out_config = match param_locations.len() as u32 {
            0 => OC::NO_PC_EXPORT.val(1),
            n => OC::VS_EXPORT_COUNT.val(n - 1),
        };
        use r::enums::SPI_SHADER_FORMAT::SPI_SHADER_4COMP;
        use r::SPI_SHADER_POS_FORMAT as PF;
        // Every position export is written with all four components.
        let fields = [PF::POS1_EXPORT_FORMAT, PF::POS2_EXPORT_FORMAT, PF::POS3_EXPORT_FORMAT];
        let pos_format = fields
            .iter()
            .take(extras.extra_pos_exports() as usize)
            .fold(PF::POS0_EXPORT_FORMAT.val(SPI_SHADER_4COMP), |a, f| a | f.val(SPI_SHADER_4COMP));
        VsMetadata {
            rsrc1,
            rsrc2,
            vs_out_config,
            pos_format,
            pa_cl_vs_out_cntl: extras.pa_cl_vs_out_cntl(),
            param_locations,
            extras,
            vgprs,
            sgprs,
            scratch_bytes_per_lane: 0,
        }
    }

    /// The parameter slot holding `location`, if the VS writes it.
    pub fn param_slot(&self, location: u32) -> Option<u32> {
        self.param_locations.iter().position(|&l| l == location).map(|p| p as u32)
    }
}

/// VGPRs of each pixel-shader input, in SPI_PS_INPUT_ENA bit order (PERSP_SAMPLE,
/// PERSP_CENTER, PERSP_CENTROID, PERSP_PULL_MODEL, LINEAR_SAMPLE, LINEAR_CENTER,
/// LINEAR_CENTROID, LINE_STIPPLE, POS_X..POS_W_FLOAT, FRONT_FACE, ANCILLARY,
/// SAMPLE_COVERAGE, POS_FIXED_PT): an enabled input takes the next VGPRs.
pub const PS_INPUT_VGPRS: [u8; 16] = [2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];

/// SPI_PS_INPUT_ENA bit of the barycentrics at a location: PERSP_* (`linear` false) or
/// LINEAR_* at the sample, the centre or the centroid.
pub fn bary_bit(linear: bool, at: crate::ir::Interp) -> u8 {
    use crate::ir::Interp;
    let base = if linear { 4 } else { 0 };
    base + match at {
        Interp::Sample => 0,
        Interp::Center => 1,
        Interp::Centroid => 2,
    }
}

/// What a pixel shader reads and writes besides interpolated inputs and colours; decides
/// SPI_PS_INPUT_ENA (and so its input VGPRs), SPI_SHADER_Z_FORMAT and DB_SHADER_CONTROL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsUses {
    /// Reads gl_FragCoord: POS_X..POS_W_FLOAT.
    pub frag_coord: bool,
    /// Reads gl_FrontFacing: FRONT_FACE (non-zero for front-facing primitives).
    pub front_face: bool,
    /// The barycentric inputs read besides PERSP_CENTER ([`bary_bit`] bits: LINEAR_CENTER for
    /// `noperspective` inputs, *_CENTROID and *_SAMPLE for `centroid` and `sample` ones).
    pub bary: u8,
    /// Reads gl_SampleID or gl_SamplePosition: ANCILLARY (the sample index in bits 8..11).
    pub ancillary: bool,
    /// Discards (KILL_ENABLE).
    pub kills: bool,
    /// Writes gl_FragDepth: `exp mrtz` with the depth in the first register (Z_FORMAT
    /// 32_R, Z_EXPORT_ENABLE).
    pub frag_depth: bool,
    /// Writes gl_FragStencilRefEXT: `exp mrtz` with the reference in the second register
    /// (Z_FORMAT 32_GR, STENCIL_TEST_VAL_EXPORT_ENABLE: the DB compares and REPLACEs with it).
    pub stencil: bool,
    /// Reads gl_SampleMaskIn: SAMPLE_COVERAGE.
    pub sample_coverage: bool,
    /// Writes gl_SampleMask: `exp mrtz` with the mask in the third register (Z_FORMAT
    /// 32_ABGR, MASK_EXPORT_ENABLE), as RADV formats it.
    pub sample_mask: bool,
    /// Exports `mrt0`'s alpha in `mrtz`'s fourth register for alpha to coverage
    /// ([`PsKey::alpha_to_coverage_via_mrtz`]; Z_FORMAT 32_ABGR).
    pub mrtz_alpha: bool,
    /// Stores to or atomics on buffers or images: the PS must run even where the depth test
    /// (hierarchical or not) fails or nothing is exported (EXEC_ON_HIER_FAIL, EXEC_ON_NOOP).
    pub writes_memory: bool,
    /// EarlyFragmentTests: the DB tests before the shader (DEPTH_BEFORE_SHADER,
    /// EARLY_Z_THEN_LATE_Z), so fragments that fail never run it.
    pub early_tests: bool,
}

impl PsUses {
    /// `SPI_PS_INPUT_ENA` (= `SPI_PS_INPUT_ADDR`).
    pub fn input_ena(&self) -> u32 {
        use r::SPI_PS_INPUT_ENA as E;
        let mut ena = E::PERSP_CENTER_ENA.val(1) | u32::from(self.bary & 0x77);
        if self.frag_coord {
            ena |= E::POS_X_FLOAT_ENA.val(1)
                | E::POS_Y_FLOAT_ENA.val(1)
                | E::POS_Z_FLOAT_ENA.val(1)
                | E::POS_W_FLOAT_ENA.val(1);
        }
        if self.front_face {
            ena |= E::FRONT_FACE_ENA.val(1);
        }
        if self.ancillary {
            ena |= E::ANCILLARY_ENA.val(1);
        }
        if self.sample_coverage {
            ena |= E::SAMPLE_COVERAGE_ENA.val(1);
        }
        ena
    }

    /// The first VGPR of input `bit` (SPI_PS_INPUT_ENA bit order): the inputs enabled
    /// before it take the VGPRs before it.
    pub fn input_vgpr(&self, bit: u8) -> u8 {
        let ena = self.input_ena();
        (0..bit).filter(|&b| ena >> b & 1 != 0).map(|b| PS_INPUT_VGPRS[usize::from(b)]).sum()
    }

    /// The VGPRs holding the I, J barycentrics of [`bary_bit`] `bit`.
    pub fn bary_vgprs(&self, bit: u8) -> [u8; 2] {
        let v = self.input_vgpr(bit);
        [v, v + 1]
    }

    /// The VGPRs holding POS_X..POS_W_FLOAT.
    pub fn pos_vgprs(&self) -> [u8; 4] {
        let base = self.input_vgpr(8);
        [base, base + 1, base + 2, base + 3]
    }

    /// The VGPR holding FRONT_FACE.
    pub fn front_face_vgpr(&self) -> u8 {
        self.input_vgpr(12)
    }

    /// The VGPR holding ANCILLARY.
    pub fn ancillary_vgpr(&self) -> u8 {
        self.input_vgpr(13)
    }

    /// The VGPR holding SAMPLE_COVERAGE.
    pub fn sample_coverage_vgpr(&self) -> u8 {
        self.input_vgpr(14)
    }

    /// The first VGPR after the inputs.
    pub fn first_free_vgpr(&self) -> u8 {
        self.input_vgpr(16)
    }

    /// The DB_SHADER_CONTROL bits the shader decides. Side effects keep the shader running
    /// where the hierarchical test fails or nothing is exported; with early fragment tests
    /// the DB tests first (as RADV programs both), else Z_ORDER stays LATE_Z.
    pub fn db_shader_control(&self) -> u32 {
        use r::DB_SHADER_CONTROL as C;
        let (writes, early) = (u32::from(self.writes_memory), u32::from(self.early_tests));
        let z_order = if self.early_tests { r::enums::ZOrder::EARLY_Z_THEN_LATE_Z } else { 0 };
        C::KILL_ENABLE.val(u32::from(self.kills))
            | C::Z_EXPORT_ENABLE.val(u32::from(self.frag_depth))
            | C::STENCIL_TEST_VAL_EXPORT_ENABLE.val(u32::from(self.stencil))
            | C::MASK_EXPORT_ENABLE.val(u32::from(self.sample_mask))
            | C::EXEC_ON_HIER_FAIL.val(writes)
            | C::EXEC_ON_NOOP.val(writes)
            | C::DEPTH_BEFORE_SHADER.val(early)
            | C::Z_ORDER.val(z_order)
    }

    /// `SPI_SHADER_Z_FORMAT`'s export format: 32_ABGR when the sample mask or the
    /// alpha-to-coverage alpha is exported (third and fourth registers), 32_GR with a
    /// stencil reference (second register), 32_R for depth alone, else ZERO (as Mesa's
    /// ac_get_spi_shader_z_format chooses when depth is written; without depth Mesa packs
    /// stencil and mask into UINT16_ABGR, which only saves export bandwidth).
    pub fn z_format(&self) -> u32 {
        if self.sample_mask || self.mrtz_alpha {
            EX::SPI_SHADER_32_ABGR
        } else if self.stencil {
            EX::SPI_SHADER_32_GR
        } else if self.frag_depth {
            EX::SPI_SHADER_32_R
        } else {
            EX::SPI_SHADER_ZERO
        }
    }
}

/// Register values of a compiled pixel shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PsMetadata {
    /// `SPI_SHADER_PGM_RSRC1_PS`.
    pub rsrc1: u32,
    /// `SPI_SHADER_PGM_RSRC2_PS`.
    pub rsrc2: u32,
    /// `SPI_PS_INPUT_ENA` (and `SPI_PS_INPUT_ADDR`, equal).
    pub input_ena: u32,
    /// `SPI_PS_IN_CONTROL` (NUM_INTERP and PS_W32_EN).
    pub ps_in_control: u32,
    /// `SPI_SHADER_COL_FORMAT`: the key's format for targets the shader writes, else 0.
    pub col_format: u32,
    /// `SPI_SHADER_Z_FORMAT` ([`PsUses::z_format`]).
    pub z_format: u32,
    /// `CB_SHADER_MASK`: components the shader writes per target.
    pub cb_shader_mask: u32,
    /// `DB_SHADER_CONTROL` bits the shader decides: KILL_ENABLE when it discards,
    /// Z_EXPORT_ENABLE when it writes gl_FragDepth (the driver adds Z_ORDER etc.).
    pub db_shader_control: u32,
    /// Location of each interpolated input (attribute index = position).
    pub input_locations: Vec<u32>,
    /// The input location components the shader reads (bit `4 * location + component`,
    /// locations 0..31): the pipeline's VS need not write the others
    /// ([`VsKey::unread_outputs`]).
    pub input_reads: u128,
    /// Which of [`PsMetadata::input_locations`] are flat-shaded.
    pub input_flat: Vec<bool>,
    /// VGPRs used per lane.
    pub vgprs: u32,
    /// SGPRs used.
    pub sgprs: u32,
    /// Scratch bytes per lane (0: none), as [`VsMetadata::scratch_bytes_per_lane`].
    pub scratch_bytes_per_lane: u32,
}

impl PsMetadata {
    /// These registers for a shader with `bytes` of private memory per lane in the ring.
    pub fn with_scratch(mut self, bytes: u32) -> Self {
        self.scratch_bytes_per_lane = bytes;
        self.rsrc2 = rsrc2_with_scratch(self.rsrc2, self.user_sgprs());
        self
    }

    /// The SGPR layout these registers select.
    pub fn user_sgprs(&self) -> GfxSgprs {
        GfxSgprs { pixel: true, scratch: self.scratch_bytes_per_lane > 0 }
    }

    /// Whether the shader must run once per covered sample (Vulkan's sample shading with
    /// minSampleShading 1.0): it reads gl_SampleID or gl_SamplePosition (ANCILLARY) or has
    /// `sample`-interpolated inputs (PERSP_SAMPLE or LINEAR_SAMPLE). The driver then sets
    /// DB_EQAA.PS_ITER_SAMPLES to the sample count and places gl_FragCoord at the sample
    /// (SPI_BARYC_CNTL.POS_FLOAT_LOCATION), whatever the multisample state asks.
    pub fn per_sample(&self) -> bool {
        use r::SPI_PS_INPUT_ENA as E;
        let bits =
            E::PERSP_SAMPLE_ENA.val(1) | E::LINEAR_SAMPLE_ENA.val(1) | E::ANCILLARY_ENA.val(1);
        self.input_ena & bits != 0
    }

    /// Register values for a PS. `color`: per target, the components written (4-bit mask).
    pub fn new(
        vgprs: u32,
        sgprs: u32,
        uses: PsUses,
        inputs: Vec<(u32, bool)>,
        color: [u8; 8],
        key: &PsKey,
    ) -> Self {
        use r::SPI_SHADER_PGM_RSRC1_PS as R1;
        let input_ena = uses.input_ena();
        let vgprs = vgprs.max(u32::from(uses.first_free_vgpr()));
        let rsrc1 = R1::VGPRS.val(vgprs.div_ceil(VGPR_GRANULE) - 1)
            | R1::FLOAT_MODE.val(FLOAT_MODE_DEFAULT_VALUE)
            | R1::DX10_CLAMP.val(1)
            | R1::MEM_ORDERED.val(1);
        let rsrc2 = r::SPI_SHADER_PGM_RSRC2_PS::USER_SGPR.val(PS_USER_SGPRS);
        let ps_in_control = r::SPI_PS_IN_CONTROL::NUM_INTERP.val(inputs.len() as u32)
            | r::SPI_PS_IN_CONTROL::PS_W32_EN.val(1);
        let (mut col_format, mut cb_shader_mask) = (0, 0);
        for (t, &mask) in color.iter().enumerate() {
            let fmt = key.color_formats[t];
            if mask != 0 && fmt != EX::SPI_SHADER_ZERO {
                col_format |= fmt << (4 * t);
                cb_shader_mask |= u32::from(mask) << (4 * t);
            }
        }
        PsMetadata {
            rsrc1,
            rsrc2,
            input_ena,
            ps_in_control,
            col_format,
            z_format: r::SPI_SHADER_Z_FORMAT::Z_EXPORT_FORMAT.val(uses.z_format()),
            cb_shader_mask,
            db_shader_control: uses.db_shader_control(),
            input_locations: inputs.iter().map(|i| i.0).collect(),
            // Every component until the compiler says which it reads.
            input_reads: u128::MAX,
            input_flat: inputs.iter().map(|i| i.1).collect(),
            vgprs,
            sgprs,
            scratch_bytes_per_lane: 0,
        }
    }
}

/// `SPI_PS_INPUT_CNTL_0..` for `ps` fed by `vs`: each input reads the VS parameter slot of
/// its location, flat inputs with FLAT_SHADE; a location the VS does not write reads the
/// default (0, 0, 0, 0) (OFFSET = 0x20, DEFAULT_VAL 0).
pub fn ps_input_cntl(vs: &VsMetadata, ps: &PsMetadata) -> Vec<u32> {
    use r::SPI_PS_INPUT_CNTL_0 as C;
    ps.input_locations
        .iter()
        .zip(&ps.input_flat)
        .map(|(&loc, &flat)| {
            if loc == POINT_COORD_LOCATION {
                return C::OFFSET.val(0x20) | C::PT_SPRITE_TEX.val(1);
            }
            let offset = vs.param_slot(loc).unwrap_or(0x20);
            C::OFFSET.val(offset) | C::FLAT_SHADE.val(u32::from(flat))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vs_registers_match_the_register_database() {
        let m = VsMetadata::new(9, 10, vec![0, 3], VsExtras::default());
        assert_eq!(m.rsrc1 & 0x3f, 1, "9 VGPRs = 2 granules");
        assert_eq!(m.rsrc1 >> 24 & 3, 3, "VGPR_COMP_CNT: instance id in v3");
        assert_eq!(m.rsrc2 >> 1 & 0x1f, 10, "USER_SGPR: s[0:9]");
        assert_eq!(m.vs_out_config, 1 << 1, "two parameters: VS_EXPORT_COUNT = 1");
        assert_eq!(m.pos_format, 4);
        let none = VsExtras::default();
        assert_eq!(VsMetadata::new(1, 1, vec![], none).vs_out_config, 1 << 7, "NO_PC_EXPORT");
        let p = VsMetadata::new(1, 1, vec![], VsExtras { point_size: true, ..none });
        assert_eq!(p.pos_format, 0x44, "POS0 and POS1 4COMP");
        assert_eq!(p.pa_cl_vs_out_cntl, 1 << 16 | 1 << 21 | 1 << 24);
        assert_eq!(m.param_slot(3), Some(1));
        // gl_ClipDistance[3] and gl_CullDistance[2]: distances 0..2 clip, 3..4 cull, so
        // both CCDIST vectors (pos1, pos2); with gl_Layer the misc vector comes first.
        let cc = VsExtras { clip_mask: 0b111, cull_mask: 0b11000, ..none };
        let c = VsMetadata::new(1, 1, vec![], cc);
        assert_eq!(c.pos_format, 0x444, "POS0..POS2 4COMP");
        assert_eq!(c.pa_cl_vs_out_cntl, 0b111 | 0b11000 << 8 | 1 << 22 | 1 << 23);
        let l = VsMetadata::new(1, 1, vec![], VsExtras { layer: true, clip_mask: 1, ..none });
        assert_eq!(l.pos_format, 0x444);
        assert_eq!(l.pa_cl_vs_out_cntl, 1 | 1 << 18 | 1 << 21 | 1 << 22 | 1 << 24);
    }

    #[test]
    fn ps_registers_match_the_register_database() {
        let key = PsKey { color_formats: [9, 4, 0, 9, 9, 9, 9, 9], ..PsKey::default() };
        let uses = PsUses { frag_coord: true, kills: true, ..Default::default() };
        let m = PsMetadata::new(
            3,
            5,
            uses,
            vec![(2, false), (0, true)],
            [0xf, 0x3, 0xf, 0, 0, 0, 0, 0],
            &key,
        );
        assert_eq!(m.input_ena, 0xf02);
        assert_eq!(m.ps_in_control, 2 | 1 << 15);
        assert_eq!(m.col_format, 0x49, "target 2 has no attachment");
        assert_eq!(m.cb_shader_mask, 0x3f);
        assert_eq!(m.db_shader_control, 1 << 6, "KILL_ENABLE");
        assert_eq!(m.rsrc1 & 0x3f, 0, "6 input VGPRs fit one granule");
        let vs = VsMetadata::new(4, 4, vec![0, 1], VsExtras::default());
        assert_eq!(ps_input_cntl(&vs, &m), vec![0x20, 1 << 10]);
    }

    /// SPI_SHADER_Z_FORMAT and DB_SHADER_CONTROL for every mrtz combination, values from the
    /// register database (enum SPI_SHADER_EX_FORMAT: ZERO 0, 32_R 1, 32_GR 2, 32_ABGR 9;
    /// DB_SHADER_CONTROL Z_EXPORT_ENABLE bit 0, STENCIL_TEST_VAL_EXPORT_ENABLE bit 1,
    /// MASK_EXPORT_ENABLE bit 8).
    #[test]
    fn mrtz_formats_follow_what_the_shader_exports() {
        let u = |frag_depth, stencil, sample_mask| PsUses {
            frag_depth,
            stencil,
            sample_mask,
            ..Default::default()
        };
        let cases = [
            (u(false, false, false), 0, 0),
            (u(true, false, false), 1, 1),
            (u(false, true, false), 2, 2),
            (u(true, true, false), 2, 3),
            (u(true, true, true), 9, 3 | 1 << 8),
            (u(false, false, true), 9, 1 << 8),
        ];
        for (uses, z_format, control) in cases {
            assert_eq!(uses.z_format(), z_format, "{uses:?}");
            assert_eq!(uses.db_shader_control(), control, "{uses:?}");
        }
    }

    #[test]
    fn scratch_adds_the_ring_address_after_each_stages_user_sgprs() {
        let vs = VsMetadata::new(4, 12, vec![], VsExtras::default()).with_scratch(48);
        assert_eq!(vs.rsrc2 & 1, 1, "SCRATCH_EN");
        assert_eq!(vs.rsrc2 >> 1 & 0x1f, 12, "USER_SGPR: s[0:9] and the ring in s[10:11]");
        let u = vs.user_sgprs();
        assert_eq!(
            (u.scratch_ring(), u.scratch_wave_offset(), u.initialised()),
            (Some(10), Some(12), 13)
        );
        let key = PsKey::default();
        let ps = PsMetadata::new(3, 9, PsUses::default(), vec![], [0xf, 0, 0, 0, 0, 0, 0, 0], &key)
            .with_scratch(100);
        assert_eq!(ps.rsrc2 & 0x3f, 1 | 7 << 1, "SCRATCH_EN, USER_SGPR = 7");
        let u = ps.user_sgprs();
        assert_eq!(
            (u.scratch_ring(), u.prim_mask(), u.scratch_wave_offset()),
            (Some(5), 7, Some(8))
        );
        let plain = GfxSgprs { pixel: true, scratch: false };
        assert_eq!(
            (plain.prim_mask(), plain.scratch_wave_offset(), plain.initialised()),
            (5, None, 6)
        );
        // 100 bytes x 32 lanes = 3200 -> four 1 KiB granules per wave, 128 slots.
        assert_eq!(gfx_tmpring_size([48, 100]), (128 | 4 << 12, 128 * 4096));
        assert_eq!(gfx_tmpring_size([0, 0]), (0, 0));
    }
}
