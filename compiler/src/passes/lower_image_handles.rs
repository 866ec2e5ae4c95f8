//! `lower_image_handles`: turns derefs of image, sampler, combined and texel-buffer variables
//! into descriptor indices.
//!
//! Afterwards every former handle deref is a `u32` [`InstKind::ResourceIndex`] value naming
//! `(set, binding)[index]` (the index flattened over arrays of arrays, dynamic and possibly
//! divergent), and an [`ImageOp::Combine`] of a separate image and sampler is a `u32x2` vector
//! (image index, sampler index). Image instructions keep referring to the same values, so
//! their handle source becomes the index or the pair. Where the descriptors of an index live
//! (offset and stride in set memory) is the backend's business: it knows the binding's kind
//! from the pipeline's resource layout.

use rustc_hash::FxHashMap as HashMap;

use super::Emitter;
use crate::ir::{
    AluOp, DerefKind, Function, ImageOp, InstKind, Mode, Shader, Type, TypeId, Value, ValueType,
    VarRef,
};

/// A handle deref not yet resolved to one descriptor: an array (of arrays) of handles.
#[derive(Clone, Copy)]
struct Partial {
    set: u32,
    binding: u32,
    /// Flattened index so far (`None` = 0).
    index: Option<Value>,
    /// Pointee type at this step.
    ty: TypeId,
}

/// Number of handles in one element of type `t` (product of nested array lengths).
fn flat_len(s: &Shader, t: TypeId) -> u32 {
    match s.types.get(t) {
        Type::Array { elem, len, .. } => len.saturating_mul(flat_len(s, *elem)),
        _ => 1,
    }
}

fn is_array(s: &Shader, t: TypeId) -> bool {
    matches!(s.types.get(t), Type::Array { .. } | Type::RuntimeArray { .. })
}

fn to_u32(e: &mut Emitter<'_>, i: Value) -> Value {
    match e.f.ty(i).shape().0 {
        32 => i,
        b if b > 32 => e.alu(AluOp::U2u, 32, 1, vec![i]),
        _ => e.alu(AluOp::I2i, 32, 1, vec![i]),
    }
}

/// Lowers handle derefs in every function. Returns true if anything changed.
pub fn lower_image_handles(s: &mut Shader) -> bool {
    let mut funcs = std::mem::take(&mut s.funcs);
    let mut progress = false;
    for f in &mut funcs {
        progress |= lower_function(s, f);
    }
    s.funcs = funcs;
    progress
}

fn handle_pointee(s: &Shader, f: &Function, v: Value) -> Option<TypeId> {
    let ValueType::Deref(pt) = f.ty(v) else { return None };
    match s.types.get(pt) {
        Type::Pointer { pointee, mode: Mode::Handle, .. } => Some(*pointee),
        _ => None,
    }
}

fn lower_function(s: &Shader, f: &mut Function) -> bool {
    let mut partial: HashMap<Value, Partial> = HashMap::default();
    let mut changed = false;
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut e = Emitter::new(f);
        for inst in insts {
            let Some(d) = inst.dst else {
                e.out.push(inst);
                continue;
            };
            match &inst.kind {
                InstKind::Deref { kind, parent } if handle_pointee(s, e.f, d).is_some() => {
                    let ty = handle_pointee(s, e.f, d).unwrap_or(TypeId(0));
                    if lower_deref(s, &mut e, &mut partial, d, (*kind, *parent), ty) {
                        changed = true;
                    } else {
                        // Not a chain from a descriptor variable: left for the backend to
                        // refuse.
                        e.out.push(inst);
                    }
                }
                InstKind::Image(im) if im.op == ImageOp::Combine => {
                    let src = im.sources();
                    let (Some(img), Some(smp)) = (src.handle, src.data) else {
                        e.out.push(inst);
                        continue;
                    };
                    changed = true;
                    e.emit_to(d, InstKind::Alu(AluOp::Vec, vec![img, smp]), ValueType::data(32, 2));
                }
                _ => e.out.push(inst),
            }
        }
        let out = std::mem::take(&mut e.out);
        f.blocks[bi].insts = out;
    }
    changed
}

fn lower_deref(
    s: &Shader,
    e: &mut Emitter<'_>,
    partial: &mut HashMap<Value, Partial>,
    d: Value,
    (kind, parent): (DerefKind, Option<Value>),
    ty: TypeId,
) -> bool {
    let step = match kind {
        DerefKind::Var(VarRef::Global(g)) => {
            let (set, binding) = s.vars[g.0 as usize].binding.unwrap_or((0, 0));
            Partial { set, binding, index: None, ty }
        }
        DerefKind::Index(i) => {
            let Some(p) = parent.and_then(|p| partial.get(&p).copied()) else { return false };
            let elem = match s.types.get(p.ty) {
                Type::Array { elem, .. } | Type::RuntimeArray { elem, .. } => *elem,
                _ => p.ty,
            };
            let i = to_u32(e, i);
            let scaled = match flat_len(s, elem) {
                1 => i,
                n => {
                    let k = e.imm(32, u64::from(n));
                    e.alu(AluOp::Imul, 32, 1, vec![i, k])
                }
            };
            let index = match p.index {
                None => scaled,
                Some(b) => e.alu(AluOp::Iadd, 32, 1, vec![b, scaled]),
            };
            Partial { index: Some(index), ty: elem, ..p }
        }
        DerefKind::Cast => {
            // The image half of a combined handle: the same descriptor (or the image of a pair).
            let p = parent.unwrap_or(d);
            if let Some(pp) = partial.get(&p).copied() {
                partial.insert(d, pp);
                return true;
            }
            let src = match e.f.ty(p).shape().1 {
                2 => {
                    let z = e.imm(32, 0);
                    e.alu(AluOp::ExtractDyn, 32, 1, vec![p, z])
                }
                _ => p,
            };
            e.emit_to(d, InstKind::Alu(AluOp::Mov, vec![src]), ValueType::data(32, 1));
            return true;
        }
        _ => return false,
    };
    if is_array(s, step.ty) {
        partial.insert(d, step);
        return true;
    }
    let index = match step.index {
        Some(i) => i,
        None => e.imm(32, 0),
    };
    e.emit_to(
        d,
        InstKind::ResourceIndex { set: step.set, binding: step.binding, index },
        ValueType::data(32, 1),
    );
    true
}
