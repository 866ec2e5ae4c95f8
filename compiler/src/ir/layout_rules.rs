//! The std140, std430 and scalar block-layout rules, computing the explicit layout a GLSL
//! compiler would decorate a type with. Used to give undecorated types a layout and, in
//! tests, to check our understanding of the rules against glslang's decorations.

use super::layout::scalar_size;
use super::types::{Member, Type, TypeId, TypeTable};

/// A GLSL block layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLayout {
    /// `std140`: arrays and structs aligned to 16 bytes.
    Std140,
    /// `std430`: like std140 without the 16-byte rounding of arrays and structs.
    Std430,
    /// `scalar` (VK_EXT_scalar_block_layout): everything aligned to its component size.
    Scalar,
}

fn up(x: u32, a: u32) -> u32 {
    let a = a.max(1);
    x.wrapping_add(a - 1) / a * a
}

/// The same type with every explicit offset, stride and matrix stride removed (the
/// row-major flag stays: it is a property of the data, not of the packing).
pub fn strip(t: &mut TypeTable, ty: TypeId) -> TypeId {
    let new = match t.get(ty).clone() {
        Type::Vector { elem, count, .. } => Type::Vector { elem, count, stride: None },
        Type::Matrix { column, columns, row_major, .. } => {
            Type::Matrix { column, columns, stride: None, row_major }
        }
        Type::Array { elem, len, .. } => Type::Array { elem: strip(t, elem), len, stride: None },
        Type::RuntimeArray { elem, .. } => {
            Type::RuntimeArray { elem: strip(t, elem), stride: None }
        }
        Type::Struct { members, block } => Type::Struct {
            members: members.iter().map(|m| Member { ty: strip(t, m.ty), offset: None }).collect(),
            block,
        },
        other => other,
    };
    t.intern(new)
}

/// (base alignment, size) of a scalar or vector under `rule`.
fn vector_align_size(t: &TypeTable, elem: TypeId, count: u32, rule: BlockLayout) -> (u32, u32) {
    let n = scalar_size(t, elem);
    let align = match (rule, count) {
        (BlockLayout::Scalar, _) | (_, 1) => n,
        (_, 2) => 2 * n,
        _ => 4 * n,
    };
    (align, n * count)
}

/// Lays out `ty` under `rule`: returns (decorated type, base alignment, size).
pub fn apply(t: &mut TypeTable, ty: TypeId, rule: BlockLayout) -> (TypeId, u32, u32) {
    let round16 = |a: u32| if rule == BlockLayout::Std140 { up(a, 16) } else { a };
    match t.get(ty).clone() {
        Type::Bool | Type::Int { .. } | Type::Float { .. } | Type::Pointer { .. } => {
            let n = scalar_size(t, ty);
            (ty, n, n)
        }
        Type::Vector { elem, count, .. } => {
            let (a, s) = vector_align_size(t, elem, u32::from(count), rule);
            (ty, a, s)
        }
        Type::Matrix { column, columns, row_major, .. } => {
            let Type::Vector { elem, count: rows, .. } = *t.get(column) else { return (ty, 4, 4) };
            // Row-major matrices are arrays of rows, column-major ones arrays of columns.
            let (vec_len, n_vecs) = if row_major { (columns, rows) } else { (rows, columns) };
            let (va, vs) = vector_align_size(t, elem, u32::from(vec_len), rule);
            let align = round16(va);
            let stride = if rule == BlockLayout::Scalar { vs } else { up(vs, align) };
            let m = t.intern(Type::Matrix { column, columns, stride: Some(stride), row_major });
            (m, align, stride * u32::from(n_vecs))
        }
        Type::Array { elem, len, .. } => {
            let (e, ea, es) = apply(t, elem, rule);
            let align = round16(ea);
            let stride = if rule == BlockLayout::Scalar { up(es, ea) } else { up(es, align) };
            (t.intern(Type::Array { elem: e, len, stride: Some(stride) }), align, stride * len)
        }
        Type::RuntimeArray { elem, .. } => {
            let (e, ea, es) = apply(t, elem, rule);
            let align = round16(ea);
            let stride = if rule == BlockLayout::Scalar { up(es, ea) } else { up(es, align) };
            (t.intern(Type::RuntimeArray { elem: e, stride: Some(stride) }), align, 0)
        }
        Type::Struct { members, block } => {
            let mut off = 0;
            let mut align = 1;
            let mut out = Vec::new();
            for m in members {
                let (mt, ma, ms) = apply(t, m.ty, rule);
                let o = up(off, ma);
                out.push(Member { ty: mt, offset: Some(o) });
                off = o + ms;
                align = align.max(ma);
            }
            let align = round16(align);
            let s = t.intern(Type::Struct { members: out, block });
            (s, align, up(off, align))
        }
        _ => (ty, 1, 0),
    }
}
