//! `lower_system_values`: replaces loads of built-in input variables with `load_sysval`
//! intrinsics the backend provides (local invocation id, workgroup id, number of workgroups,
//! subgroup invocation id) and arithmetic for the derived ones (global invocation id,
//! local invocation index, subgroup size).
//!
//! Afterwards no instruction loads through a deref of a `SystemValue` variable.

use rustc_hash::FxHashMap as HashMap;

use super::Emitter;
use crate::ir::{
    AluOp, DerefKind, Function, InstKind, Mode, Shader, SysVal, Value, ValueType, VarRef,
};

/// Lowers system-value loads in every function.
pub fn lower_system_values(s: &mut Shader) {
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        lower(s, &mut f);
        s.funcs[fi] = f;
    }
}

/// Derefs rooted at system-value variables: value → (system value, component index).
fn roots(s: &Shader, f: &Function) -> HashMap<Value, (SysVal, Option<Value>, ValueType)> {
    let mut m: HashMap<Value, (SysVal, Option<Value>, ValueType)> = HashMap::default();
    let cfg = crate::analysis::cfg::Cfg::new(f);
    for b in &cfg.rpo {
        for inst in &f.block(*b).insts {
            let Some(d) = inst.dst else { continue };
            match &inst.kind {
                InstKind::Deref { kind: DerefKind::Var(VarRef::Global(g)), .. } => {
                    let var = &s.vars[g.0 as usize];
                    if let (Mode::SystemValue, Some(sv)) = (var.mode, var.sysval) {
                        let (bits, comps) = s.types.value_shape(var.ty).unwrap_or((32, 1));
                        m.insert(d, (sv, None, ValueType::data(bits, comps)));
                    }
                }
                InstKind::Deref { kind: DerefKind::Index(ix), parent: Some(p) } => {
                    if let Some((sv, None, vt)) = m.get(p).copied() {
                        m.insert(d, (sv, Some(*ix), vt));
                    }
                }
                _ => {}
            }
        }
    }
    m
}

fn value(e: &mut Emitter<'_>, s: &Shader, sv: SysVal, vt: ValueType) -> Value {
    let v3 = ValueType::data(32, 3);
    let w = s.workgroup_size;
    match sv {
        SysVal::GlobalInvocationId => {
            let g = e.emit(InstKind::SysVal(SysVal::WorkgroupId), v3);
            let l = e.emit(InstKind::SysVal(SysVal::LocalInvocationId), v3);
            let size = e.emit(InstKind::Const(w.iter().map(|&x| u64::from(x)).collect()), v3);
            let m = e.alu(AluOp::Imul, 32, 3, vec![g, size]);
            e.alu(AluOp::Iadd, 32, 3, vec![m, l])
        }
        SysVal::LocalInvocationIndex => {
            let l = e.emit(InstKind::SysVal(SysVal::LocalInvocationId), v3);
            let c: Vec<Value> = (0..3)
                .map(|i| {
                    let ix = e.imm(32, i);
                    e.alu(AluOp::ExtractDyn, 32, 1, vec![l, ix])
                })
                .collect();
            let wx = e.imm(32, u64::from(w[0]));
            let wxy = e.imm(32, u64::from(w[0] * w[1]));
            let zz = e.alu(AluOp::Imul, 32, 1, vec![c[2], wxy]);
            let yy = e.alu(AluOp::Imul, 32, 1, vec![c[1], wx]);
            let t = e.alu(AluOp::Iadd, 32, 1, vec![zz, yy]);
            e.alu(AluOp::Iadd, 32, 1, vec![t, c[0]])
        }
        SysVal::SubgroupSize => e.imm(32, 32),
        SysVal::SubgroupId => {
            let idx = value(e, s, SysVal::LocalInvocationIndex, vt);
            let five = e.imm(32, 5);
            e.alu(AluOp::Ushr, 32, 1, vec![idx, five])
        }
        SysVal::NumSubgroups => e.imm(32, u64::from((w[0] * w[1] * w[2]).div_ceil(32))),
        SysVal::SubgroupEqMask
        | SysVal::SubgroupGeMask
        | SysVal::SubgroupGtMask
        | SysVal::SubgroupLeMask
        | SysVal::SubgroupLtMask => {
            // Masks are shifts of a constant by the lane id; the upper three dwords are zero.
            let id = e.emit(InstKind::SysVal(SysVal::SubgroupInvocationId), ValueType::data(32, 1));
            let (k, invert) = match sv {
                SysVal::SubgroupEqMask => (1, false),
                SysVal::SubgroupGeMask => (0xffff_ffff, false),
                SysVal::SubgroupGtMask => (0xffff_fffe, false),
                SysVal::SubgroupLeMask => (0xffff_fffe, true),
                _ => (0xffff_ffff, true),
            };
            let k = e.imm(32, k);
            let mut m = e.alu(AluOp::Ishl, 32, 1, vec![k, id]);
            if invert {
                m = e.alu(AluOp::Inot, 32, 1, vec![m]);
            }
            let z = e.imm(32, 0);
            e.alu(AluOp::Vec, 32, 4, vec![m, z, z, z])
        }
        SysVal::LocalInvocationId | SysVal::WorkgroupId | SysVal::NumWorkgroups => {
            e.emit(InstKind::SysVal(sv), v3)
        }
        SysVal::HelperInvocation => e.emit(InstKind::IsHelper, vt),
        other => e.emit(InstKind::SysVal(other), vt),
    }
}

fn lower(s: &Shader, f: &mut Function) {
    let roots = roots(s, f);
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut e = Emitter::new(f);
        for inst in insts {
            let (InstKind::Load { ptr }, Some(dst)) = (&inst.kind, inst.dst) else {
                e.out.push(inst);
                continue;
            };
            let Some(&(sv, comp, vt)) = roots.get(ptr) else {
                e.out.push(inst);
                continue;
            };
            let whole = value(&mut e, s, sv, vt);
            let ty = e.f.ty(dst);
            match comp {
                Some(c) => e.emit_to(dst, InstKind::Alu(AluOp::ExtractDyn, vec![whole, c]), ty),
                None => e.emit_to(dst, InstKind::Alu(AluOp::Mov, vec![whole]), ty),
            }
        }
        let out = std::mem::take(&mut e.out);
        f.blocks[bi].insts = out;
    }
}
