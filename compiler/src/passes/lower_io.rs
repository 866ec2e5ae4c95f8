//! `lower_io`: turns loads and stores through derefs of shader inputs and outputs into
//! `load_input`/`store_output` on vec4 slots (location, component).
//!
//! Arrays take one slot per element, matrices one per column, structs one per member (in
//! order, or at the members' own locations); a vector component index moves the first
//! component (by two for 64-bit elements, whose 3- and 4-vectors take two slots). 16-bit
//! values take whole 32-bit components ([`narrow16`]). Each store writes exactly
//! the components of the stored value, so two outputs packed into one location with
//! `Component` decorations never clobber each other. Built-in outputs (`gl_Position`, ...)
//! get their own slots; the elements of the clip and cull distance arrays are components of
//! theirs. A dynamic index into an I/O array (one per access chain) becomes a select over
//! every element: a load reads them all and keeps the indexed one; a store writes each
//! element either the new value (the indexed one) or its old value read back, so no control
//! flow is needed (NIR's `lower_indirect_derefs` makes if-ladders instead). Afterwards no
//! deref of `in`/`out` mode is loaded or stored.

use rustc_hash::FxHashMap as HashMap;

use super::Emitter;
use crate::error::CompileError;
use crate::ir::{
    AluOp, BlockId, BuiltinOut, DerefKind, Function, Inst, InstKind, Interp, InterpAt, IoSlot,
    Mode, Shader, Type, TypeId, TypeTable, Value, ValueType, VarRef, Variable,
};

/// Where a deref into an I/O variable points (element 0 of a dynamically indexed array).
#[derive(Clone, Copy, Debug)]
struct Place {
    slot: IoSlot,
    comp: u32,
    ty: TypeId,
    output: bool,
    dynamic: Option<Dynamic>,
}

/// A dynamic array index on the way to a [`Place`].
#[derive(Clone, Copy, Debug)]
struct Dynamic {
    index: Value,
    len: u32,
    /// What one element step adds: locations, or components (of a built-in array's slot,
    /// or of a vector: two for 64-bit elements).
    step: u32,
    /// The index selects a component of a vector (each step adds a component, whatever the
    /// slot).
    component: bool,
}

impl Place {
    /// The slot and component of element `k` of the dynamically indexed array.
    fn at(&self, k: u32) -> (IoSlot, u8) {
        let Some(d) = self.dynamic else { return (self.slot, self.comp as u8) };
        if d.component {
            return (self.slot, (self.comp + k * d.step) as u8);
        }
        match self.slot {
            IoSlot::Location(l) => (IoSlot::Location(l.wrapping_add(k * d.step)), self.comp as u8),
            b => (b, (self.comp + k * d.step) as u8),
        }
    }
}

/// Built-in outputs that are arrays of scalars packed as components of one slot.
fn component_array(b: BuiltinOut) -> bool {
    matches!(b, BuiltinOut::ClipDistance | BuiltinOut::CullDistance | BuiltinOut::SampleMask)
}

/// Number of vec4 slots a type occupies.
pub(crate) fn slots(t: &TypeTable, ty: TypeId) -> u32 {
    match t.get(ty) {
        Type::Array { elem, len, .. } => len.saturating_mul(slots(t, *elem)),
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Struct { members, .. } => {
            members.iter().fold(0u32, |a, m| a.wrapping_add(slots(t, m.ty)))
        }
        // 64-bit vectors of three or four components take two locations.
        _ => match t.value_shape(ty) {
            Some((64, n)) if n > 2 => 2,
            _ => 1,
        },
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
    let mut m: HashMap<Value, Place> = HashMap::default();
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
                    Place { slot, comp, ty: v.ty, output: v.mode == Mode::Output, dynamic: None }
                }
                (DerefKind::Member(i), Some(p)) => {
                    let Type::Struct { members, .. } = s.types.get(p.ty) else { continue };
                    let ty = members.get(*i as usize).map_or(p.ty, |x| x.ty);
                    // Built-in blocks (gl_PerVertex) map members to built-in slots; members
                    // of a struct variable have their own locations.
                    let root = root_var(s, f, &defs, *parent);
                    let var_builtin = root
                        .filter(|v| v.builtin_out.len() > 1)
                        .and_then(|v| v.builtin_out.get(*i as usize).copied().flatten());
                    if let Some(io) = root.and_then(|v| v.members.get(*i as usize)) {
                        let (l, comp) = io.location;
                        m.insert(d, Place { slot: IoSlot::Location(l), comp, ty, ..p });
                        continue;
                    }
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
                    let (elem, len, step) = match (s.types.get(p.ty).clone(), p.slot) {
                        (Type::Vector { elem, count, .. }, _) => {
                            // A 64-bit element takes two 32-bit components.
                            let w = s.types.value_shape(elem).map_or(1, |(b, _)| b / 32).max(1);
                            let w = u32::from(w);
                            let place = match const_of(f, &defs, *ix) {
                                Some(c) => {
                                    let comp = p.comp.wrapping_add(c.wrapping_mul(w));
                                    Place { comp, ty: elem, ..p }
                                }
                                None if p.dynamic.is_some() => {
                                    return Err(unsupported("two dynamic indices"));
                                }
                                None => {
                                    let len = u32::from(count);
                                    let (index, step) = (*ix, w);
                                    let dynamic = Dynamic { index, len, step, component: true };
                                    Place { ty: elem, dynamic: Some(dynamic), ..p }
                                }
                            };
                            m.insert(d, place);
                            continue;
                        }
                        (Type::Matrix { column, columns, .. }, IoSlot::Location(_)) => {
                            (column, u32::from(columns), slots(&s.types, column))
                        }
                        (Type::Array { elem, len, .. }, IoSlot::Location(_)) => {
                            (elem, len, slots(&s.types, elem))
                        }
                        (Type::Array { elem, len, .. }, IoSlot::Builtin(b))
                            if component_array(b) =>
                        {
                            (elem, len, 1)
                        }
                        _ => return Err(unsupported("indexing a built-in array")),
                    };
                    let place = Place { ty: elem, ..p };
                    match const_of(f, &defs, *ix) {
                        Some(c) => {
                            let (slot, comp) = place.at(0);
                            let (slot, comp) = match slot {
                                IoSlot::Location(l) => {
                                    (IoSlot::Location(l.wrapping_add(c.wrapping_mul(step))), comp)
                                }
                                b => (b, u32::from(comp).wrapping_add(c) as u8),
                            };
                            Place { slot, comp: u32::from(comp), ..place }
                        }
                        None if p.dynamic.is_some() => {
                            return Err(unsupported("two dynamic indices"));
                        }
                        None => {
                            let dynamic = Dynamic { index: *ix, len, step, component: false };
                            Place { dynamic: Some(dynamic), ..place }
                        }
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

/// The variable `parent` derefs directly, if it is a global one.
fn root_var<'s>(
    s: &'s Shader,
    f: &Function,
    defs: &[Option<(BlockId, usize)>],
    parent: Option<Value>,
) -> Option<&'s Variable> {
    let (b, i) = defs.get(parent?.0 as usize).copied().flatten()?;
    let InstKind::Deref { kind: DerefKind::Var(VarRef::Global(g)), .. } = f.block(b).insts[i].kind
    else {
        return None;
    };
    s.vars.get(g.0 as usize)
}

/// A run of consecutive locations of an input or output with one interpolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SlotRange {
    pub first: u32,
    pub count: u32,
    pub flat: bool,
    pub noperspective: bool,
    pub interp: Interp,
}

/// The locations variable `v` covers: one range per member of a struct with member
/// interfaces ([`Variable::members`]), else one from its location (none without).
pub(crate) fn slot_ranges(t: &TypeTable, v: &Variable) -> Vec<SlotRange> {
    if !v.members.is_empty() {
        let Type::Struct { members, .. } = t.get(v.ty) else { return Vec::new() };
        return members
            .iter()
            .zip(&v.members)
            .map(|(m, io)| SlotRange {
                first: io.location.0,
                count: slots(t, m.ty),
                flat: io.flat,
                noperspective: io.noperspective,
                interp: io.interp,
            })
            .collect();
    }
    v.location
        .map(|(first, _)| SlotRange {
            first,
            count: slots(t, v.ty),
            flat: v.flat,
            noperspective: v.noperspective,
            interp: v.interp,
        })
        .into_iter()
        .collect()
}

fn lower(s: &Shader, f: &mut Function) -> Result<(), CompileError> {
    let places = places(s, f)?;
    if places.is_empty() {
        return Ok(());
    }
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut e = Emitter::new(f);
        for inst in insts {
            lower_inst(&mut e, &s.types, &places, inst)?;
        }
        let out = std::mem::take(&mut e.out);
        f.blocks[bi].insts = out;
    }
    Ok(())
}

/// For a 16-bit scalar or vector `ty`, the conversion that widens it into 32-bit
/// components. Such inputs and outputs take whole 32-bit components, unpacked (as RADV
/// places 16-bit varyings unless it packs them): a store widens the value (f16 → f32
/// exactly, integers extended by their signedness, so a colour export's conversion to a
/// 16-bit integer format sees the value), a load narrows what it reads ([`io16_narrow`]:
/// an interpolated f32 rounds once to f16, integers truncate), so interpolation runs in
/// f32 and both stages agree by construction.
pub fn narrow16(t: &TypeTable, ty: TypeId) -> Option<AluOp> {
    let elem = match t.get(ty) {
        Type::Vector { elem, .. } => *elem,
        _ => ty,
    };
    match t.get(elem) {
        Type::Float { bits: 16 } => Some(AluOp::F2f),
        Type::Int { bits: 16, signed: true } => Some(AluOp::I2i),
        Type::Int { bits: 16, signed: false } => Some(AluOp::U2u),
        _ => None,
    }
}

/// The conversion back to 16 bits of a value [`narrow16`] widened with `widen`.
pub fn io16_narrow(widen: AluOp) -> AluOp {
    if widen == AluOp::F2f {
        AluOp::F2f
    } else {
        AluOp::U2u
    }
}

/// `ty` with 32-bit components.
fn wide(ty: ValueType) -> ValueType {
    match ty {
        ValueType::Data { comps, .. } => ValueType::Data { bits: 32, comps },
        other => other,
    }
}

fn lower_inst(
    e: &mut Emitter<'_>,
    types: &TypeTable,
    places: &HashMap<Value, Place>,
    inst: Inst,
) -> Result<(), CompileError> {
    match (&inst.kind, inst.dst) {
        (InstKind::Load { ptr } | InstKind::InterpolateAt { ptr, .. }, Some(dst))
            if places.contains_key(ptr) =>
        {
            let at = match inst.kind {
                InstKind::InterpolateAt { at, .. } => at,
                _ => InterpAt::Default,
            };
            let p = places[ptr];
            let ty = e.f.ty(dst);
            let Some(widen) = narrow16(types, p.ty) else {
                return load_place(e, p, at, dst, ty);
            };
            let w = e.f.new_value(wide(ty));
            load_place(e, p, at, w, wide(ty))?;
            e.emit_to(dst, InstKind::Alu(io16_narrow(widen), vec![w]), ty);
        }
        (InstKind::Store { ptr, value }, _) if places.contains_key(ptr) => {
            let p = places[ptr];
            let value = &match narrow16(types, p.ty) {
                Some(widen) => {
                    let ty = wide(e.f.ty(*value));
                    e.emit(InstKind::Alu(widen, vec![*value]), ty)
                }
                None => *value,
            };
            let Some(d) = p.dynamic else {
                let (slot, comp) = p.at(0);
                e.emit_void(InstKind::IoStore { slot, comp, value: *value });
                return Ok(());
            };
            let ty = e.f.ty(*value);
            for k in 0..d.len {
                let (slot, comp) = p.at(k);
                let at = InterpAt::Default;
                let old = e.emit(InstKind::IoLoad { slot, comp, output: true, at }, ty);
                let is_k = is_index(e, d.index, k, ty);
                let new = e.emit(InstKind::Alu(AluOp::Bcsel, vec![is_k, *value, old]), ty);
                e.emit_void(InstKind::IoStore { slot, comp, value: new });
            }
        }
        (InstKind::InterpolateAt { .. }, _) => {
            return Err(CompileError::invalid("OpExtInst", "InterpolateAt* of a non-input"));
        }
        (InstKind::Atomic { ptr, .. }, _) if places.contains_key(ptr) => {
            return Err(CompileError::unsupported("OpAtomic", "atomics on shader inputs/outputs"));
        }
        _ => e.out.push(inst),
    }
    Ok(())
}

/// `index == k`, as a boolean of `ty`'s component count (a select takes one per component).
/// The input or output at `p` into `dst` (of type `ty`).
fn load_place(
    e: &mut Emitter<'_>,
    p: Place,
    at: InterpAt,
    dst: Value,
    ty: ValueType,
) -> Result<(), CompileError> {
    let output = p.output;
    let Some(d) = p.dynamic else {
        let (slot, comp) = p.at(0);
        e.emit_to(dst, InstKind::IoLoad { slot, comp, output, at }, ty);
        return Ok(());
    };
    let mut acc = None;
    for k in 0..d.len {
        let (slot, comp) = p.at(k);
        let v = e.emit(InstKind::IoLoad { slot, comp, output, at }, ty);
        acc = Some(match acc {
            None => v,
            Some(prev) => {
                let is_k = is_index(e, d.index, k, ty);
                e.emit(InstKind::Alu(AluOp::Bcsel, vec![is_k, v, prev]), ty)
            }
        });
    }
    let v = acc.ok_or_else(|| CompileError::invalid("OpLoad", "empty I/O array"))?;
    e.emit_to(dst, InstKind::Alu(AluOp::Mov, vec![v]), ty);
    Ok(())
}

fn is_index(e: &mut Emitter<'_>, index: Value, k: u32, ty: ValueType) -> Value {
    let bits = match e.f.ty(index) {
        ValueType::Data { bits, .. } => bits,
        _ => 32,
    };
    let kv = e.imm(bits, u64::from(k));
    let c = e.alu(AluOp::Ieq, 1, 1, vec![index, kv]);
    match ty {
        ValueType::Data { comps, .. } if comps > 1 => {
            e.alu(AluOp::Vec, 1, comps, vec![c; usize::from(comps)])
        }
        _ => c,
    }
}
