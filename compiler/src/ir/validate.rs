//! The IR validator, run between passes in debug builds and with `FERRUM_DEBUG=validate`.
//!
//! It checks SSA form (single definitions, definitions dominate uses, φ sources match
//! predecessors), operand kinds (loads and stores go through derefs, deref parents are derefs)
//! and, once lowering has happened, that no deref of an explicit-I/O mode survives.

use thiserror::Error;

use super::function::{Function, Shader};
use super::inst::{DerefKind, InstKind, Value, ValueType};
use crate::analysis::dominance::Dominance;

/// A broken IR invariant, with the function and the offending instruction.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("invalid IR in fn {func}: {msg}")]
pub struct ValidationError {
    /// Function name.
    pub func: String,
    /// What is wrong.
    pub msg: String,
}

/// What stage of the pipeline the shader is at.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expect {
    /// Explicit-I/O derefs must be gone.
    pub explicit_io_lowered: bool,
    /// Calls must be gone.
    pub inlined: bool,
}

/// Validates every function of `s`.
pub fn validate(s: &Shader, expect: Expect) -> Result<(), ValidationError> {
    for f in &s.funcs {
        validate_fn(s, f, expect).map_err(|msg| ValidationError { func: f.name.clone(), msg })?;
    }
    Ok(())
}

fn validate_fn(s: &Shader, f: &Function, expect: Expect) -> Result<(), String> {
    let dom = Dominance::new(f);
    let cfg = dom.cfg();
    let nv = f.values.len();
    let mut def: Vec<Option<(u32, usize)>> = vec![None; nv];
    for p in &f.params {
        def[p.0 as usize] = Some((0, 0));
    }
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, i) in b.insts.iter().enumerate() {
            for d in i.defs() {
                if d.0 as usize >= nv {
                    return Err(format!("%{} out of range", d.0));
                }
                if def[d.0 as usize].is_some() {
                    return Err(format!("%{} defined twice", d.0));
                }
                def[d.0 as usize] = Some((bi as u32, ii + 1));
            }
        }
        for s in b.term.succs() {
            if s.0 as usize >= f.blocks.len() {
                return Err(format!("b{bi} branches to missing b{}", s.0));
            }
        }
    }
    let check_use = |v: Value, bi: usize, pos: usize, what: &str| -> Result<(), String> {
        let Some(Some((db, di))) = def.get(v.0 as usize) else {
            return Err(format!("{what} in b{bi} uses undefined %{}", v.0));
        };
        let ok = if *db as usize == bi {
            *di <= pos
        } else {
            dom.dominates(crate::ir::BlockId(*db), crate::ir::BlockId(bi as u32))
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{what} in b{bi} uses %{} before its definition", v.0))
        }
    };
    for &b in &cfg.rpo {
        let bi = b.0 as usize;
        let block = &f.blocks[bi];
        let mut seen_non_phi = false;
        for (ii, inst) in block.insts.iter().enumerate() {
            let what = super::print::inst_text(s, f, inst);
            if let InstKind::Phi(srcs) = &inst.kind {
                if seen_non_phi {
                    return Err(format!("phi after non-phi: {what}"));
                }
                check_phi(cfg, bi, srcs, &what, &check_use)?;
                continue;
            }
            seen_non_phi = true;
            let mut err = Ok(());
            inst.for_each_src(|v| {
                if err.is_ok() {
                    err = check_use(v, bi, ii + 1, &what);
                }
            });
            err?;
            check_kinds(s, f, inst, expect).map_err(|e| format!("{what}: {e}"))?;
        }
        let mut t = block.term.clone();
        for v in t.srcs_mut() {
            check_use(*v, bi, usize::MAX, "terminator")?;
        }
    }
    Ok(())
}

/// Checks that a value used in block `b` at position `pos` is defined before it.
type UseCheck<'a> = dyn Fn(Value, usize, usize, &str) -> Result<(), String> + 'a;

/// A φ has exactly one source per reachable predecessor, each defined by the end of it.
fn check_phi(
    cfg: &crate::analysis::cfg::Cfg,
    bi: usize,
    srcs: &[(crate::ir::BlockId, Value)],
    what: &str,
    check_use: &UseCheck<'_>,
) -> Result<(), String> {
    let preds = &cfg.preds[bi];
    for p in preds {
        if !srcs.iter().any(|(sb, _)| sb == p) {
            return Err(format!("{what}: no source for predecessor b{}", p.0));
        }
    }
    for (pb, v) in srcs {
        if !cfg.reachable(*pb) {
            continue;
        }
        if !preds.contains(pb) {
            return Err(format!("{what}: b{} is not a predecessor", pb.0));
        }
        check_use(*v, pb.0 as usize, usize::MAX, what)?;
    }
    Ok(())
}

fn is_deref(f: &Function, v: Value) -> bool {
    matches!(f.ty(v), ValueType::Deref(_))
}

fn check_kinds(s: &Shader, f: &Function, inst: &crate::ir::Inst, e: Expect) -> Result<(), String> {
    match &inst.kind {
        InstKind::Alu(op, srcs) => {
            if op.num_srcs() != 0 && op.num_srcs() != srcs.len() {
                return Err("wrong number of sources".into());
            }
            // Selects and copies of pointers are how variable pointers look in the IR.
            if !matches!(
                op,
                crate::ir::AluOp::Bcsel | crate::ir::AluOp::Mov | crate::ir::AluOp::Bitcast
            ) && srcs.iter().any(|v| is_deref(f, *v))
            {
                return Err("ALU op on a deref".into());
            }
        }
        InstKind::Load { ptr }
        | InstKind::InterpolateAt { ptr, .. }
        | InstKind::Atomic { ptr, .. }
        | InstKind::Store { ptr, .. }
        | InstKind::ArrayLength { ptr, .. } => {
            if !is_deref(f, *ptr) {
                return Err("memory access through a non-deref".into());
            }
            if e.explicit_io_lowered && s.deref_mode(f, *ptr).is_some_and(|m| m.is_explicit_io()) {
                return Err("explicit-I/O deref survived lowering".into());
            }
        }
        InstKind::Deref { kind, parent } => {
            let Some(dst) = inst.dst else { return Err("deref without result".into()) };
            if !is_deref(f, dst) {
                return Err("deref result is not a pointer".into());
            }
            match (kind, parent) {
                (DerefKind::Var(_), None) => {}
                (DerefKind::Var(_), Some(_)) => return Err("deref_var with a parent".into()),
                (DerefKind::Cast, Some(_)) => {}
                (_, Some(p)) if is_deref(f, *p) => {}
                _ => return Err("deref parent is not a deref".into()),
            }
            if e.explicit_io_lowered && s.deref_mode(f, dst).is_some_and(|m| m.is_explicit_io()) {
                return Err("explicit-I/O deref survived lowering".into());
            }
        }
        InstKind::Image(im) if im.srcs.len() != im.args.count() => {
            return Err("image sources do not match their argument mask".into())
        }
        InstKind::Call { .. } if e.inlined => return Err("call survived inlining".into()),
        _ => {}
    }
    Ok(())
}
