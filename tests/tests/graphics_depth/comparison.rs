//! Ferrum's images against lavapipe's (or the hand-computed depth) within the tolerances the
//! module documentation states.

use super::*;

/// Differences between two images of `W`×`H` values beyond what edge coverage explains.
fn differences<T: Copy + std::fmt::Debug>(
    what: &str,
    ours: &[T],
    lvp: &[T],
    close: impl Fn(T, T) -> bool,
) -> Option<String> {
    let bad: Vec<usize> = (0..ours.len()).filter(|&i| !close(ours[i], lvp[i])).collect();
    let inner = bad
        .iter()
        .filter(|&&i| {
            let (x, y) = ((i as u32 % W) as i32, (i as u32 / W) as i32);
            let near = |dx: i32, dy: i32| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0 && ny >= 0 && nx < W as i32 && ny < H as i32 && {
                    let j = (ny as u32 * W + nx as u32) as usize;
                    close(ours[i], lvp[j]) || close(lvp[i], ours[j])
                }
            };
            !(near(1, 0) || near(-1, 0) || near(0, 1) || near(0, -1))
        })
        .count();
    if bad.len() <= EDGE_SLACK && inner == 0 {
        return None;
    }
    let show: Vec<String> = bad
        .iter()
        .take(6)
        .map(|&i| {
            format!(
                "({}, {}): ferrum {:?} lavapipe {:?}",
                i as u32 % W,
                i as u32 / W,
                ours[i],
                lvp[i]
            )
        })
        .collect();
    Some(format!("  {what}: {} differ ({inner} not at edges): {}", bad.len(), show.join("; ")))
}

/// Applies a final `Step::Bounds` to lavapipe's image on the host.
pub fn host_bounds(s: &Scene, r: &mut Result) {
    let Some(Step::Bounds(lo, hi, z, color)) = s.steps.last() else { return };
    let quantized = if s.format == D16 { (z * 65535.0).round() / 65535.0 } else { *z };
    let packed = color
        .iter()
        .enumerate()
        .fold(0u32, |w, (i, c)| w | ((c * 255.0).round() as u32) << (8 * i));
    for i in 0..r.depth.len() {
        if r.depth[i] >= *lo && r.depth[i] <= *hi {
            r.depth[i] = quantized;
            r.color[i] = packed;
        }
    }
}

/// Per-pixel depth tolerance: the format's (D16: 1 LSB, D32: 2^-20) plus two sub-pixel units
/// (2^-7 pixel, navi21 and lavapipe both snap to 2^-8) of the local depth gradient. Vertices
/// are snapped to the sub-pixel grid before depth is interpolated, and where exactly a snapped
/// plane lies is implementation-dependent (Vulkan's rasterization precision rules). The
/// gradient is lavapipe's: per axis the larger difference to a neighbour that is at most 0.1
/// away (no triangle of the corpus changes depth faster than 0.05 per pixel; larger jumps are
/// edges to other geometry, and pixels next to a close surface get that surface's slack).
fn depth_tolerance(s: &Scene, d: &[f32]) -> Vec<f32> {
    let base = if s.format == D16 { 1.0 / 65535.0 + 1e-7 } else { 1.0 / 1048576.0 };
    let at = |x: i32, y: i32| {
        (x >= 0 && y >= 0 && x < W as i32 && y < H as i32)
            .then(|| d[(y as u32 * W + x as u32) as usize])
    };
    (0..d.len())
        .map(|i| {
            let (x, y) = ((i as u32 % W) as i32, (i as u32 / W) as i32);
            let g = |a: Option<f32>, b: Option<f32>| {
                let near = [a, b].into_iter().flatten().map(|v| (v - d[i]).abs());
                near.filter(|&g| g <= 0.1).fold(0.0, f32::max)
            };
            let gx = g(at(x - 1, y), at(x + 1, y));
            let gy = g(at(x, y - 1), at(x, y + 1));
            base + (gx + gy) / 128.0
        })
        .collect()
}

pub fn compare(s: &Scene, ours: &Result, lvp: &Result) -> std::result::Result<(), String> {
    let mut errors = Vec::new();
    errors.extend(differences("colour", &ours.color, &lvp.color, |a, b| a == b));
    let (depth, stencil) = compared(s);
    if let Some(z) = s.expect_depth {
        let bad: Vec<usize> = (0..ours.depth.len())
            .filter(|&i| (ours.depth[i] - z).abs() > 1.0 / 65535.0 + 1e-7)
            .collect();
        if let Some(&i) = bad.first() {
            errors.push(format!(
                "  depth: {} differ from {z} by hand, e.g. {}",
                bad.len(),
                ours.depth[i]
            ));
        }
    } else if depth {
        let tol = depth_tolerance(s, &lvp.depth);
        // Pair each value with its pixel's tolerance (lavapipe's side carries it).
        let o: Vec<(f32, f32)> = ours.depth.iter().zip(&tol).map(|(&v, &t)| (v, t)).collect();
        let l: Vec<(f32, f32)> = lvp.depth.iter().zip(&tol).map(|(&v, &t)| (v, t)).collect();
        let close = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).abs() <= a.1.max(b.1);
        errors.extend(differences("depth (value, tolerance)", &o, &l, close));
    }
    if stencil {
        errors.extend(differences("stencil", &ours.stencil, &lvp.stencil, |a, b| a == b));
    }
    if let Some(f) = s.expect_stencil {
        let bad: Vec<usize> = (0..ours.stencil.len())
            .filter(|&i| ours.stencil[i] != f(i as u32 % W, i as u32 / W))
            .collect();
        if let Some(&i) = bad.first() {
            errors.push(format!(
                "  stencil: {} differ from the hand-computed values, e.g. {} at {i}",
                bad.len(),
                ours.stencil[i]
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{}:\n{}", s.name, errors.join("\n")))
    }
}
