//! The textual form of the IR: stable, one instruction per line, used by golden tests,
//! `FERRUM_DEBUG=ir` and `ferrum-compile --dump ir`.

use std::fmt::Write;

use super::function::{Function, Merge, Shader, Terminator};
use super::inst::{DerefKind, Inst, InstKind, Value, ValueType, VarRef};

fn vt(s: &Shader, t: ValueType) -> String {
    match t {
        ValueType::Data { bits, comps: 1 } => format!("{bits}"),
        ValueType::Data { bits, comps } => format!("{bits}x{comps}"),
        ValueType::Deref(p) => s.types.name(p),
    }
}

fn list(vs: &[Value]) -> String {
    vs.iter().map(|v| format!("%{}", v.0)).collect::<Vec<_>>().join(", ")
}

fn consts(bits: u8, c: &[u64]) -> String {
    let one = |v: u64| {
        if bits == 32 && v > 0xffff && (f32::from_bits(v as u32)).is_finite() {
            format!("0x{v:x} /* {} */", f32::from_bits(v as u32))
        } else if v > 9 {
            format!("0x{v:x}")
        } else {
            format!("{v}")
        }
    };
    c.iter().map(|&v| one(v)).collect::<Vec<_>>().join(", ")
}

fn var_name(s: &Shader, f: &Function, r: VarRef) -> String {
    match r {
        VarRef::Global(v) => format!("@{}", s.vars[v.0 as usize].name),
        VarRef::Local(v) => format!("@{}.l{}", f.locals[v.0 as usize].name, v.0),
    }
}

/// One instruction as text.
pub fn inst_text(s: &Shader, f: &Function, i: &Inst) -> String {
    let body = match &i.kind {
        InstKind::Const(c) => {
            format!("const {}", consts(f.ty(i.dst.unwrap_or(Value(0))).shape().0, c))
        }
        InstKind::Undef => "undef".into(),
        InstKind::Alu(op, srcs) => format!("{} {}", op.name(), list(srcs)),
        InstKind::Phi(srcs) => {
            let p: Vec<String> = srcs.iter().map(|(b, v)| format!("b{}: %{}", b.0, v.0)).collect();
            format!("phi {}", p.join(", "))
        }
        InstKind::Deref { kind, parent } => {
            let p = parent.map(|p| format!("%{}", p.0)).unwrap_or_default();
            match kind {
                DerefKind::Var(r) => format!("deref_var {}", var_name(s, f, *r)),
                DerefKind::Member(m) => format!("deref_struct {p}.{m}"),
                DerefKind::Index(ix) => format!("deref_array {p}[%{}]", ix.0),
                DerefKind::PtrAsArray(ix) => format!("deref_ptr_as_array {p}[%{}]", ix.0),
                DerefKind::Cast => format!("deref_cast {p}"),
            }
        }
        InstKind::Load { ptr } => format!("load %{}", ptr.0),
        InstKind::Store { ptr, value } => format!("store %{}, %{}", ptr.0, value.0),
        InstKind::Atomic { op, ptr, srcs } => {
            format!("atomic_{op:?} %{}, {}", ptr.0, list(srcs)).to_lowercase()
        }
        InstKind::ArrayLength { ptr, member } => format!("array_length %{}.{member}", ptr.0),
        InstKind::MemLoad { space, addr, align } => {
            format!("load_{space:?} %{} align={align}", addr.0).to_lowercase()
        }
        InstKind::MemStore { space, addr, value, align } => {
            format!("store_{space:?} %{}, %{} align={align}", addr.0, value.0).to_lowercase()
        }
        InstKind::MemAtomic { space, op, addr, srcs } => {
            format!("atomic_{op:?}_{space:?} %{}, {}", addr.0, list(srcs)).to_lowercase()
        }
        InstKind::ResourceIndex { set, binding, index } => {
            format!("resource_index set={set} binding={binding} [%{}]", index.0)
        }
        InstKind::BufferSize { index } => format!("buffer_size %{}", index.0),
        InstKind::SysVal(sv) => format!("load_sysval {sv:?}"),
        InstKind::IoLoad { slot, comp, output, at } => {
            let what = if *output { "load_output" } else { "load_input" };
            format!("{what} {} comp={comp}{}", slot_text(*slot), at_text(at))
        }
        InstKind::InterpolateAt { ptr, at } => format!("interpolate %{}{}", ptr.0, at_text(at)),
        InstKind::IoStore { slot, comp, value } => {
            let n = f.ty(*value).shape().1;
            let mask = ((1u32 << n) - 1) << comp;
            format!(
                "store_output {} comp={comp} %{} writemask=0b{mask:04b}",
                slot_text(*slot),
                value.0
            )
        }
        InstKind::Barrier { exec, memory } => {
            let what = if *exec { "barrier" } else { "memory_barrier" };
            let shared = if memory.workgroup { " shared" } else { "" };
            let device = if memory.device { " device" } else { "" };
            format!("{what}{shared}{device}")
        }
        InstKind::Image(im) => {
            let mut t = format!("image_{:?} {}", im.op, list(&im.srcs)).to_lowercase();
            let sh = im.shape;
            let _ = write!(
                t,
                " {:?}{}{} args=0x{:x}",
                sh.dim,
                if sh.arrayed { "[]" } else { "" },
                if sh.ms { "ms" } else { "" },
                im.args.0
            );
            if let Some(o) = im.offset {
                let _ = write!(t, " offset={o:?}");
            }
            t
        }
        InstKind::Demote => "demote".into(),
        InstKind::KillIf(c) => format!("kill_if %{}", c.0),
        InstKind::DemoteIf(c) => format!("demote_if %{}", c.0),
        InstKind::IsHelper => "is_helper".into(),
        InstKind::Subgroup { op, srcs } => format!("subgroup_{} {}", op.name(), list(srcs)),
        InstKind::Call { func, args, rets } => {
            let r = if rets.is_empty() { String::new() } else { format!("{} = ", list(rets)) };
            return format!("{r}call {}({})", s.funcs[func.0 as usize].name, list(args));
        }
    };
    match i.dst {
        Some(d) => format!("%{}: {} = {body}", d.0, vt(s, f.ty(d))),
        None => body,
    }
}

fn slot_text(s: super::inst::IoSlot) -> String {
    match s {
        super::inst::IoSlot::Location(l) => format!("loc={l}"),
        super::inst::IoSlot::Builtin(b) => format!("{b:?}"),
    }
}

fn term_text(t: &Terminator) -> String {
    match t {
        Terminator::Branch(b) => format!("br b{}", b.0),
        Terminator::CondBranch { cond, then, els } => {
            format!("br %{} ? b{} : b{}", cond.0, then.0, els.0)
        }
        Terminator::Switch { sel, default, cases } => {
            let c: Vec<String> = cases.iter().map(|(v, b)| format!("{v}: b{}", b.0)).collect();
            format!("switch %{} [{}] default: b{}", sel.0, c.join(", "), default.0)
        }
        Terminator::Return(v) if v.is_empty() => "return".into(),
        Terminator::Return(v) => format!("return {}", list(v)),
        Terminator::Kill => "kill".into(),
        Terminator::Unreachable => "unreachable".into(),
    }
}

/// One function as text.
pub fn function_text(s: &Shader, f: &Function) -> String {
    let mut o = String::new();
    let params: Vec<String> =
        f.params.iter().map(|p| format!("%{}: {}", p.0, vt(s, f.ty(*p)))).collect();
    let rets: Vec<String> = f.ret_types.iter().map(|t| vt(s, *t)).collect();
    let _ = writeln!(o, "fn {}({}) -> ({}) {{", f.name, params.join(", "), rets.join(", "));
    for (i, l) in f.locals.iter().enumerate() {
        let _ = writeln!(o, "  local @{}.l{i}: {}", l.name, s.types.name(l.ty));
    }
    for (bi, b) in f.blocks.iter().enumerate() {
        let m = match b.merge {
            Some(Merge::Selection(m)) => format!("  // selection merge b{}", m.0),
            Some(Merge::Loop { merge, cont }) => {
                format!("  // loop merge b{} continue b{}", merge.0, cont.0)
            }
            None => String::new(),
        };
        let _ = writeln!(o, "b{bi}:{m}");
        for i in &b.insts {
            let _ = writeln!(o, "  {}", inst_text(s, f, i));
        }
        let _ = writeln!(o, "  {}", term_text(&b.term));
    }
    o.push_str("}\n");
    o
}

/// The whole shader as text.
pub fn shader_text(s: &Shader) -> String {
    let mut o = format!("shader {:?}", s.stage).to_lowercase();
    if s.stage == super::function::Stage::Compute {
        let w = s.workgroup_size;
        let _ = write!(o, " local_size({}, {}, {})", w[0], w[1], w[2]);
    }
    if s.shared_size > 0 || s.scratch_size > 0 {
        let _ = write!(o, " shared={} scratch={}", s.shared_size, s.scratch_size);
    }
    o.push('\n');
    for d in s.types.struct_decls() {
        let _ = writeln!(o, "type {d}");
    }
    for v in &s.vars {
        let mut extra = String::new();
        if let Some((set, b)) = v.binding {
            let _ = write!(extra, " set={set} binding={b}");
        }
        if let Some((l, c)) = v.location {
            let _ = write!(extra, " location={l} component={c}");
        }
        if let Some(sv) = v.sysval {
            let _ = write!(extra, " {sv:?}");
        }
        let _ = writeln!(o, "var {} @{}: {}{extra}", v.mode.name(), v.name, s.types.name(v.ty));
    }
    for f in &s.funcs {
        o.push('\n');
        o.push_str(&function_text(s, f));
    }
    o
}

/// ` at=...` of an interpolated load (nothing for the input's own location).
fn at_text(at: &crate::ir::InterpAt) -> String {
    use crate::ir::InterpAt as A;
    match at {
        A::Default => String::new(),
        A::Centroid => " at=centroid".into(),
        A::Sample(v) => format!(" at=sample(%{})", v.0),
        A::Offset(v) => format!(" at=offset(%{})", v.0),
    }
}
