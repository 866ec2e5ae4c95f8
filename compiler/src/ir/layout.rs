//! Byte layout of types: explicit where the type carries decorations, natural otherwise.
//!
//! The natural layout (used for workgroup, private and function memory, which SPIR-V leaves
//! undecorated) is the scalar block layout: every value aligned to its component size. One
//! module answers every layout question so that the interpreter and `lower_explicit_io` can
//! never disagree on it. Arithmetic wraps: absurd decorations in a hostile module must give
//! a wrong layout, not a crash.

use super::types::{Member, Type, TypeId, TypeTable};

/// `x` rounded up to a multiple of `a` (wrapping).
fn up(x: u32, a: u32) -> u32 {
    let a = a.max(1);
    x.wrapping_add(a - 1) / a * a
}

/// Size in bytes of one component of a scalar type in memory (bool occupies 32 bits).
pub fn scalar_size(types: &TypeTable, id: TypeId) -> u32 {
    match types.get(id) {
        Type::Bool => 4,
        Type::Int { bits, .. } | Type::Float { bits } => u32::from(*bits) / 8,
        Type::Pointer { .. } => 8,
        _ => 0,
    }
}

/// (size, alignment) of `id` in memory. Runtime arrays count as zero-sized.
pub fn size_align(types: &TypeTable, id: TypeId) -> (u32, u32) {
    match types.get(id) {
        Type::Bool | Type::Int { .. } | Type::Float { .. } | Type::Pointer { .. } => {
            let s = scalar_size(types, id);
            (s, s)
        }
        Type::Vector { elem, count, stride } => {
            let e = scalar_size(types, *elem);
            let st = stride.unwrap_or(e);
            (st.wrapping_mul(u32::from(*count) - 1).wrapping_add(e), e)
        }
        Type::Matrix { column, columns, stride, row_major } => {
            let (csz, a) = size_align(types, *column);
            let n = u32::from(*columns);
            match (stride, row_major, types.get(*column)) {
                (Some(s), true, Type::Vector { count, .. }) => {
                    (s.wrapping_mul(u32::from(*count) - 1).wrapping_add(a.wrapping_mul(n)), a)
                }
                _ => (column_offset(types, id, n - 1).wrapping_add(csz), a),
            }
        }
        Type::Array { elem, len, .. } => {
            let (_, a) = size_align(types, *elem);
            (array_stride(types, id).wrapping_mul(*len), a)
        }
        Type::RuntimeArray { elem, .. } => (0, size_align(types, *elem).1),
        Type::Struct { members, .. } => {
            let mut end = 0;
            let mut align = 1;
            for (i, m) in members.iter().enumerate() {
                let (s, a) = size_align(types, m.ty);
                align = align.max(a);
                end = end.max(member_offset(types, id, i as u32).wrapping_add(s));
            }
            (up(end, align), align)
        }
        _ => (0, 1),
    }
}

/// Byte offset of struct member `i`.
pub fn member_offset(types: &TypeTable, id: TypeId, i: u32) -> u32 {
    let Type::Struct { members, .. } = types.get(id) else { return 0 };
    match members.get(i as usize) {
        Some(Member { offset: Some(o), .. }) => return *o,
        Some(_) => {}
        None => return 0,
    }
    let mut off = 0u32;
    for (j, m) in members.iter().enumerate() {
        let (s, a) = size_align(types, m.ty);
        off = up(off, a);
        if j as u32 == i {
            return off;
        }
        off = off.wrapping_add(s);
    }
    off
}

/// Byte distance between consecutive elements of an array, runtime array or vector.
pub fn array_stride(types: &TypeTable, id: TypeId) -> u32 {
    match types.get(id) {
        Type::Array { elem, stride, .. } | Type::RuntimeArray { elem, stride } => stride
            .unwrap_or_else(|| {
                let (s, a) = size_align(types, *elem);
                up(s, a)
            }),
        Type::Vector { elem, stride, .. } => stride.unwrap_or_else(|| scalar_size(types, *elem)),
        Type::Pointer { pointee, stride, .. } => stride.unwrap_or_else(|| {
            let (s, a) = size_align(types, *pointee);
            up(s, a)
        }),
        _ => 0,
    }
}

/// Byte offset of column `c` of a matrix (row-major columns start one component apart).
pub fn column_offset(types: &TypeTable, id: TypeId, c: u32) -> u32 {
    let Type::Matrix { column, stride, row_major, .. } = types.get(id) else { return 0 };
    let Type::Vector { elem, .. } = types.get(*column) else { return 0 };
    let e = scalar_size(types, *elem);
    match (stride, row_major) {
        (Some(_), true) => c.wrapping_mul(e),
        (Some(s), false) => c.wrapping_mul(*s),
        (None, _) => c.wrapping_mul(size_align(types, *column).0),
    }
}

/// Byte offset of child `i` of a composite (member, element, column or component).
pub fn child_offset(types: &TypeTable, id: TypeId, i: u32) -> u32 {
    match types.get(id) {
        Type::Struct { .. } => member_offset(types, id, i),
        Type::Matrix { .. } => column_offset(types, id, i),
        _ => i.wrapping_mul(array_stride(types, id)),
    }
}

/// Bytes between consecutive children for dynamic indexing (0 for structs).
pub fn child_stride(types: &TypeTable, id: TypeId) -> u32 {
    match types.get(id) {
        Type::Matrix { .. } => column_offset(types, id, 1),
        Type::Struct { .. } => 0,
        _ => array_stride(types, id),
    }
}
