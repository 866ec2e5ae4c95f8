//! Alias analysis on deref chains: must, may or no alias.
//!
//! A deref is described by its root (a variable, or an opaque pointer such as a φ, a loaded
//! buffer reference or a cast) and its steps. Two derefs with the same root and the same steps
//! (dynamic indices compared as SSA values, which CSE makes canonical) must alias; a differing
//! member or constant index proves they do not. Distinct buffer bindings may alias (Vulkan lets
//! descriptors share memory); distinct workgroup, private and function variables never do.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{DerefKind, Function, InstKind, Mode, Shader, Type, Value, ValueType, VarRef};

/// The answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alias {
    /// Same memory.
    Must,
    /// Possibly overlapping.
    May,
    /// Disjoint.
    No,
}

/// Where a chain starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// A variable.
    Var(VarRef),
    /// Any other pointer value.
    Opaque(Value),
}

/// One step of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Struct member.
    Member(u32),
    /// Constant index.
    Const(u64),
    /// Dynamic index (or pointer arithmetic).
    Dyn(Value),
}

/// A deref chain in canonical form, with its memory mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// Root.
    pub root: Root,
    /// Steps from the root.
    pub steps: Vec<Step>,
    /// Memory mode.
    pub mode: Mode,
}

/// Paths of every deref value of a function.
pub fn paths(s: &Shader, f: &Function) -> HashMap<Value, Path> {
    let mut consts: HashMap<Value, u64> = HashMap::default();
    let mut out: HashMap<Value, Path> = HashMap::default();
    let cfg = crate::analysis::cfg::Cfg::new(f);
    for b in &cfg.rpo {
        for inst in &f.block(*b).insts {
            let Some(d) = inst.dst else { continue };
            if let InstKind::Const(c) = &inst.kind {
                if c.len() == 1 {
                    consts.insert(d, c[0]);
                }
            }
            let ValueType::Deref(pt) = f.ty(d) else { continue };
            let Type::Pointer { mode, .. } = s.types.get(pt) else { continue };
            let opaque = Path { root: Root::Opaque(d), steps: Vec::new(), mode: *mode };
            let path = match &inst.kind {
                InstKind::Deref { kind: DerefKind::Var(r), .. } => {
                    Path { root: Root::Var(*r), steps: Vec::new(), mode: *mode }
                }
                InstKind::Deref { kind, parent: Some(p) } if out.contains_key(p) => {
                    let mut path = out[p].clone();
                    match kind {
                        DerefKind::Member(m) => path.steps.push(Step::Member(*m)),
                        DerefKind::Index(i) => path
                            .steps
                            .push(consts.get(i).map_or(Step::Dyn(*i), |c| Step::Const(*c))),
                        // Pointer arithmetic and casts start a new, opaque chain.
                        _ => path = opaque,
                    }
                    path
                }
                _ => opaque,
            };
            out.insert(d, path);
        }
    }
    out
}

fn roots_disjoint(s: &Shader, f: &Function, a: Root, b: Root) -> bool {
    match (a, b) {
        (Root::Var(x), Root::Var(y)) if x != y => {
            let (mx, my) = (s.var(f, x).mode, s.var(f, y).mode);
            // Two descriptors may point at the same buffer.
            !(matches!(mx, Mode::Storage | Mode::Uniform)
                && matches!(my, Mode::Storage | Mode::Uniform))
        }
        _ => false,
    }
}

/// Whether the memory of `a` and `b` overlaps.
pub fn alias(s: &Shader, f: &Function, a: &Path, b: &Path) -> Alias {
    let same_space = a.mode == b.mode
        || (matches!(a.mode, Mode::Storage | Mode::Uniform | Mode::Global)
            && matches!(b.mode, Mode::Storage | Mode::Uniform | Mode::Global));
    if !same_space {
        return Alias::No;
    }
    if a.root != b.root {
        return if roots_disjoint(s, f, a.root, b.root) { Alias::No } else { Alias::May };
    }
    for (x, y) in a.steps.iter().zip(&b.steps) {
        match (x, y) {
            _ if x == y => {}
            (Step::Member(_), Step::Member(_)) | (Step::Const(_), Step::Const(_)) => {
                return Alias::No
            }
            _ => return Alias::May,
        }
    }
    if a.steps.len() == b.steps.len() {
        Alias::Must
    } else {
        Alias::May
    }
}
