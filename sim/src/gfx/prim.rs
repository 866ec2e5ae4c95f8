//! The meeting point of the graphics front end and back end: primitives after clipping and the
//! viewport transform, as the hardware's setup unit hands them to scan conversion, and the
//! trait the back end implements.
//!
//! Everything here is a hardware concept. The front end (VS waves, primitive assembly,
//! clipping, culling, viewport) produces a [`PrimBatch`]; the back end (scan conversion, PS
//! waves, interpolation, depth/stencil, colour) consumes it together with the register file,
//! which decides everything else (PA_SC scissors and MSAA, SPI_PS_* inputs, DB_*, CB_*).
//!
//! Attribute data is what the parameter cache holds: for each vertex, the VS's exported
//! PARAM slots in export order (`exp param0..N`, N + 1 = SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1),
//! four raw dwords per slot. The dwords are kept as bits (`u32`), not `f32`, because flat
//! integer attributes must reach the PS unchanged; [`SetupVertex::param_f32`] reads a float.
//! Slots the VS never exported hold 0.

use crate::cp::{Env, RegisterFile};
use crate::error::GpuError;

/// The primitive class scan conversion sees (PA_SU/PA_SC rasterise each differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimKind {
    /// One vertex; a square of side [`SetupPrim::point_size`] pixels centred on it.
    Point,
    /// Two vertices; width [`SetupPrim::line_width`] pixels.
    Line,
    /// Three vertices.
    Triangle,
}

impl PrimKind {
    /// Vertices used in [`SetupPrim::v`].
    pub const fn vertex_count(self) -> usize {
        match self {
            PrimKind::Point => 1,
            PrimKind::Line => 2,
            PrimKind::Triangle => 3,
        }
    }
}

/// A vertex in window coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupVertex {
    /// Window x and y in pixels (after PA_CL_VPORT_XSCALE/XOFFSET.., before sub-pixel
    /// snapping, which belongs to scan conversion) and window z (after
    /// PA_CL_VPORT_ZSCALE/ZOFFSET; the PA_SC_VPORT_ZMIN/ZMAX clamp is the depth unit's).
    pub x: f32,
    pub y: f32,
    pub z: f32,
    /// 1 / clip-space w (1.0 when PA_CL_VTE_CNTL.VTX_W0_FMT says w was not divided).
    pub inv_w: f32,
    /// Parameter-cache contents of this vertex: one `[u32; 4]` per exported PARAM slot.
    pub params: Vec<[u32; 4]>,
}

impl SetupVertex {
    /// Component `c` of parameter slot `slot` as a float (0.0 for a slot never exported).
    pub fn param_f32(&self, slot: usize, c: usize) -> f32 {
        self.params.get(slot).map_or(0.0, |p| f32::from_bits(p[c & 3]))
    }
}

/// One primitive ready for scan conversion.
///
/// Vertices of triangles keep the order the API gave them (after clipping, fan order around
/// the clipped polygon starting at its first vertex); `front_facing` is already resolved from
/// PA_SU_SC_MODE_CNTL.FACE and the window-space winding, and back/front culling has happened.
/// For polygon modes (PA_SU_SC_MODE_CNTL.POLY_MODE) the front end emits the resulting lines or
/// points here, with `front_facing` of the triangle they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupPrim {
    pub kind: PrimKind,
    /// `kind.vertex_count()` vertices.
    pub v: Vec<SetupVertex>,
    /// Index into `v` of the provoking vertex (PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST) of an
    /// unclipped primitive; 0 for primitives cut out of a clipped polygon and for the edges
    /// and points of polygon modes. Flat shading must read [`SetupPrim::flat_params`].
    pub provoking: usize,
    /// The provoking vertex's parameter slots as the VS exported them (clipping never
    /// changes these): flat-shaded PS inputs read here, not from `v`.
    pub flat_params: Vec<[u32; 4]>,
    pub front_facing: bool,
    /// Points: diameter in pixels (the VS's point-size export when
    /// PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE, else PA_SU_POINT_SIZE, clamped to
    /// PA_SU_POINT_MINMAX). 0 for other kinds.
    pub point_size: f32,
    /// Lines: width in pixels (PA_SU_LINE_CNTL.WIDTH / 8). 0 for other kinds.
    pub line_width: f32,
    /// Lines: whether this segment starts a new strip (PA_SC_LINE_STIPPLE resets there).
    pub line_strip_start: bool,
    /// The primitive id the PS may read (index of the input primitive within the instance).
    pub prim_id: u32,
    /// The instance the primitive belongs to.
    pub instance: u32,
    /// The viewport it was transformed by (0, or the provoking vertex's index when
    /// PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX): selects PA_SC_VPORT_SCISSOR_n and
    /// PA_SC_VPORT_ZMIN/ZMAX_n.
    pub viewport: u32,
    /// The render-target array layer (the provoking vertex's when
    /// PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX, else 0).
    pub layer: u32,
    /// Points and lines drawn for a polygon mode (PA_SU_SC_MODE_CNTL.POLY_MODE): the window
    /// positions (x, y, z, 1/w) of the polygon they come from, whose plane gives their
    /// polygon offset. `None` for triangles and for point and line primitives.
    pub polygon: Option<Vec<[f32; 4]>>,
}

/// The primitives one draw produced, in rasterisation order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PrimBatch {
    /// Parameter slots per vertex (SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1).
    pub param_slots: usize,
    pub prims: Vec<SetupPrim>,
}

/// Counters the back end returns for the command processor's queries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackEndCounts {
    /// Samples that passed depth and stencil (ZPASS_DONE / occlusion queries), when
    /// DB_COUNT_CONTROL enables counting.
    pub zpass_samples: u64,
    /// PS invocations (pipeline statistics PS_INVOCATIONS).
    pub ps_invocations: u64,
    /// Primitives that reached scan conversion (C_PRIMITIVES).
    pub c_primitives: u64,
}

/// Scan conversion and everything after it. The front end calls this once per draw (and per
/// instance batch, in order); the back end reads every remaining piece of state from `regs` and
/// GPU memory through `env` (shader programs, surfaces), and reports faults as [`GpuError`]s
/// exactly as compute does (VM faults, strict-mode errors, the watchdog).
pub trait Rasterizer: Send {
    fn rasterize(
        &mut self,
        batch: &PrimBatch,
        regs: &RegisterFile,
        env: &Env<'_>,
    ) -> Result<BackEndCounts, GpuError>;
}

/// A back end that keeps every primitive it is given, behind a shared handle: the front
/// end's tests install a clone and read the batches.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    pub batches: std::sync::Arc<parking_lot::Mutex<Vec<PrimBatch>>>,
}

impl Rasterizer for Capture {
    fn rasterize(
        &mut self,
        batch: &PrimBatch,
        _regs: &RegisterFile,
        _env: &Env<'_>,
    ) -> Result<BackEndCounts, GpuError> {
        self.batches.lock().push(batch.clone());
        Ok(BackEndCounts { c_primitives: batch.prims.len() as u64, ..Default::default() })
    }
}

/// The back end of a device without scan conversion: primitives reach it and are counted;
/// nothing is drawn.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBackEnd;

impl Rasterizer for NoBackEnd {
    fn rasterize(
        &mut self,
        batch: &PrimBatch,
        _regs: &RegisterFile,
        _env: &Env<'_>,
    ) -> Result<BackEndCounts, GpuError> {
        Ok(BackEndCounts { c_primitives: batch.prims.len() as u64, ..Default::default() })
    }
}
