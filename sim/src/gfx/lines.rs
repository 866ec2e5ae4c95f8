//! Points and lines as scan conversion sees them: each becomes a rectangle (two triangles
//! sharing a diagonal, so the top-left rule covers every sample of the rectangle once).
//!
//! A point is the square of side `point_size` centred on the vertex (Vulkan's point
//! rasterization), its corners carrying the point sprite coordinates (s, t) = (0, 0) at the
//! top-left to (1, 1) at the bottom-right for inputs with SPI_PS_INPUT_CNTL.PT_SPRITE_TEX. A line is
//! the rectangle of width `line_width` around the segment (Vulkan's rectangular lines), its
//! corners carrying the endpoint attributes, so attributes interpolate along the segment.

use std::borrow::Cow;

use super::backend::Primitive;
use super::poly_offset::PolyOffset;
use super::prim::{PrimBatch, PrimKind, SetupPrim, SetupVertex};
use crate::cp::regs::RegisterFile;
use crate::error::GpuError;

/// Converts a batch into triangles. For points the sprite coordinates are appended as an
/// extra parameter slot at index `batch.param_slots` (see [`sprite_slot`]). Triangles carry
/// their polygon offset ([`super::poly_offset`]).
pub fn to_triangles<'a>(
    batch: &'a PrimBatch,
    regs: &RegisterFile,
) -> Result<Vec<Primitive<'a>>, GpuError> {
    let offset = PolyOffset::from_regs(regs);
    let mut out = Vec::with_capacity(batch.prims.len());
    for p in &batch.prims {
        if p.v.len() != p.kind.vertex_count() {
            return Err(GpuError::Unsupported(format!(
                "{:?} with {} vertices from the front end",
                p.kind,
                p.v.len()
            )));
        }
        let z_bias = match (&p.polygon, p.kind) {
            (_, PrimKind::Triangle) => 0.0,
            (Some(polygon), _) => offset.polygon_mode_bias(polygon, p.front_facing)?,
            (None, _) if offset.para => {
                return Err(GpuError::Unsupported(format!(
                    "polygon offset of {:?} primitives (POLY_OFFSET_PARA_ENABLE) is not \
                     modelled",
                    p.kind
                )));
            }
            (None, _) => 0.0,
        };
        match p.kind {
            PrimKind::Triangle => {
                let pos = [0, 1, 2].map(|i| pos(&p.v[i]));
                out.push(Primitive {
                    pos,
                    front: p.front_facing,
                    provoking: p.provoking.min(2) as u8,
                    params: [0, 1, 2].map(|i| Cow::Borrowed(&p.v[i].params[..])),
                    sprite_slot: None,
                    flat: Cow::Borrowed(&p.flat_params[..]),
                    viewport: p.viewport,
                    layer: p.layer,
                    z_bias: offset.bias(&pos, p.front_facing),
                })
            }
            PrimKind::Point => point(p, batch.param_slots, z_bias, &mut out),
            PrimKind::Line => line(p, z_bias, &mut out),
        }
    }
    Ok(out)
}

/// The parameter slot holding point sprite coordinates.
pub fn sprite_slot(param_slots: usize) -> usize {
    param_slots
}

fn pos(v: &SetupVertex) -> [f32; 4] {
    [v.x, v.y, v.z, v.inv_w]
}

/// Two triangles over corners `c` (top-left, top-right, bottom-left, bottom-right order of the
/// rectangle's own frame) with per-corner parameters.
fn quad<'a>(
    p: &'a SetupPrim,
    c: [[f32; 4]; 4],
    params: [Cow<'a, [[u32; 4]]>; 4],
    slot: usize,
    z_bias: f64,
    out: &mut Vec<Primitive<'a>>,
) {
    for tri in [[0usize, 1, 2], [2, 1, 3]] {
        out.push(Primitive {
            pos: tri.map(|i| c[i]),
            front: p.front_facing,
            provoking: 0,
            params: tri.map(|i| params[i].clone()),
            sprite_slot: Some(slot),
            flat: Cow::Borrowed(&p.flat_params[..]),
            viewport: p.viewport,
            layer: p.layer,
            z_bias,
        });
    }
}

fn point<'a>(p: &'a SetupPrim, slots: usize, z_bias: f64, out: &mut Vec<Primitive<'a>>) {
    let v = &p.v[0];
    let h = p.point_size / 2.0;
    let corner = |dx: f32, dy: f32, s: f32, t: f32| {
        let mut params = v.params.clone();
        params.resize(slots, [0; 4]);
        params.push([s.to_bits(), t.to_bits(), 0, 1f32.to_bits()]);
        ([v.x + dx, v.y + dy, v.z, v.inv_w], params)
    };
    let cs = [
        corner(-h, -h, 0.0, 0.0),
        corner(h, -h, 1.0, 0.0),
        corner(-h, h, 0.0, 1.0),
        corner(h, h, 1.0, 1.0),
    ];
    let pos = core::array::from_fn(|i| cs[i].0);
    let params = cs.map(|c| Cow::Owned(c.1));
    quad(p, pos, params, slots, z_bias, out);
}

fn line<'a>(p: &'a SetupPrim, z_bias: f64, out: &mut Vec<Primitive<'a>>) {
    let (a, b) = (&p.v[0], &p.v[1]);
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 || p.line_width <= 0.0 {
        return;
    }
    let h = p.line_width / 2.0;
    let (nx, ny) = (-dy / len * h, dx / len * h);
    let c = [
        [a.x + nx, a.y + ny, a.z, a.inv_w],
        [b.x + nx, b.y + ny, b.z, b.inv_w],
        [a.x - nx, a.y - ny, a.z, a.inv_w],
        [b.x - nx, b.y - ny, b.z, b.inv_w],
    ];
    // Flat inputs read `flat_params` (the provoking vertex's), not the corners.
    let (pa, pb) = (&a.params[..], &b.params[..]);
    let params = [pa, pb, pa, pb];
    for tri in [[0usize, 1, 2], [2, 1, 3]] {
        out.push(Primitive {
            pos: tri.map(|i| c[i]),
            front: p.front_facing,
            provoking: 0,
            params: tri.map(|i| Cow::Borrowed(params[i])),
            sprite_slot: None,
            flat: Cow::Borrowed(&p.flat_params[..]),
            viewport: p.viewport,
            layer: p.layer,
            z_bias,
        });
    }
}
