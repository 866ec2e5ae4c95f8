//! `lower_io`: turns loads and stores through derefs of shader inputs and outputs into
//! `load_input`/`store_output` on vec4 slots (location, component).
//!
//! Arrays take one slot per element, matrices one per column, structs one per member (in
//! order); a vector component index moves the first component. Each store writes exactly
//! the components of the stored value, so two outputs packed into one location with
//! `Component` decorations never clobber each other. Built-in outputs (`gl_Position`, ...)
//! get their own slots. Afterwards no deref of `in`/`out` mode is loaded or stored.

use std::collections::HashMap;

use crate::error::CompileError;
use crate::ir::{
    BlockId, DerefKind, Function, InstKind, IoSlot, Mode, Shader, Type, TypeId, TypeTable, Value,
    VarRef,
};

/// Where a deref into an I/O variable points.
#[derive(Clone, Copy, Debug)]
struct Place {
    slot: IoSlot,
    comp: u32,
    ty: TypeId,
    output: bool,
}

/// Number of vec4 slots a type occupies.
pub(crate) fn slots(t: &TypeTable, ty: TypeId) -> u32 {
    match t.get(ty) {
        Type::Array { elem, len, .. } => len.saturating_mul(slots(t, *elem)),
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Struct { members, .. } => {
            members.iter().fold(0u32, |a, m| a.wrapping_add(slots(t, m.ty)))
        }
        _ => 1,
    }
}

/// Lowers I/O derefs in every function.
pub fn lower_io(s: &mut Shader) -> Result<(), CompileError> {
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        let r = lower(s, &mut f);
        s.funcs[fi] = f;
        r?;
    }
    Ok(())
}

fn const_of(f: &Function, defs: &[Option<(BlockId, usize)>], v: Value) -> Option<u32> {
    let (b, i) = defs.get(v.0 as usize).copied().flatten()?;
    match &f.block(b).insts[i].kind {
        InstKind::Const(c) if c.len() == 1 => Some(c[0] as u32),
        _ => None,
    }
}

fn places(s: &Shader, f: &Function) -> Result<HashMap<Value, Place>, CompileError> {
    let defs = f.def_map();
    let mut m: HashMap<Value, Place> = HashMap::new();
    let cfg = crate::analysis::cfg::Cfg::new(f);
    let unsupported = |what: &str| {
        CompileError::unsupported("OpAccessChain", format!("{what} into a shader input/output"))
    };
    for b in &cfg.rpo {
        for inst in &f.block(*b).insts {
            let (InstKind::Deref { kind, parent }, Some(d)) = (&inst.kind, inst.dst) else {
                continue;
            };
            let place = match (kind, parent.and_then(|p| m.get(&p).copied())) {
                (DerefKind::Var(VarRef::Global(g)), _) => {
                    let v = &s.vars[g.0 as usize];
                    if !matches!(v.mode, Mode::Input | Mode::Output) {
                        continue;
                    }
                    let slot = match (v.location, v.builtin_out.first()) {
                        (Some((l, _)), _) => IoSlot::Location(l),
                        (None, Some(Some(b))) if v.builtin_out.len() == 1 => IoSlot::Builtin(*b),
                        _ => IoSlot::Location(u32::MAX),
                    };
                    let comp = v.location.map_or(0, |l| l.1);
                    Place { slot, comp, ty: v.ty, output: v.mode == Mode::Output }
                }
                (DerefKind::Member(i), Some(p)) => {
                    let Type::Struct { members, .. } = s.types.get(p.ty) else { continue };
                    let ty = members.get(*i as usize).map_or(p.ty, |x| x.ty);
                    // Built-in blocks (gl_PerVertex) map members to built-in slots.
                    let var_builtin = root_builtin(s, f, &defs, *parent, *i);
                    let slot = match (var_builtin, p.slot) {
                        (Some(b), _) => IoSlot::Builtin(b),
                        (None, IoSlot::Location(l)) => {
                            let skip: u32 = members
                                .iter()
                                .take(*i as usize)
                                .fold(0u32, |a, x| a.wrapping_add(slots(&s.types, x.ty)));
                            IoSlot::Location(l.wrapping_add(skip))
                        }
                        (None, other) => other,
                    };
                    Place { slot, ty, ..p }
                }
                (DerefKind::Index(ix), Some(p)) => {
                    let Some(c) = const_of(f, &defs, *ix) else {
                        return Err(unsupported("dynamic index"));
                    };
                    match (s.types.get(p.ty).clone(), p.slot) {
                        (Type::Vector { elem, .. }, _) => {
                            Place { comp: p.comp.wrapping_add(c), ty: elem, ..p }
                        }
                        (
                            Type::Array { elem, .. } | Type::Matrix { column: elem, .. },
                            IoSlot::Location(l),
                        ) => {
                            let step = if matches!(s.types.get(p.ty), Type::Matrix { .. }) {
                                1
                            } else {
                                slots(&s.types, elem)
                            };
                            Place {
                                slot: IoSlot::Location(l.wrapping_add(c.wrapping_mul(step))),
                                ty: elem,
                                ..p
                            }
                        }
                        _ => return Err(unsupported("indexing a built-in array")),
                    }
                }
                (_, None) => continue,
                _ => return Err(unsupported("pointer arithmetic")),
            };
            m.insert(d, place);
        }
    }
    Ok(m)
}

fn root_builtin(
    s: &Shader,
    f: &Function,
    defs: &[Option<(BlockId, usize)>],
    parent: Option<Value>,
    member: u32,
) -> Option<crate::ir::BuiltinOut> {
    let (b, i) = defs.get(parent?.0 as usize).copied().flatten()?;
    let InstKind::Deref { kind: DerefKind::Var(VarRef::Global(g)), .. } = f.block(b).insts[i].kind
    else {
        return None;
    };
    let v = &s.vars[g.0 as usize];
    if v.builtin_out.len() > 1 {
        v.builtin_out.get(member as usize).copied().flatten()
    } else {
        None
    }
}

fn lower(s: &Shader, f: &mut Function) -> Result<(), CompileError> {
    let places = places(s, f)?;
    if places.is_empty() {
        return Ok(());
    }
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            let new = match &inst.kind {
                InstKind::Load { ptr } => places.get(ptr).map(|p| InstKind::IoLoad {
                    slot: p.slot,
                    comp: p.comp as u8,
                    output: p.output,
                }),
                InstKind::Store { ptr, value } => places.get(ptr).map(|p| InstKind::IoStore {
                    slot: p.slot,
                    comp: p.comp as u8,
                    value: *value,
                }),
                InstKind::Atomic { ptr, .. } if places.contains_key(ptr) => {
                    return Err(CompileError::unsupported(
                        "OpAtomic",
                        "atomics on shader inputs/outputs",
                    ));
                }
                _ => None,
            };
            if let Some(k) = new {
                inst.kind = k;
            }
        }
    }
    Ok(())
}
