//! color.vert's triangle in window coordinates, and which pixel centres lie clearly inside
//! or outside it (for expectations that hold away from the edges).

use super::draw::{H, W};

/// color.vert's triangle in window coordinates (viewport 0, 0, W, H; w cancels).
pub fn window() -> [[f64; 2]; 3] {
    [[-0.8, -0.8], [0.9, -0.6], [-0.5, 0.9]]
        .map(|[x, y]: [f64; 2]| [(x + 1.0) * W as f64 / 2.0, (y + 1.0) * H as f64 / 2.0])
}

pub fn cross(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// Pixel centres clearly inside (more than 1/64 pixel from every edge) or outside: `Some(true)`
/// / `Some(false)`; `None` near an edge.
pub fn inside(x: u32, y: u32) -> Option<bool> {
    let w = window();
    let p = [x as f64 + 0.5, y as f64 + 0.5];
    let mut all = true;
    for (a, b) in [(w[1], w[2]), (w[2], w[0]), (w[0], w[1])] {
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let e = cross(a, b, p) / len;
        if e.abs() < 1.0 / 64.0 {
            return None;
        }
        all &= e > 0.0;
    }
    Some(all)
}

/// Pixels clearly inside whose 2x2 quad has a pixel clearly outside (helper lanes).
pub fn on_an_edge_quad(x: u32, y: u32) -> bool {
    let (qx, qy) = (x & !1, y & !1);
    (0..4).any(|i| inside(qx + (i & 1), qy + (i >> 1)) == Some(false))
}
