//! Scan conversion: snapped vertices, edge functions in fixed point, the top-left fill rule,
//! scissors and MSAA sample coverage, producing 2x2 quads.
//!
//! Vertices are snapped to the sub-pixel grid PA_SU_VTX_CNTL.QUANT_MODE selects (1/256 pixel
//! for the 16.8 mode the driver programs) with its ROUND_MODE. Edge functions are evaluated
//! exactly in integers of 1/4096 pixel (the finest grid any QUANT_MODE has), so every sample is
//! classified without rounding error: a sample on an edge belongs to the triangle only when the
//! edge is a top edge (horizontal, the triangle below it) or a left edge (y decreasing along the
//! clockwise edge direction) — the D3D/Vulkan top-left rule the hardware implements. Two
//! triangles sharing an edge therefore never both cover a sample on it, and never both miss it.
//!
//! The per-row loop steps edge values by constant increments over a fixed 4-sample group so
//! the host compiler can vectorise it.

/// Fixed-point unit of every position here: 1/4096 pixel.
pub const FRAC_BITS: u32 = 12;
const ONE: i64 = 1 << FRAC_BITS;

/// PA_SU_VTX_CNTL.ROUND_MODE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    Truncate,
    Nearest,
    NearestEven,
    NearestOdd,
}

/// An axis-aligned rectangle of pixels, `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    pub fn intersect(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
}

/// The rasterizer's state, decoded from PA_SU_VTX_CNTL, PA_SC_AA_*, PA_SC_*_SCISSOR_*.
#[derive(Debug, Clone)]
pub struct RasterState {
    /// Sub-pixel bits of the snapping grid (4 = 1/16 .. 12 = 1/4096; 0 = whole pixels).
    pub snap_bits: u32,
    pub round: Round,
    /// PIX_CENTER = 1: pixel centres at half-integers (OpenGL/Vulkan); 0: at integers.
    pub half_pixel_center: bool,
    /// Samples per pixel (1, 2, 4, 8 or 16).
    pub samples: u32,
    /// Sample offsets from the pixel centre in 1/16 pixel, per pixel of the 2x2 pattern
    /// (X0Y0, X1Y0, X0Y1, X1Y1) and sample.
    pub sample_locs: [[(i8, i8); 16]; 4],
    /// PA_SC_AA_MASK per pixel of the 2x2 pattern.
    pub aa_mask: [u16; 4],
    /// Sample indices by increasing distance from the centre (PA_SC_CENTROID_PRIORITY_*).
    pub centroid_priority: [u8; 16],
    /// Intersection of the screen, window and generic scissors, in pixels.
    pub scissor: Rect,
    /// PA_SC_VPORT_SCISSOR_n per viewport when PA_SC_MODE_CNTL_0.VPORT_SCISSOR_ENABLE.
    pub vport_scissors: Option<[Rect; 16]>,
}

impl RasterState {
    /// Single-sample state with the driver's usual snapping and a scissor.
    pub fn single_sample(scissor: Rect) -> RasterState {
        RasterState {
            snap_bits: 8,
            round: Round::NearestEven,
            half_pixel_center: true,
            samples: 1,
            sample_locs: [[(0, 0); 16]; 4],
            aa_mask: [0xffff; 4],
            centroid_priority: core::array::from_fn(|i| i as u8),
            scissor,
            vport_scissors: None,
        }
    }

    /// Snaps a window coordinate to the sub-pixel grid, in units of 1/4096 pixel.
    pub fn snap(&self, v: f32) -> i64 {
        let scaled = v as f64 * (1u64 << self.snap_bits) as f64;
        let q = match self.round {
            Round::Truncate => scaled.trunc(),
            Round::Nearest => scaled.round(),
            Round::NearestEven => scaled.round_ties_even(),
            Round::NearestOdd => {
                let f = scaled.floor();
                if scaled - f == 0.5 {
                    if f as i64 % 2 != 0 {
                        f
                    } else {
                        f + 1.0
                    }
                } else {
                    scaled.round()
                }
            }
        };
        // Clamp to +-2^17 pixels, far outside any surface (clipping keeps real vertices well
        // inside), so that edge products stay within i64 whatever the front end hands over.
        let limit = (1i64 << (17 + self.snap_bits)) as f64;
        let q = q.clamp(-limit, limit) as i64;
        q << (FRAC_BITS - self.snap_bits)
    }

    /// Offset of sample `s` of pixel (x, y) from the pixel's corner, in 1/4096 pixel.
    pub fn sample_offset(&self, x: i32, y: i32, s: u32) -> (i64, i64) {
        let center = if self.half_pixel_center { ONE / 2 } else { 0 };
        if self.samples <= 1 {
            return (center, center);
        }
        let (dx, dy) = self.sample_locs[pattern_index(x, y)][s as usize];
        (center + dx as i64 * (ONE / 16), center + dy as i64 * (ONE / 16))
    }

    fn sample_mask(&self) -> u16 {
        if self.samples >= 16 {
            0xffff
        } else {
            (1u16 << self.samples.max(1)) - 1
        }
    }
}

/// Which of the four sample-location patterns pixel (x, y) uses.
pub fn pattern_index(x: i32, y: i32) -> usize {
    ((x & 1) | (y & 1) << 1) as usize
}

/// A triangle in window coordinates (after viewport transform and window offset).
#[derive(Debug, Clone, Copy)]
pub struct Triangle {
    pub pos: [[f32; 2]; 3],
}

/// One snapped triangle, ready for coverage tests.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// Snapped vertex positions in 1/4096 pixel.
    pub v: [[i64; 2]; 3],
    /// Twice the signed area in (1/4096 px)^2 (never 0 for a setup that exists).
    pub area: i64,
    /// Edge i runs from vertex i to vertex (i+1)%3 in the orientation with positive area;
    /// `a`, `b`: E(x, y) = a * (x - vx) + b * (y - vy); `bias` is 0 for top-left edges and
    /// -1 otherwise (a sample is inside when E + bias >= 0 for all three edges).
    edges: [Edge; 3],
    /// Pixels the triangle may touch, already clipped to the scissor.
    pub bbox: Rect,
    /// Whether vertices 1 and 2 were swapped to make the area positive.
    swapped: bool,
}

#[derive(Debug, Clone, Copy)]
struct Edge {
    a: i64,
    b: i64,
    /// Constant term including the fill-rule bias.
    c: i64,
    bias: i64,
}

impl Edge {
    /// E(p) + bias at a point in 1/4096 pixel.
    fn at(&self, x: i64, y: i64) -> i64 {
        self.a * x + self.b * y + self.c
    }
}

impl Setup {
    /// Snaps and sets up a triangle; `None` when it is degenerate (zero area after snapping)
    /// or entirely outside the scissor.
    pub fn new(tri: &Triangle, st: &RasterState, viewport: usize) -> Option<Setup> {
        let mut v = tri.pos.map(|[x, y]| [st.snap(x), st.snap(y)]);
        let area = cross(v[0], v[1], v[2]);
        if area == 0 {
            return None;
        }
        let swapped = area < 0;
        if swapped {
            v.swap(1, 2);
        }
        let area = area.abs();
        let edges = core::array::from_fn(|i| {
            let (p, q) = (v[i], v[(i + 1) % 3]);
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            // Interior is where (q - p) x (s - p) > 0 (y down, clockwise on screen).
            let top_left = (dy == 0 && dx > 0) || dy < 0;
            let bias = if top_left { 0 } else { -1 };
            Edge { a: -dy, b: dx, c: dy * p[0] - dx * p[1] + bias, bias }
        });
        let min = |k: usize| v.iter().map(|p| p[k]).min().unwrap_or(0);
        let max = |k: usize| v.iter().map(|p| p[k]).max().unwrap_or(0);
        let bound = Rect {
            x0: (min(0) >> FRAC_BITS) as i32 - 1,
            y0: (min(1) >> FRAC_BITS) as i32 - 1,
            x1: (max(0) >> FRAC_BITS) as i32 + 2,
            y1: (max(1) >> FRAC_BITS) as i32 + 2,
        };
        let mut bbox = bound.intersect(st.scissor);
        if let Some(v) = &st.vport_scissors {
            bbox = bbox.intersect(v[viewport.min(15)]);
        }
        if bbox.is_empty() {
            return None;
        }
        Some(Setup { v, area, edges, bbox, swapped })
    }

    /// The unbiased edge values at a point in 1/4096 pixel, as weights of the triangle's
    /// vertices in their original order (numerators of the screen-space barycentrics; they
    /// sum to `area`).
    pub fn weights(&self, x: i64, y: i64) -> [i64; 3] {
        // Edge i (vertex i to i+1) is opposite vertex (i + 2) % 3.
        let e = |i: usize| self.edges[i].at(x, y) - self.edges[i].bias;
        let w = [e(1), e(2), e(0)];
        if self.swapped {
            [w[0], w[2], w[1]]
        } else {
            w
        }
    }

    /// Sample coverage of pixel (x, y): bit s set when sample s is inside.
    pub fn pixel_coverage(&self, x: i32, y: i32, st: &RasterState) -> u16 {
        let mut mask = 0u16;
        for s in 0..st.samples.max(1) {
            let (ox, oy) = st.sample_offset(x, y, s);
            let (px, py) = ((x as i64) * ONE + ox, (y as i64) * ONE + oy);
            if self.edges.iter().all(|e| e.at(px, py) >= 0) {
                mask |= 1 << s;
            }
        }
        mask & st.aa_mask[pattern_index(x, y)] & st.sample_mask()
    }
}

fn cross(a: [i64; 2], b: [i64; 2], c: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// A 2x2 block of pixels with at least one covered sample. Pixels are numbered
/// (x, y), (x+1, y), (x, y+1), (x+1, y+1), as the lanes of a quad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quad {
    /// Top-left pixel (both even).
    pub x: i32,
    pub y: i32,
    /// Covered samples per pixel (0 for a helper pixel or one outside the scissor).
    pub coverage: [u16; 4],
}

/// Calls `out` with every quad of the triangle that covers at least one sample, in rows of
/// quads from top to bottom, left to right.
pub fn scan(setup: &Setup, st: &RasterState, mut out: impl FnMut(Quad)) {
    let b = setup.bbox;
    let (qx0, qy0) = (b.x0 & !1, b.y0 & !1);
    if st.samples <= 1 {
        return scan_single(setup, st, qx0, qy0, out);
    }
    let mut qy = qy0;
    while qy < b.y1 {
        let mut qx = qx0;
        while qx < b.x1 {
            let mut coverage = [0u16; 4];
            for (i, c) in coverage.iter_mut().enumerate() {
                let (x, y) = (qx + (i as i32 & 1), qy + (i as i32 >> 1));
                if x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1 {
                    *c = setup.pixel_coverage(x, y, st);
                }
            }
            if coverage.iter().any(|&c| c != 0) {
                out(Quad { x: qx, y: qy, coverage });
            }
            qx += 2;
        }
        qy += 2;
    }
}

/// Single-sample scan: edge values stepped incrementally along each row of quads.
fn scan_single(setup: &Setup, st: &RasterState, qx0: i32, qy0: i32, mut out: impl FnMut(Quad)) {
    let b = setup.bbox;
    let (ox, oy) = st.sample_offset(0, 0, 0);
    let enabled = |i: usize| st.aa_mask[i] & 1 != 0;
    let mask: [bool; 4] = core::array::from_fn(enabled);
    let mut qy = qy0;
    while qy < b.y1 {
        // Edge values at the first quad's four pixel centres of this row, and per-quad steps.
        let mut e = [[0i64; 4]; 3];
        let mut step = [0i64; 3];
        for (k, ed) in setup.edges.iter().enumerate() {
            for (i, ev) in e[k].iter_mut().enumerate() {
                let px = (qx0 + (i as i32 & 1)) as i64 * ONE + ox;
                let py = (qy + (i as i32 >> 1)) as i64 * ONE + oy;
                *ev = ed.at(px, py);
            }
            step[k] = ed.a * 2 * ONE;
        }
        let mut qx = qx0;
        while qx < b.x1 {
            let mut coverage = [0u16; 4];
            for (i, c) in coverage.iter_mut().enumerate() {
                let inside = e[0][i] >= 0 && e[1][i] >= 0 && e[2][i] >= 0;
                let (x, y) = (qx + (i as i32 & 1), qy + (i as i32 >> 1));
                let in_box = x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
                *c = (inside && in_box && mask[pattern_index(x, y)]) as u16;
            }
            if coverage != [0; 4] {
                out(Quad { x: qx, y: qy, coverage });
            }
            for k in 0..3 {
                for ev in e[k].iter_mut() {
                    *ev += step[k];
                }
            }
            qx += 2;
        }
        qy += 2;
    }
}
