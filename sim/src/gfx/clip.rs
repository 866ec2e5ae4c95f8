//! Clipping and culling in clip space (PA_CL): the view volume with the guard band
//! (PA_CL_GB_*_CLIP_ADJ), near/far z (PA_CL_CLIP_CNTL.DX_CLIP_SPACE_DEF, ZCLIP_*_DISABLE),
//! user clip planes (UCP_ENA_n with PA_CL_UCP_n), the VS's clip and cull distances
//! (PA_CL_VS_OUT_CNTL.CLIP_DIST_ENA_n / CULL_DIST_ENA_n).
//!
//! Primitives entirely inside pass untouched. Others are clipped plane by plane
//! (Sutherland-Hodgman); an intersection is always computed from the inside vertex towards
//! the outside one, so the two triangles sharing an edge get bit-identical new vertices.
//! Positions, distances and parameters are interpolated linearly in clip space, which is
//! perspective-correct once divided by w.

use ferrum_regs::gfx103::PA_CL_CLIP_CNTL as C;

use super::state::PaState;
use super::vs::VertexOut;

/// A plane as a signed distance: inside where `dist(v) >= 0`.
#[derive(Debug, Clone, Copy)]
enum Plane {
    /// `w·k + s·pos[axis]` (s = ±1).
    Band {
        axis: usize,
        sign: f32,
        k: f32,
    },
    /// z ≥ 0 (D3D clip space) or z ≥ −w.
    Near {
        dx: bool,
    },
    Far,
    /// w > 0, so that nothing reaches the divide with w ≤ 0.
    W,
    User([f32; 4]),
    Distance(usize),
}

impl Plane {
    fn dist(self, v: &VertexOut) -> f32 {
        let [x, y, z, w] = v.pos;
        match self {
            Plane::Band { axis, sign, k } => w * k + sign * [x, y][axis],
            Plane::Near { dx: true } => z,
            Plane::Near { dx: false } => z + w,
            Plane::Far => w - z,
            Plane::W => w - f32::MIN_POSITIVE,
            Plane::User(p) => p[0] * x + p[1] * y + p[2] * z + p[3] * w,
            Plane::Distance(i) => v.dist[i],
        }
    }
}

/// The clip planes the registers enable (for triangles and lines; points are only culled).
pub struct Clipper {
    planes: Vec<Plane>,
    /// Planes that only cull points (view volume z and guard-band discard).
    point_planes: Vec<Plane>,
    cull_dist: u32,
}

impl Clipper {
    pub fn new(pa: &PaState) -> Clipper {
        let c = pa.clip_cntl;
        let mut planes = Vec::new();
        let mut point_planes = Vec::new();
        if !C::CLIP_DISABLE.is_set(c) {
            let dx = C::DX_CLIP_SPACE_DEF.is_set(c);
            let mut z = Vec::new();
            if !C::ZCLIP_NEAR_DISABLE.is_set(c) {
                z.push(Plane::Near { dx });
            }
            if !C::ZCLIP_FAR_DISABLE.is_set(c) {
                z.push(Plane::Far);
            }
            for axis in 0..2 {
                for sign in [1.0, -1.0] {
                    planes.push(Plane::Band { axis, sign, k: pa.gb_clip[axis] });
                    point_planes.push(Plane::Band { axis, sign, k: pa.gb_disc[axis] });
                }
            }
            planes.extend(&z);
            point_planes.extend(&z);
            planes.push(Plane::W);
            point_planes.push(Plane::W);
            let cull_only = C::UCP_CULL_ONLY_ENA.is_set(c);
            for (i, ucp) in pa.ucp.iter().enumerate() {
                if c >> i & 1 != 0 && !cull_only {
                    planes.push(Plane::User(*ucp));
                }
            }
            for i in 0..8 {
                if pa.vs_out_cntl >> i & 1 != 0 {
                    planes.push(Plane::Distance(i));
                }
            }
        }
        let mut cull_dist = (pa.vs_out_cntl >> 8) & 0xff;
        if C::UCP_CULL_ONLY_ENA.is_set(c) {
            // Cull-only user planes reject what lies wholly outside, like cull distances.
            cull_dist |= (c & 0x3f) << 8;
        }
        Clipper { planes, point_planes, cull_dist }
    }

    /// Whether the primitive is rejected whole: a NaN position, or every vertex outside the
    /// same cull distance (or cull-only user plane).
    fn culled(&self, pa: &PaState, vs: &[&VertexOut]) -> bool {
        // Clip-error detection: a NaN coordinate discards the primitive.
        if vs.iter().any(|v| v.pos.iter().any(|c| c.is_nan())) {
            return true;
        }
        (0..14).filter(|i| self.cull_dist >> i & 1 != 0).any(|i| {
            vs.iter().all(|v| {
                let d = if i < 8 { v.dist[i] } else { Plane::User(pa.ucp[i - 8]).dist(v) };
                d < 0.0 || d.is_nan()
            })
        })
    }

    /// A point survives if it is inside every point plane and no cull distance rejects it.
    pub fn point(&self, pa: &PaState, v: &VertexOut) -> bool {
        !self.culled(pa, &[v]) && self.point_planes.iter().all(|p| p.dist(v) >= 0.0)
    }

    /// The visible part of a line, or `None`.
    pub fn line(&self, pa: &PaState, a: &VertexOut, b: &VertexOut) -> Option<[VertexOut; 2]> {
        if self.culled(pa, &[a, b]) {
            return None;
        }
        let (mut a, mut b) = (a.clone(), b.clone());
        for &p in &self.planes {
            let (da, db) = (p.dist(&a), p.dist(&b));
            match (da >= 0.0, db >= 0.0) {
                (true, true) => {}
                (false, false) => return None,
                (true, false) => b = intersect(&a, &b, da, db),
                (false, true) => a = intersect(&b, &a, db, da),
            }
        }
        Some([a, b])
    }

    /// The visible part of a triangle as a convex polygon (first vertex first, winding
    /// kept), empty when nothing is visible.
    pub fn triangle(&self, pa: &PaState, tri: [&VertexOut; 3]) -> Vec<VertexOut> {
        if self.culled(pa, &tri) {
            return Vec::new();
        }
        let inside = |v: &VertexOut| self.planes.iter().all(|p| p.dist(v) >= 0.0);
        let mut poly: Vec<VertexOut> = tri.iter().map(|v| (*v).clone()).collect();
        if tri.iter().all(|v| inside(v)) {
            return poly;
        }
        for &p in &self.planes {
            if poly.is_empty() {
                break;
            }
            let d: Vec<f32> = poly.iter().map(|v| p.dist(v)).collect();
            if d.iter().all(|&x| x >= 0.0) {
                continue;
            }
            let mut next = Vec::with_capacity(poly.len() + 1);
            for i in 0..poly.len() {
                let j = (i + 1) % poly.len();
                let (a_in, b_in) = (d[i] >= 0.0, d[j] >= 0.0);
                if a_in {
                    next.push(poly[i].clone());
                }
                match (a_in, b_in) {
                    (true, false) => next.push(intersect(&poly[i], &poly[j], d[i], d[j])),
                    (false, true) => next.push(intersect(&poly[j], &poly[i], d[j], d[i])),
                    _ => {}
                }
            }
            poly = next;
        }
        if poly.len() < 3 {
            poly.clear();
        }
        poly
    }
}

/// The point where the segment from `inside` (distance `di` ≥ 0) to `outside` (`do_` < 0)
/// crosses the plane.
fn intersect(inside: &VertexOut, outside: &VertexOut, di: f32, do_: f32) -> VertexOut {
    let t = di / (di - do_);
    let lerp = |a: f32, b: f32| a + (b - a) * t;
    let lerp4 = |a: [f32; 4], b: [f32; 4]| [0, 1, 2, 3].map(|c| lerp(a[c], b[c]));
    let mut dist = [0f32; 8];
    for (i, d) in dist.iter_mut().enumerate() {
        *d = lerp(inside.dist[i], outside.dist[i]);
    }
    VertexOut {
        pos: lerp4(inside.pos, outside.pos),
        misc: inside.misc,
        dist,
        params: inside
            .params
            .iter()
            .zip(&outside.params)
            .map(|(a, b)| {
                [0, 1, 2, 3].map(|c| lerp(f32::from_bits(a[c]), f32::from_bits(b[c])).to_bits())
            })
            .collect(),
    }
}
