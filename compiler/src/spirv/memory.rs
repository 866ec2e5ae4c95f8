//! Memory instructions: variables, access chains, loads and stores of value trees, copies,
//! atomics and pointer casts.

use rspirv::dr::Instruction;
use spirv::Op;

use super::function::{FnCtx, Tree};
use super::module::{leaf_type, CTree};
use super::operands::{bad, id, lit, opname, result};
use crate::error::CompileError;
use crate::ir::{
    AluOp, AtomicOp, DerefKind, InstKind, Mode, Type, TypeId, Value, ValueType, VarRef, Variable,
};

impl FnCtx<'_, '_> {
    /// Deref of child `ix` (a constant index or a value) of the deref `ptr`.
    pub fn child_deref(
        &mut self,
        ptr: Value,
        ix: Result<u32, Value>,
    ) -> Result<Value, CompileError> {
        let ValueType::Deref(pt) = self.f.ty(ptr) else {
            return Err(CompileError::invalid("access chain", "base is not a pointer"));
        };
        let Type::Pointer { pointee, mode, .. } = self.m.shader.types.get(pt).clone() else {
            return Err(CompileError::invalid("access chain", "base is not a pointer"));
        };
        let is_struct = matches!(self.m.shader.types.get(pointee), Type::Struct { .. });
        let (kind, ci) = match ix {
            Ok(c) if is_struct => (DerefKind::Member(c), c),
            Ok(c) => (DerefKind::Index(self.imm(32, u64::from(c))), c),
            Err(_) if is_struct => {
                return Err(CompileError::invalid("access chain", "dynamic struct index"))
            }
            Err(v) => (DerefKind::Index(v), 0),
        };
        let child = self.m.shader.types.child(pointee, ci).ok_or_else(|| {
            CompileError::invalid(
                "access chain",
                format!("cannot index {}", self.m.shader.types.name(pointee)),
            )
        })?;
        let cpt = self.m.shader.types.pointer(child, mode, None);
        Ok(self.emit(InstKind::Deref { kind, parent: Some(ptr) }, ValueType::Deref(cpt)))
    }

    /// Pointee type and mode of a deref value.
    pub fn pointee(&self, ptr: Value) -> Result<(TypeId, Mode), CompileError> {
        if let ValueType::Deref(pt) = self.f.ty(ptr) {
            if let Type::Pointer { pointee, mode, .. } = self.m.shader.types.get(pt) {
                return Ok((*pointee, *mode));
            }
        }
        Err(CompileError::invalid("memory access", "operand is not a pointer"))
    }

    /// Loads the whole value behind `ptr`, one load per leaf.
    pub fn load_tree(&mut self, ptr: Value) -> Result<Tree, CompileError> {
        let (t, _) = self.pointee(ptr)?;
        self.check_tree_size(t)?;
        if matches!(
            self.m.shader.types.get(t),
            Type::Image { .. } | Type::Sampler | Type::SampledImage { .. }
        ) {
            return Ok(Tree::Leaf(ptr));
        }
        if let Some(vt) = leaf_type(&self.m.shader.types, t) {
            return Ok(Tree::Leaf(self.emit(InstKind::Load { ptr }, vt)));
        }
        let n = self
            .composite_len(t)
            .ok_or_else(|| CompileError::invalid("OpLoad", "cannot load a runtime array"))?;
        let mut k = Vec::new();
        for i in 0..n {
            let c = self.child_deref(ptr, Ok(i))?;
            k.push(self.load_tree(c)?);
        }
        Ok(Tree::Node(k))
    }

    /// Stores `val` through `ptr`, one store per leaf.
    pub fn store_tree(&mut self, ptr: Value, val: &Tree) -> Result<(), CompileError> {
        match val {
            Tree::Leaf(v) => {
                self.emit_void(InstKind::Store { ptr, value: *v });
                Ok(())
            }
            Tree::Node(k) => {
                for (i, c) in k.iter().enumerate() {
                    let cp = self.child_deref(ptr, Ok(i as u32))?;
                    self.store_tree(cp, c)?;
                }
                Ok(())
            }
        }
    }

    fn access_chain(&mut self, inst: &Instruction, ptr_as_array: bool) -> Result<(), CompileError> {
        let mut ptr = self.leaf(inst, 0)?;
        let mut first = 1;
        if ptr_as_array {
            let e = self.leaf(inst, 1)?;
            let ValueType::Deref(pt) = self.f.ty(ptr) else {
                return Err(bad(inst, "base is not a pointer"));
            };
            ptr = self.emit(
                InstKind::Deref { kind: DerefKind::PtrAsArray(e), parent: Some(ptr) },
                ValueType::Deref(pt),
            );
            first = 2;
        }
        for i in first..inst.operands.len() {
            let x = id(inst, i)?;
            let ix = match self.m.consts.get(&x) {
                Some(CTree::Leaf(_, c)) if c.len() == 1 => Ok(c[0] as u32),
                _ => Err(self.leaf(inst, i)?),
            };
            ptr = self.child_deref(ptr, ix).map_err(|e| bad(inst, &e.to_string()))?;
        }
        // The result keeps the computed (layout-carrying) pointee but takes the ArrayStride of
        // the declared result pointer type, which OpPtrAccessChain on it will use.
        let rt = self.rtype(inst)?;
        if let Type::Pointer { stride: Some(s), .. } = self.m.shader.types.get(rt).clone() {
            let (pointee, mode) = self.pointee(ptr)?;
            let pt = self.m.shader.types.pointer(pointee, mode, Some(s));
            ptr = self.emit(
                InstKind::Deref { kind: DerefKind::Cast, parent: Some(ptr) },
                ValueType::Deref(pt),
            );
        }
        self.set(inst, Tree::Leaf(ptr))
    }

    fn local_var(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let pt = self.rtype(inst)?;
        let Type::Pointer { pointee, mode, .. } = self.m.shader.types.get(pt).clone() else {
            return Err(bad(inst, "variable type is not a pointer"));
        };
        if mode != Mode::Function {
            return Err(bad(inst, "non-function variable inside a function"));
        }
        let r = result(inst)?;
        let name = self.m.names.get(&r).cloned().unwrap_or_else(|| "tmp".into());
        self.f.locals.push(Variable::new(name, pointee, mode));
        let var = crate::ir::VarId(self.f.locals.len() as u32 - 1);
        let d = self.emit(
            InstKind::Deref { kind: DerefKind::Var(VarRef::Local(var)), parent: None },
            ValueType::Deref(pt),
        );
        self.set(inst, Tree::Leaf(d))?;
        if inst.operands.len() > 1 {
            let init = self.value(id(inst, 1)?)?;
            self.store_tree(d, &init)?;
        }
        Ok(())
    }

    fn atomic(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let (op, data): (AtomicOp, &[usize]) = match inst.class.opcode {
            Op::AtomicLoad => (AtomicOp::Load, &[]),
            Op::AtomicStore => (AtomicOp::Store, &[3]),
            Op::AtomicExchange => (AtomicOp::Xchg, &[3]),
            Op::AtomicCompareExchange => (AtomicOp::CmpXchg, &[4, 5]),
            // Increment and decrement have no value operand: the ±1 is added below.
            Op::AtomicIIncrement | Op::AtomicIDecrement => (AtomicOp::Add, &[]),
            Op::AtomicISub | Op::AtomicIAdd => (AtomicOp::Add, &[3]),
            Op::AtomicSMin => (AtomicOp::Imin, &[3]),
            Op::AtomicUMin => (AtomicOp::Umin, &[3]),
            Op::AtomicSMax => (AtomicOp::Imax, &[3]),
            Op::AtomicUMax => (AtomicOp::Umax, &[3]),
            Op::AtomicAnd => (AtomicOp::And, &[3]),
            Op::AtomicOr => (AtomicOp::Or, &[3]),
            Op::AtomicXor => (AtomicOp::Xor, &[3]),
            _ => return Err(CompileError::unsupported(opname(inst), "atomic")),
        };
        let p = id(inst, 0)?;
        let mut srcs = Vec::new();
        for &i in data {
            srcs.push(self.leaf(inst, i)?);
        }
        let vt = if op == AtomicOp::Store { None } else { Some(self.rvt(inst)?) };
        let bits = vt.map_or_else(|| self.f.ty(srcs[0]).shape().0, |v| v.shape().0);
        match inst.class.opcode {
            Op::AtomicIIncrement => srcs.push(self.imm(bits, 1)),
            Op::AtomicIDecrement => srcs.push(self.imm(bits, crate::ir::ops::mask(bits))),
            Op::AtomicISub => {
                let v =
                    self.emit(InstKind::Alu(AluOp::Ineg, vec![srcs[0]]), ValueType::data(bits, 1));
                srcs[0] = v;
            }
            _ => {}
        }
        if let Some(&tp) = self.texel_ptrs.get(&p) {
            let kind = InstKind::Image(self.texel_atomic(inst, op, tp, &srcs)?);
            match vt {
                Some(vt) => {
                    let v = self.emit(kind, vt);
                    self.set(inst, Tree::Leaf(v))?;
                }
                None => self.emit_void(kind),
            }
            return Ok(());
        }
        let ptr = self.leaf(inst, 0)?;
        match vt {
            Some(vt) => {
                let v = self.emit(InstKind::Atomic { op, ptr, srcs }, vt);
                self.set(inst, Tree::Leaf(v))
            }
            None => {
                self.emit_void(InstKind::Atomic { op, ptr, srcs });
                Ok(())
            }
        }
    }

    pub(super) fn memory_inst(&mut self, inst: &Instruction) -> Result<bool, CompileError> {
        match inst.class.opcode {
            Op::Variable => self.local_var(inst)?,
            Op::Load => {
                let p = self.leaf(inst, 0)?;
                let t = self.load_tree(p)?;
                self.set(inst, t)?;
            }
            Op::Store => {
                let p = self.leaf(inst, 0)?;
                let v = self.value(id(inst, 1)?)?;
                self.store_tree(p, &v)?;
            }
            Op::AccessChain | Op::InBoundsAccessChain => self.access_chain(inst, false)?,
            Op::PtrAccessChain | Op::InBoundsPtrAccessChain => self.access_chain(inst, true)?,
            Op::CopyMemory => {
                let (dst, src) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let v = self.load_tree(src)?;
                self.store_tree(dst, &v)?;
            }
            Op::CopyObject | Op::CopyLogical => {
                let v = self.value(id(inst, 0)?)?;
                self.set(inst, v)?;
            }
            Op::ArrayLength => {
                let ptr = self.leaf(inst, 0)?;
                let member = lit(inst, 1)?;
                let (t, _) = self.pointee(ptr)?;
                let ok = match self.m.shader.types.get(t) {
                    Type::Struct { members, .. } => {
                        member as usize + 1 == members.len()
                            && members.last().is_some_and(|m| {
                                matches!(self.m.shader.types.get(m.ty), Type::RuntimeArray { .. })
                            })
                    }
                    _ => false,
                };
                if !ok {
                    return Err(bad(inst, "member is not a trailing runtime array"));
                }
                let v = self.emit(InstKind::ArrayLength { ptr, member }, ValueType::data(32, 1));
                self.set(inst, Tree::Leaf(v))?;
            }
            Op::ConvertUToPtr | Op::ConvertPtrToU | Op::Bitcast => self.cast_inst(inst)?,
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor => self.atomic(inst)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Pointer/integer conversions and bitcasts.
    fn cast_inst(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        match inst.class.opcode {
            Op::ConvertUToPtr => {
                let a = self.leaf(inst, 0)?;
                let rt = self.rtype(inst)?;
                if self.f.ty(a).shape() != (64, 1) {
                    return Err(CompileError::unsupported(
                        opname(inst),
                        "address is not a 64-bit scalar",
                    ));
                }
                let v = self.emit(
                    InstKind::Deref { kind: DerefKind::Cast, parent: Some(a) },
                    ValueType::Deref(rt),
                );
                self.set(inst, Tree::Leaf(v))?;
            }
            Op::ConvertPtrToU => {
                // A bitcast of a global pointer: an address once lowered.
                let p = self.leaf(inst, 0)?;
                if self.pointee(p)?.1 != Mode::Global || self.rvt(inst)?.shape() != (64, 1) {
                    return Err(CompileError::unsupported(
                        opname(inst),
                        "only 64-bit buffer-device addresses",
                    ));
                }
                let v = self.emit(InstKind::Alu(AluOp::Bitcast, vec![p]), ValueType::data(64, 1));
                self.set(inst, Tree::Leaf(v))?;
            }
            Op::Bitcast => {
                let a = self.leaf(inst, 0)?;
                let rt = self.rtype(inst)?;
                let vt = self.rvt(inst)?;
                let src = self.f.ty(a);
                let v = match (src, vt) {
                    (ValueType::Data { bits: 64, comps: 1 }, ValueType::Deref(_)) => self.emit(
                        InstKind::Deref { kind: DerefKind::Cast, parent: Some(a) },
                        ValueType::Deref(rt),
                    ),
                    // GL_EXT_buffer_reference_uvec2: the address as two 32-bit halves.
                    (ValueType::Data { bits: 32, comps: 2 }, ValueType::Deref(_)) => {
                        let a64 = self
                            .emit(InstKind::Alu(AluOp::Bitcast, vec![a]), ValueType::data(64, 1));
                        self.emit(
                            InstKind::Deref { kind: DerefKind::Cast, parent: Some(a64) },
                            ValueType::Deref(rt),
                        )
                    }
                    // A buffer-device address as a 64-bit integer or (uvec2) two halves: what
                    // ConvertPtrToU does, then a split for the vector.
                    (ValueType::Deref(_), ValueType::Data { bits, comps })
                        if u32::from(bits) * u32::from(comps) == 64 =>
                    {
                        if self.pointee(a)?.1 != Mode::Global {
                            return Err(CompileError::unsupported(
                                opname(inst),
                                "bitcast of a pointer that is not a buffer-device address",
                            ));
                        }
                        let a64 = self
                            .emit(InstKind::Alu(AluOp::Bitcast, vec![a]), ValueType::data(64, 1));
                        if bits == 64 {
                            a64
                        } else {
                            self.emit(InstKind::Alu(AluOp::Bitcast, vec![a64]), vt)
                        }
                    }
                    (ValueType::Data { bits: sb, comps: sc }, ValueType::Data { bits, comps })
                        if u32::from(sb) * u32::from(sc) == u32::from(bits) * u32::from(comps) =>
                    {
                        let op = if sb == bits { AluOp::Mov } else { AluOp::Bitcast };
                        self.emit(InstKind::Alu(op, vec![a]), vt)
                    }
                    _ => {
                        return Err(CompileError::unsupported(
                            opname(inst),
                            "bitcast between these types",
                        ))
                    }
                };
                self.set(inst, Tree::Leaf(v))?;
            }
            _ => return Err(bad(inst, "not a cast")),
        }
        Ok(())
    }
}
