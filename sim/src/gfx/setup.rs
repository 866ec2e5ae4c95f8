//! Setup: from clip-space vertices to [`SetupPrim`]s. Clipping and culling by distance (see
//! [`super::clip`]), the divide by w (PA_CL_VTE_CNTL.VTX_XY_FMT/VTX_Z_FMT/VTX_W0_FMT), the
//! viewport transform (PA_CL_VPORT_*, per-vertex viewport index when
//! PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX), face determination and culling
//! (PA_SU_SC_MODE_CNTL.FACE/CULL_FRONT/CULL_BACK), polygon modes (POLY_MODE with
//! POLYMODE_FRONT/BACK_PTYPE), point size (USE_VTX_POINT_SIZE, PA_SU_POINT_SIZE/MINMAX) and
//! line width (PA_SU_LINE_CNTL).

use ferrum_regs::gfx103::{
    PA_CL_VS_OUT_CNTL as OC, PA_CL_VTE_CNTL as VTE, PA_SU_SC_MODE_CNTL as SU,
};

use super::assemble::{Assembled, Topology};
use super::clip::Clipper;
use super::prim::{PrimKind, SetupPrim, SetupVertex};
use super::state::{PaState, Viewport};
use super::vs::VertexOut;
use crate::error::GpuError;

/// Per-draw setup context.
pub struct Setup<'a> {
    pub pa: &'a PaState,
    pub clip: Clipper,
    pub instance: u32,
}

/// POLYMODE_*_PTYPE values.
const PTYPE_POINTS: u32 = 0;
const PTYPE_LINES: u32 = 1;

impl Setup<'_> {
    /// Window coordinates of a clip-space vertex (after clipping, so w > 0 unless clipping
    /// is disabled).
    fn window(&self, v: &VertexOut, vp: &Viewport) -> SetupVertex {
        let vte = self.pa.vte_cntl;
        let [x, y, z, w] = v.pos;
        let inv = 1.0 / w;
        let (xd, yd) = if VTE::VTX_XY_FMT.is_set(vte) { (x, y) } else { (x * inv, y * inv) };
        let zd = if VTE::VTX_Z_FMT.is_set(vte) { z } else { z * inv };
        SetupVertex {
            x: xd * vp.scale[0] + vp.offset[0],
            y: yd * vp.scale[1] + vp.offset[1],
            z: zd * vp.scale[2] + vp.offset[2],
            inv_w: if VTE::VTX_W0_FMT.is_set(vte) { inv } else { 1.0 },
            params: v.params.clone(),
        }
    }

    /// The misc-vector integer in component `c` of the provoking vertex, when `enable`.
    fn misc_index(&self, provoking: &VertexOut, enable: bool, c: usize) -> u32 {
        if enable {
            provoking.misc[c].to_bits()
        } else {
            0
        }
    }

    fn point_size(&self, v: &VertexOut) -> f32 {
        let size = if OC::USE_VTX_POINT_SIZE.is_set(self.pa.vs_out_cntl) {
            v.misc[0]
        } else {
            self.pa.point_size
        };
        size.max(self.pa.point_min).min(self.pa.point_max)
    }

    fn prim(
        &self,
        kind: PrimKind,
        v: Vec<SetupVertex>,
        pv: &VertexOut,
        a: &Assembled,
    ) -> SetupPrim {
        let oc = self.pa.vs_out_cntl;
        SetupPrim {
            viewport: self.misc_index(pv, OC::USE_VTX_VIEWPORT_INDX.is_set(oc), 3),
            layer: self.misc_index(pv, OC::USE_VTX_RENDER_TARGET_INDX.is_set(oc), 2),
            kind,
            v,
            provoking: 0,
            flat_params: pv.params.clone(),
            front_facing: true,
            point_size: 0.0,
            line_width: 0.0,
            line_strip_start: false,
            prim_id: a.id,
            instance: self.instance,
            polygon: None,
        }
    }

    /// Turns one assembled primitive into zero or more setup primitives.
    pub fn run(
        &self,
        topo: Topology,
        a: &Assembled,
        verts: &[VertexOut],
        out: &mut Vec<SetupPrim>,
    ) -> Result<(), GpuError> {
        let pv = &verts[a.v[a.provoking]];
        let index = self.misc_index(pv, OC::USE_VTX_VIEWPORT_INDX.is_set(self.pa.vs_out_cntl), 3);
        let vp = &self.pa.viewport(index as usize)?;
        match topo.vertices() {
            1 => {
                let v = &verts[a.v[0]];
                if self.clip.point(self.pa, v) {
                    let mut p = self.prim(PrimKind::Point, vec![self.window(v, vp)], pv, a);
                    p.point_size = self.point_size(v);
                    out.push(p);
                }
            }
            2 => {
                let (v0, v1) = (&verts[a.v[0]], &verts[a.v[1]]);
                if let Some([c0, c1]) = self.clip.line(self.pa, v0, v1) {
                    let v = vec![self.window(&c0, vp), self.window(&c1, vp)];
                    let mut p = self.prim(PrimKind::Line, v, pv, a);
                    p.provoking = a.provoking;
                    p.line_width = self.pa.line_width;
                    p.line_strip_start = a.strip_start;
                    out.push(p);
                }
            }
            _ => self.triangle(a, verts, pv, vp, out),
        }
        Ok(())
    }

    fn triangle(
        &self,
        a: &Assembled,
        verts: &[VertexOut],
        pv: &VertexOut,
        vp: &Viewport,
        out: &mut Vec<SetupPrim>,
    ) {
        let tri = [&verts[a.v[0]], &verts[a.v[1]], &verts[a.v[2]]];
        let poly = self.clip.triangle(self.pa, tri);
        if poly.is_empty() {
            return;
        }
        let unclipped = poly.len() == 3 && poly.iter().zip(tri).all(|(p, t)| p.pos == t.pos);
        let win: Vec<SetupVertex> = poly.iter().map(|v| self.window(v, vp)).collect();
        // Vulkan's signed area in framebuffer coordinates (y down): positive is
        // counter-clockwise. FACE = 0: counter-clockwise is front.
        let mut area = 0.0f64;
        for i in 0..win.len() {
            let (p, q) = (&win[i], &win[(i + 1) % win.len()]);
            area += f64::from(p.x) * f64::from(q.y) - f64::from(q.x) * f64::from(p.y);
        }
        let ccw = -area > 0.0;
        let su = self.pa.su_mode;
        let front = ccw != SU::FACE.is_set(su);
        if (front && SU::CULL_FRONT.is_set(su)) || (!front && SU::CULL_BACK.is_set(su)) {
            return;
        }
        let poly_mode = SU::POLY_MODE.get(su) != 0;
        let ptype = if !poly_mode {
            2
        } else if front {
            SU::POLYMODE_FRONT_PTYPE.get(su)
        } else {
            SU::POLYMODE_BACK_PTYPE.get(su)
        };
        let provoking = if unclipped { a.provoking } else { 0 };
        let polygon: Vec<[f32; 4]> = win.iter().map(|v| [v.x, v.y, v.z, v.inv_w]).collect();
        let first = out.len();
        let mut sizes = Vec::new();
        let mut emit = |kind: PrimKind, v: Vec<SetupVertex>, provoking: usize, strip_start| {
            let mut p = self.prim(kind, v, pv, a);
            p.front_facing = front;
            p.provoking = provoking;
            p.line_strip_start = strip_start;
            if kind != PrimKind::Triangle {
                p.polygon = Some(polygon.clone());
            }
            if kind == PrimKind::Line {
                p.line_width = self.pa.line_width;
            }
            out.push(p);
        };
        match ptype {
            PTYPE_POINTS => {
                for (v, clip) in win.iter().zip(&poly) {
                    emit(PrimKind::Point, vec![v.clone()], 0, false);
                    // Each point has its own vertex's size.
                    sizes.push(self.point_size(clip));
                }
            }
            PTYPE_LINES => {
                for i in 0..win.len() {
                    let e = vec![win[i].clone(), win[(i + 1) % win.len()].clone()];
                    emit(PrimKind::Line, e, 0, i == 0);
                }
            }
            _ => {
                // The clipped polygon as a fan around its first vertex.
                for i in 1..win.len() - 1 {
                    let v = vec![win[0].clone(), win[i].clone(), win[i + 1].clone()];
                    emit(PrimKind::Triangle, v, provoking, false);
                }
            }
        }
        for (p, size) in out[first..].iter_mut().zip(sizes) {
            p.point_size = size;
        }
    }
}
