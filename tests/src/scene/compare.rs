//! The comparison of a scene with lavapipe's: channels within a tolerance, and pixels whose
//! coverage differs allowed only where an edge passes (each next to a pixel of the other value).

use super::{EDGE_SLACK, W};

/// How far a scene may differ from lavapipe.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Per channel, in 1/255 steps.
    pub channel: i32,
    /// Pixels that may differ where they touch a pixel of the other image's value.
    pub slack: usize,
}

/// Colour within 1/255 (float → UNORM rounding of ties may go either way; interpolation
/// precision), coverage up to `EDGE_SLACK` edge pixels.
pub const DEFAULT_TOLERANCE: Tolerance = Tolerance { channel: 1, slack: EDGE_SLACK };

/// Whether two RGBA8 texels agree within `tol` per channel.
pub fn close(a: u32, b: u32, tol: i32) -> bool {
    (0..4).all(|c| ((a >> (8 * c) & 0xff) as i32 - (b >> (8 * c) & 0xff) as i32).abs() <= tol)
}

/// Compares `ours` with `lvp`: every pixel within `t.channel`, or else one of at most
/// `t.slack` pixels that each have a 4-neighbour matching the other image's value (an edge
/// whose coverage went the other way).
pub fn compare(name: &str, ours: &[u32], lvp: &[u32], t: Tolerance) -> Result<(), String> {
    compare_sized(name, W, ours, lvp, t)
}

/// `compare` for images `w` texels wide.
pub fn compare_sized(
    name: &str,
    w: u32,
    ours: &[u32],
    lvp: &[u32],
    t: Tolerance,
) -> Result<(), String> {
    let (tol, h) = (t.channel, ours.len() as u32 / w);
    let bad: Vec<usize> = (0..ours.len()).filter(|&i| !close(ours[i], lvp[i], tol)).collect();
    let inner: Vec<usize> = bad
        .iter()
        .copied()
        .filter(|&i| {
            let (x, y) = ((i as u32 % w) as i32, (i as u32 / w) as i32);
            let near = |dx: i32, dy: i32| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0 && ny >= 0 && nx < w as i32 && ny < h as i32 && {
                    let j = (ny as u32 * w + nx as u32) as usize;
                    close(ours[i], lvp[j], tol) || close(lvp[i], ours[j], tol)
                }
            };
            !(near(1, 0) || near(-1, 0) || near(0, 1) || near(0, -1))
        })
        .collect();
    if bad.len() > t.slack || !inner.is_empty() {
        let show: Vec<String> = bad
            .iter()
            .take(8)
            .map(|&i| {
                format!(
                    "({}, {}): ferrum {:08x} lavapipe {:08x}",
                    i as u32 % w,
                    i as u32 / w,
                    ours[i],
                    lvp[i]
                )
            })
            .collect();
        return Err(format!(
            "{}: {} pixels differ ({} not at edges)\n{}",
            name,
            bad.len(),
            inner.len(),
            show.join("\n")
        ));
    }
    Ok(())
}
