//! `lower_explicit_io`: turns derefs of uniform, storage, push-constant, workgroup and
//! physical-storage-buffer memory (and of temporaries `lower_vars_to_ssa` could not promote)
//! into byte-offset address arithmetic and explicit load/store/atomic instructions.
//!
//! Address formats (see DESIGN.md): descriptor buffers use `u32x2` (resource index, offset);
//! buffer device addresses use `u64`; LDS, push constants and scratch use a `u32` offset. All
//! offsets come from the layout carried by the types, so std140, std430, scalar, row-major
//! and column-major need no special cases here. A row-major matrix column, whose type is a
//! strided vector, becomes one scalar access per component (a strided gather/scatter).
//!
//! Afterwards no deref of those modes remains; every former deref value of those modes is an
//! address value, so φs and selects of pointers (variable pointers) simply become φs and
//! selects of addresses.

use rustc_hash::FxHashMap as HashMap;

use super::Emitter;
use crate::ir::{
    layout, AluOp, DerefKind, Function, InstKind, Mode, Shader, Space, Type, TypeId, Value,
    ValueType, VarRef,
};

fn space_of(mode: Mode) -> Option<Space> {
    Some(match mode {
        Mode::Uniform | Mode::Storage => Space::Buffer,
        Mode::Global => Space::Global,
        Mode::PushConstant => Space::Push,
        Mode::Workgroup => Space::Shared,
        Mode::Function | Mode::Private => Space::Scratch,
        _ => return None,
    })
}

fn addr_type(space: Space) -> ValueType {
    match space {
        Space::Buffer => ValueType::data(32, 2),
        Space::Global => ValueType::data(64, 1),
        _ => ValueType::data(32, 1),
    }
}

struct Ctx<'s> {
    s: &'s Shader,
    /// Pointer type of every deref value to lower (captured before retyping).
    ptr_ty: HashMap<Value, TypeId>,
    /// Var derefs of descriptor arrays: value → (set, binding).
    desc: HashMap<Value, (u32, u32)>,
    global_off: HashMap<u32, u32>,
    local_off: HashMap<u32, u32>,
}

impl Ctx<'_> {
    fn pointee(&self, v: Value) -> (TypeId, Mode) {
        match self.ptr_ty.get(&v).map(|t| self.s.types.get(*t)) {
            Some(Type::Pointer { pointee, mode, .. }) => (*pointee, *mode),
            _ => (TypeId(0), Mode::Function),
        }
    }

    fn space(&self, v: Value) -> Option<Space> {
        self.ptr_ty.get(&v).and_then(|_| space_of(self.pointee(v).1))
    }
}

/// Lowers explicit-I/O derefs in every function and sets the shader's LDS and scratch sizes.
pub fn lower_explicit_io(s: &mut Shader) {
    let mut global_off = HashMap::default();
    let (mut shared, mut scratch) = (0u32, 0u32);
    for (i, v) in s.vars.iter().enumerate() {
        let slot = match v.mode {
            Mode::Workgroup => &mut shared,
            Mode::Private => &mut scratch,
            _ => continue,
        };
        let (size, align) = layout::size_align(&s.types, v.ty);
        *slot = slot.wrapping_add(align.max(1) - 1) / align.max(1) * align.max(1);
        global_off.insert(i as u32, *slot);
        *slot = slot.wrapping_add(size);
    }
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        let mut local_off = HashMap::default();
        let used = used_locals(&f);
        for (i, v) in f.locals.iter().enumerate().filter(|(i, _)| used.contains(&(*i as u32))) {
            let (size, align) = layout::size_align(&s.types, v.ty);
            scratch = scratch.wrapping_add(align.max(1) - 1) / align.max(1) * align.max(1);
            local_off.insert(i as u32, scratch);
            scratch = scratch.wrapping_add(size);
        }
        let cx = analyze(s, &f, global_off.clone(), local_off);
        lower_fn(&cx, &mut f);
        s.funcs[fi] = f;
    }
    s.shared_size = shared.wrapping_add(3) & !3;
    s.scratch_size = scratch.wrapping_add(3) & !3;
}

/// Locals still reached by a deref (promoted ones are not).
fn used_locals(f: &Function) -> Vec<u32> {
    let mut v = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::Deref { kind: DerefKind::Var(VarRef::Local(l)), .. } = i.kind {
                v.push(l.0);
            }
        }
    }
    v
}

fn analyze<'s>(
    s: &'s Shader,
    f: &Function,
    global_off: HashMap<u32, u32>,
    local_off: HashMap<u32, u32>,
) -> Ctx<'s> {
    let mut ptr_ty = HashMap::default();
    for (v, t) in f.values.iter().enumerate() {
        if let ValueType::Deref(pt) = t {
            if let Type::Pointer { mode, .. } = s.types.get(*pt) {
                if space_of(*mode).is_some() {
                    ptr_ty.insert(Value(v as u32), *pt);
                }
            }
        }
    }
    let mut desc = HashMap::default();
    for b in &f.blocks {
        for i in &b.insts {
            if let (InstKind::Deref { kind: DerefKind::Var(VarRef::Global(g)), .. }, Some(d)) =
                (&i.kind, i.dst)
            {
                let var = &s.vars[g.0 as usize];
                if matches!(var.mode, Mode::Uniform | Mode::Storage)
                    && matches!(s.types.get(var.ty), Type::Array { .. } | Type::RuntimeArray { .. })
                {
                    desc.insert(d, var.binding.unwrap_or((0, 0)));
                }
            }
        }
    }
    Ctx { s, ptr_ty, desc, global_off, local_off }
}

fn lower_fn(cx: &Ctx<'_>, f: &mut Function) {
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut e = Emitter::new(f);
        for inst in insts {
            if !lower_inst(cx, &mut e, &inst) {
                e.out.push(inst);
            }
        }
        let out = std::mem::take(&mut e.out);
        f.blocks[bi].insts = out;
    }
    for (v, _) in cx.ptr_ty.iter() {
        if let Some(sp) = cx.space(*v) {
            f.values[v.0 as usize] = addr_type(sp);
        }
    }
}

/// Converts an index to the address width (indices are signed in SPIR-V).
fn index(e: &mut Emitter<'_>, i: Value, bits: u8) -> Value {
    let ib = e.f.ty(i).shape().0;
    if ib == bits {
        i
    } else if ib > bits {
        e.alu(AluOp::U2u, bits, 1, vec![i])
    } else {
        e.alu(AluOp::I2i, bits, 1, vec![i])
    }
}

/// `addr + off` where `off` is a value of the address's offset width.
fn add(e: &mut Emitter<'_>, sp: Space, addr: Value, off: Value) -> Value {
    match sp {
        Space::Buffer => {
            let z = e.imm(32, 0);
            let v = e.alu(AluOp::Vec, 32, 2, vec![z, off]);
            e.alu(AluOp::Iadd, 32, 2, vec![addr, v])
        }
        Space::Global => e.alu(AluOp::Iadd, 64, 1, vec![addr, off]),
        _ => e.alu(AluOp::Iadd, 32, 1, vec![addr, off]),
    }
}

fn off_bits(sp: Space) -> u8 {
    if sp == Space::Global {
        64
    } else {
        32
    }
}

fn add_const(e: &mut Emitter<'_>, sp: Space, addr: Value, off: u32) -> Value {
    if off == 0 {
        return addr;
    }
    let c = e.imm(off_bits(sp), u64::from(off));
    add(e, sp, addr, c)
}

fn add_scaled(e: &mut Emitter<'_>, sp: Space, addr: Value, i: Value, stride: u32) -> Value {
    let bits = off_bits(sp);
    let i = index(e, i, bits);
    let st = e.imm(bits, u64::from(stride));
    let off = e.alu(AluOp::Imul, bits, 1, vec![i, st]);
    add(e, sp, addr, off)
}

fn lower_inst(cx: &Ctx<'_>, e: &mut Emitter<'_>, inst: &crate::ir::Inst) -> bool {
    let types = &cx.s.types;
    match (&inst.kind, inst.dst) {
        (InstKind::Deref { kind, parent }, Some(d)) => lower_deref(cx, e, *kind, *parent, d),
        (InstKind::Load { ptr }, Some(d)) => {
            let Some(sp) = cx.space(*ptr) else { return false };
            let t = cx.pointee(*ptr).0;
            let v = load(cx, e, sp, *ptr, t);
            let ty = e.f.ty(v);
            e.emit_to(d, InstKind::Alu(AluOp::Mov, vec![v]), retype(cx, d, ty));
            true
        }
        (InstKind::Store { ptr, value }, _) => {
            let Some(sp) = cx.space(*ptr) else { return false };
            let t = cx.pointee(*ptr).0;
            store(cx, e, sp, *ptr, t, *value);
            true
        }
        (InstKind::Atomic { op, ptr, srcs }, d) => {
            let Some(sp) = cx.space(*ptr) else { return false };
            let kind = InstKind::MemAtomic { space: sp, op: *op, addr: *ptr, srcs: srcs.clone() };
            match d {
                Some(d) => {
                    let ty = e.f.ty(d);
                    e.emit_to(d, kind, ty);
                }
                None => e.emit_void(kind),
            }
            true
        }
        (InstKind::ArrayLength { ptr, member }, Some(d)) => {
            let Some(Space::Buffer) = cx.space(*ptr) else { return false };
            let t = cx.pointee(*ptr).0;
            let off = layout::member_offset(types, t, *member);
            let stride = match types.get(t) {
                Type::Struct { members, .. } => {
                    members.get(*member as usize).map_or(1, |m| layout::array_stride(types, m.ty))
                }
                _ => 1,
            };
            let (z, o) = (e.imm(32, 0), e.imm(32, 1));
            let idx = e.alu(AluOp::ExtractDyn, 32, 1, vec![*ptr, z]);
            let base = e.alu(AluOp::ExtractDyn, 32, 1, vec![*ptr, o]);
            let size = e.emit(InstKind::BufferSize { index: idx }, ValueType::data(32, 1));
            let offc = e.imm(32, u64::from(off));
            let start = e.alu(AluOp::Iadd, 32, 1, vec![base, offc]);
            let end = e.alu(AluOp::Umax, 32, 1, vec![size, start]);
            let bytes = e.alu(AluOp::Isub, 32, 1, vec![end, start]);
            let st = e.imm(32, u64::from(stride.max(1)));
            e.emit_to(d, InstKind::Alu(AluOp::Udiv, vec![bytes, st]), ValueType::data(32, 1));
            true
        }
        _ => false,
    }
}

/// Replaces a deref of an explicit-I/O mode by its address computation; false if the deref
/// is not of such a mode.
fn lower_deref(
    cx: &Ctx<'_>,
    e: &mut Emitter<'_>,
    kind: DerefKind,
    parent: Option<Value>,
    d: Value,
) -> bool {
    let types = &cx.s.types;
    let Some(sp) = cx.space(d) else { return false };
    let at = addr_type(sp);
    let addr = match kind {
        DerefKind::Var(r) => root_addr(cx, e, r, sp),
        DerefKind::Member(m) => {
            let p = parent.unwrap_or(d);
            let off = layout::member_offset(types, cx.pointee(p).0, m);
            add_const(e, sp, p, off)
        }
        DerefKind::Index(i) => {
            let p = parent.unwrap_or(d);
            if let Some(&(set, binding)) = cx.desc.get(&p) {
                let i32v = index(e, i, 32);
                let ri = e.emit(
                    InstKind::ResourceIndex { set, binding, index: i32v },
                    ValueType::data(32, 1),
                );
                let z = e.imm(32, 0);
                e.alu(AluOp::Vec, 32, 2, vec![ri, z])
            } else {
                let stride = layout::child_stride(types, cx.pointee(p).0);
                add_scaled(e, sp, p, i, stride)
            }
        }
        DerefKind::PtrAsArray(i) => {
            let p = parent.unwrap_or(d);
            let stride = cx.ptr_ty.get(&p).map_or(0, |t| layout::array_stride(types, *t));
            add_scaled(e, sp, p, i, stride)
        }
        DerefKind::Cast => parent.unwrap_or(d),
    };
    e.emit_to(d, InstKind::Alu(AluOp::Mov, vec![addr]), at);
    true
}

fn retype(cx: &Ctx<'_>, d: Value, loaded: ValueType) -> ValueType {
    // A loaded buffer reference is an address from now on.
    if cx.ptr_ty.contains_key(&d) {
        ValueType::data(64, 1)
    } else {
        loaded
    }
}

fn root_addr(cx: &Ctx<'_>, e: &mut Emitter<'_>, r: VarRef, sp: Space) -> Value {
    match r {
        VarRef::Global(g) => {
            let var = &cx.s.vars[g.0 as usize];
            match sp {
                Space::Buffer => {
                    let (set, binding) = var.binding.unwrap_or((0, 0));
                    let z = e.imm(32, 0);
                    let ri = e.emit(
                        InstKind::ResourceIndex { set, binding, index: z },
                        ValueType::data(32, 1),
                    );
                    e.alu(AluOp::Vec, 32, 2, vec![ri, z])
                }
                _ => e.imm(32, u64::from(*cx.global_off.get(&g.0).unwrap_or(&0))),
            }
        }
        VarRef::Local(l) => e.imm(32, u64::from(*cx.local_off.get(&l.0).unwrap_or(&0))),
    }
}

/// (element type, count, stride) of a scalar or vector memory type.
fn elems(cx: &Ctx<'_>, t: TypeId) -> (TypeId, u8, u32) {
    let types = &cx.s.types;
    match types.get(t) {
        Type::Vector { elem, count, .. } => (*elem, *count, layout::array_stride(types, t)),
        _ => (t, 1, layout::scalar_size(types, t)),
    }
}

fn load(cx: &Ctx<'_>, e: &mut Emitter<'_>, sp: Space, addr: Value, t: TypeId) -> Value {
    let types = &cx.s.types;
    let (elem, n, stride) = elems(cx, t);
    let size = layout::scalar_size(types, elem);
    let is_bool = matches!(types.get(elem), Type::Bool);
    let mem_bits = (size * 8) as u8;
    let raw = if stride == size {
        e.emit(InstKind::MemLoad { space: sp, addr, align: size }, ValueType::data(mem_bits, n))
    } else {
        let comps: Vec<Value> = (0..u32::from(n))
            .map(|i| {
                let a = add_const(e, sp, addr, i.wrapping_mul(stride));
                e.emit(
                    InstKind::MemLoad { space: sp, addr: a, align: size },
                    ValueType::data(mem_bits, 1),
                )
            })
            .collect();
        e.alu(AluOp::Vec, mem_bits, n, comps)
    };
    if is_bool {
        let z = e.imm(32, 0);
        let zs = if n > 1 { e.alu(AluOp::Vec, 32, n, vec![z; usize::from(n)]) } else { z };
        e.alu(AluOp::Ine, 1, n, vec![raw, zs])
    } else {
        raw
    }
}

fn store(cx: &Ctx<'_>, e: &mut Emitter<'_>, sp: Space, addr: Value, t: TypeId, value: Value) {
    let types = &cx.s.types;
    let (elem, n, stride) = elems(cx, t);
    let size = layout::scalar_size(types, elem);
    let v = if matches!(types.get(elem), Type::Bool) {
        e.alu(AluOp::B2i, 32, n, vec![value])
    } else {
        value
    };
    if stride == size {
        e.emit_void(InstKind::MemStore { space: sp, addr, value: v, align: size });
        return;
    }
    for i in 0..u32::from(n) {
        let a = add_const(e, sp, addr, i.wrapping_mul(stride));
        let ix = e.imm(32, u64::from(i));
        let c = e.alu(AluOp::ExtractDyn, (size * 8) as u8, 1, vec![v, ix]);
        e.emit_void(InstKind::MemStore { space: sp, addr: a, value: c, align: size });
    }
}
