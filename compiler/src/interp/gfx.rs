//! Vertex and fragment stages in the interpreter.
//!
//! A vertex invocation reads its attributes as the shader's input loads see them (already
//! converted from the vertex buffer's format, one 32-bit value per component of a location)
//! and its built-ins, and returns what it stored per output slot and component. A fragment
//! invocation runs in a 2x2 quad (lane bit 0 is +x, bit 1 is +y, as derivatives expect) of a
//! triangle the caller describes in window coordinates; its inputs are interpolated from the
//! triangle's per-vertex outputs by Vulkan's rules ("Basic Polygon Rasterization", "Interpolation
//! Decorations") in double precision and rounded to `f32`. Lanes that cover no sample are
//! helper invocations: they run (their values feed derivatives) but write no memory, and their
//! outputs mean nothing. Lanes run in turn until they meet at a cross-lane operation, exactly
//! as a compute workgroup's invocations do (see the module documentation).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::exec::{Invocation, VarLayout};
use super::{InterpError, Resources};
use crate::ir::{IoSlot, Shader, Stage, SysVal};

/// Written outputs: (slot, component) → the 32-bit value.
pub type Outputs = BTreeMap<(IoSlot, u8), u64>;

/// One vertex invocation's inputs.
#[derive(Clone, Debug, Default)]
pub struct VertexLane {
    /// Attribute components (location, component) → value bits; missing ones read 0.
    pub attributes: BTreeMap<(u32, u8), u64>,
    /// gl_VertexIndex.
    pub vertex_index: u32,
    /// gl_InstanceIndex.
    pub instance_index: u32,
    /// gl_BaseVertex.
    pub base_vertex: u32,
    /// gl_BaseInstance.
    pub base_instance: u32,
    /// gl_DrawIndex.
    pub draw_index: u32,
    /// gl_ViewIndex.
    pub view_index: u32,
}

/// The primitive a fragment quad belongs to.
#[derive(Clone, Debug, Default)]
pub struct Triangle {
    /// Window coordinates (x, y, z) of the three vertices (all equal for a point).
    pub window: [[f64; 3]; 3],
    /// Clip-space w of each vertex.
    pub w: [f64; 3],
    /// Each vertex's outputs (the vertex stage's results); vertex 0 is the provoking vertex.
    pub vertices: [Outputs; 3],
    /// gl_FrontFacing.
    pub front_facing: bool,
    /// Rasterization samples: 1, 2, 4 or 8 (the standard sample locations).
    pub samples: u32,
    /// gl_ViewIndex.
    pub view_index: u32,
    /// A point sprite: its centre (window x, y) and size in pixels. Its inputs are vertex 0's
    /// values and gl_PointCoord is `0.5 + (p - centre) / size`.
    pub point: Option<([f64; 2], f64)>,
}

/// One 2x2 quad of fragment invocations.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quad {
    /// Pixel of lane 0; lane `i` is at (x + (i & 1), y + (i >> 1)).
    pub x: u32,
    /// See `x`.
    pub y: u32,
    /// Samples of each lane's pixel the primitive covers (0: a helper lane).
    pub coverage: [u32; 4],
    /// Per-sample shading: the sample the invocations shade.
    pub sample: Option<u32>,
}

/// What one fragment invocation produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    /// Written outputs (colour locations, FragDepth, SampleMask).
    pub outputs: Outputs,
    /// It ended with `OpKill`/`OpTerminateInvocation`.
    pub killed: bool,
    /// It was (or became, by demotion) a helper invocation: its outputs are discarded.
    pub helper: bool,
}

impl Fragment {
    /// Whether the fragment's outputs reach the framebuffer.
    pub fn live(&self) -> bool {
        !self.killed && !self.helper
    }
}

/// Where a lane's inputs come from.
#[derive(Clone, Debug)]
pub(super) enum Inputs {
    Vertex(BTreeMap<(u32, u8), u64>),
    /// The quad's primitive and this lane's index in the quad.
    Fragment(Rc<(Triangle, Quad)>, u8),
}

/// A graphics invocation's inputs and outputs.
#[derive(Clone, Debug)]
pub struct LaneIo {
    pub(super) inputs: Inputs,
    pub(super) outputs: Outputs,
    pub(super) helper: bool,
    pub(super) killed: bool,
    /// The coordinate derivatives of the implicit-LOD image instruction the lane waits at.
    pub(super) grad: Option<(Vec<u64>, Vec<u64>)>,
}

impl LaneIo {
    /// Whether `i` is an image instruction that takes its level of detail from the quad's
    /// coordinate derivatives and has not been given them yet.
    pub(super) fn waits_for_quad(&self, i: &crate::ir::ImageInst) -> bool {
        use crate::ir::{ImageArgs, ImageOp};
        matches!(self.inputs, Inputs::Fragment(..))
            && self.grad.is_none()
            && matches!(i.op, ImageOp::Sample | ImageOp::QueryLod)
            && !i.args.has(ImageArgs::LOD)
            && !i.args.has(ImageArgs::GRAD)
    }
}

/// Gives the lanes waiting together at implicit-LOD image instruction `inst` their coarse
/// coordinate derivatives (d/dx from the quad's top row, d/dy from its left column, as the
/// hardware's sampler takes them); they then execute it.
pub(super) fn implicit_lod(
    inst: &crate::ir::ImageInst,
    f: &crate::ir::Function,
    invs: &mut [Invocation],
    group: &[usize],
) -> Result<(), InterpError> {
    let coord = inst.sources().coord.ok_or_else(|| InterpError::Invalid("no coordinate".into()))?;
    let (bits, comps) = f.ty(coord).shape();
    let lanes = group
        .iter()
        .map(|&i| {
            let srcs = vec![invs[i].components(coord)?];
            Ok(super::subgroup::Lane { id: invs[i].lane_id(), srcs })
        })
        .collect::<Result<Vec<_>, InterpError>>()?;
    let d = |y| {
        let op = crate::ir::SubgroupOp::Derivative { y, fine: false };
        super::subgroup::eval(op, bits, usize::from(comps), &lanes)
    };
    let (ddx, ddy) = (d(false)?, d(true)?);
    for ((&i, dx), dy) in group.iter().zip(ddx).zip(ddy) {
        if let Some(io) = invs[i].io.as_mut() {
            io.grad = Some((dx, dy));
        }
    }
    Ok(())
}

/// The values of the vertex and fragment built-ins of one invocation.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GfxSys {
    stage: Option<Stage>,
    /// VertexIndex, InstanceIndex, BaseVertex, BaseInstance, DrawIndex.
    vertex: [u32; 5],
    view_index: u32,
    frag_coord: [f32; 4],
    front_facing: bool,
    sample_id: u32,
    sample_pos: [f32; 2],
    sample_mask: u32,
}

impl GfxSys {
    pub(super) fn get(&self, sv: SysVal) -> Option<Vec<u64>> {
        let f = |x: f32| u64::from(x.to_bits());
        let vertex = self.stage == Some(Stage::Vertex);
        let fragment = self.stage == Some(Stage::Fragment);
        let v = |i: usize| vertex.then(|| vec![u64::from(self.vertex[i])]);
        match sv {
            SysVal::VertexIndex => v(0),
            SysVal::InstanceIndex => v(1),
            SysVal::BaseVertex => v(2),
            SysVal::BaseInstance => v(3),
            SysVal::DrawIndex => v(4),
            SysVal::ViewIndex if vertex || fragment => Some(vec![u64::from(self.view_index)]),
            _ if !fragment => None,
            SysVal::FragCoord => Some(self.frag_coord.iter().map(|&x| f(x)).collect()),
            SysVal::FrontFacing => Some(vec![u64::from(self.front_facing)]),
            SysVal::SampleId => Some(vec![u64::from(self.sample_id)]),
            SysVal::SamplePosition => Some(self.sample_pos.iter().map(|&x| f(x)).collect()),
            SysVal::SampleMaskIn => Some(vec![u64::from(self.sample_mask)]),
            _ => None,
        }
    }
}

/// Vulkan's standard sample locations ("Multisampling", table of standard sample locations)
/// for `n` samples, in pixel units from the pixel's top-left corner.
pub fn sample_locations(n: u32) -> Result<&'static [[f64; 2]], InterpError> {
    Ok(match n {
        1 => &[[0.5, 0.5]],
        2 => &[[0.75, 0.75], [0.25, 0.25]],
        4 => &[[0.375, 0.125], [0.875, 0.375], [0.125, 0.625], [0.625, 0.875]],
        8 => &[
            [0.5625, 0.3125],
            [0.4375, 0.6875],
            [0.8125, 0.5625],
            [0.3125, 0.1875],
            [0.1875, 0.8125],
            [0.0625, 0.4375],
            [0.6875, 0.9375],
            [0.9375, 0.0625],
        ],
        n => return Err(InterpError::Unsupported(format!("{n} rasterization samples"))),
    })
}

/// Runs `lanes.len()` vertex invocations (waves of 32 consecutive lanes); returns each one's
/// outputs.
pub fn run_vertex(
    s: &Shader,
    lanes: &[VertexLane],
    res: &mut Resources,
) -> Result<Vec<Outputs>, InterpError> {
    if s.stage != Stage::Vertex {
        return Err(InterpError::Invalid(format!("{:?} shader run as a vertex shader", s.stage)));
    }
    let layout = VarLayout::new(s);
    let mut invs = Vec::new();
    for (i, l) in lanes.iter().enumerate() {
        let sys = GfxSys {
            stage: Some(Stage::Vertex),
            vertex: [
                l.vertex_index,
                l.instance_index,
                l.base_vertex,
                l.base_instance,
                l.draw_index,
            ],
            view_index: l.view_index,
            ..Default::default()
        };
        let io = LaneIo {
            inputs: Inputs::Vertex(l.attributes.clone()),
            outputs: Outputs::new(),
            helper: false,
            killed: false,
            grad: None,
        };
        invs.push(Invocation::graphics(s, &layout, i as u32, sys, io)?);
    }
    run_lanes(s, &layout, &mut invs, res)?;
    Ok(invs.into_iter().map(|i| i.io.map(|io| io.outputs).unwrap_or_default()).collect())
}

/// Runs one quad of fragment invocations of `tri`; returns the four lanes' results.
pub fn run_fragment(
    s: &Shader,
    tri: &Triangle,
    quad: &Quad,
    res: &mut Resources,
) -> Result<[Fragment; 4], InterpError> {
    if s.stage != Stage::Fragment {
        return Err(InterpError::Invalid(format!("{:?} shader run as a fragment shader", s.stage)));
    }
    let locs = sample_locations(tri.samples)?;
    let layout = VarLayout::new(s);
    let shared = Rc::new((tri.clone(), *quad));
    let mut invs = Vec::new();
    for lane in 0..4u8 {
        let px =
            [f64::from(quad.x + u32::from(lane & 1)), f64::from(quad.y + u32::from(lane >> 1))];
        let sample = quad.sample.unwrap_or(0);
        let pos = *locs.get(sample as usize).ok_or_else(|| {
            InterpError::Invalid(format!("sample {sample} of {} samples", tri.samples))
        })?;
        let at = if quad.sample.is_some() { pos } else { [0.5, 0.5] };
        let p = [px[0] + at[0], px[1] + at[1]];
        let b = super::gfx_io::barycentrics(tri, p)?;
        let z: f64 = (0..3).map(|i| b[i] * tri.window[i][2]).sum();
        let inv_w: f64 = (0..3).map(|i| b[i] / tri.w[i]).sum();
        let cov = quad.coverage[usize::from(lane)];
        let mask = quad.sample.map_or(cov, |k| cov & 1u32.checked_shl(k).unwrap_or(0));
        let sys = GfxSys {
            stage: Some(Stage::Fragment),
            view_index: tri.view_index,
            frag_coord: [p[0] as f32, p[1] as f32, z as f32, inv_w as f32],
            front_facing: tri.front_facing,
            sample_id: sample,
            sample_pos: [pos[0] as f32, pos[1] as f32],
            sample_mask: mask,
            ..Default::default()
        };
        let io = LaneIo {
            inputs: Inputs::Fragment(shared.clone(), lane),
            outputs: Outputs::new(),
            helper: mask == 0,
            killed: false,
            grad: None,
        };
        invs.push(Invocation::graphics(s, &layout, u32::from(lane), sys, io)?);
    }
    run_lanes(s, &layout, &mut invs, res)?;
    let out: Vec<Fragment> = invs
        .into_iter()
        .map(|i| {
            i.io.map(|io| Fragment { outputs: io.outputs, killed: io.killed, helper: io.helper })
                .unwrap_or_default()
        })
        .collect();
    out.try_into().map_err(|_| InterpError::Invalid("quad of other than 4 lanes".into()))
}

fn run_lanes(
    s: &Shader,
    layout: &VarLayout,
    invs: &mut [Invocation],
    res: &mut Resources,
) -> Result<(), InterpError> {
    let mut shared = vec![0u8; layout.shared_size.max(s.shared_size) as usize];
    let mut steps = 0u64;
    super::run_workgroup(s, layout, invs, &mut shared, res, &mut steps)
}
