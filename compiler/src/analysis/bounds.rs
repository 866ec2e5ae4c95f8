//! Unsigned upper bounds of integer values, for proving that an address addition cannot wrap.
//!
//! Instruction selection wants to move the constant of a `base + c` buffer offset into the
//! MUBUF immediate. The IR adds modulo 2^32, but the hardware adds the VGPR offset and the
//! immediate without wrapping before its range check, so the two only agree when `base + c`
//! stays below 2^32. This analysis bounds `base` from what the shader cannot exceed: constants,
//! the workgroup size, the device's dispatch limits, masks, shifts and divisions.
//!
//! The bounds are sound for any valid dispatch: [`MAX_WORKGROUPS`] is the
//! `maxComputeWorkGroupCount` the driver reports for every dimension (a larger dispatch is
//! invalid API usage). φs (loop counters) are not followed; their bound is unknown.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

use crate::ir::ops::mask;
use crate::ir::{AluOp, BlockId, Function, InstKind, Shader, SysVal, Value, ValueType};

/// Workgroups per dimension a dispatch may have (navi21's `maxComputeWorkGroupCount`, as the
/// driver reports it in `icd/src/core/physical_device/limits.rs`).
pub const MAX_WORKGROUPS: u64 = 65535;

/// How deep the expression walk goes before giving up.
const MAX_DEPTH: u32 = 24;

/// The bound analysis of one function.
pub struct Bounds<'a> {
    shader: &'a Shader,
    f: &'a Function,
    defs: Vec<Option<(BlockId, usize)>>,
    /// Bounds already found (expressions are DAGs: without this the walk is exponential).
    memo: RefCell<HashMap<(Value, usize), Option<u64>>>,
}

impl<'a> Bounds<'a> {
    /// Bounds for `f` of `shader`.
    pub fn new(shader: &'a Shader, f: &'a Function) -> Self {
        Bounds { shader, f, defs: f.def_map(), memo: RefCell::new(HashMap::default()) }
    }

    /// The instruction defining `v`, if any.
    pub fn def(&self, v: Value) -> Option<&'a InstKind> {
        let (b, i) = (*self.defs.get(v.0 as usize)?)?;
        Some(&self.f.blocks[b.0 as usize].insts[i].kind)
    }

    /// A bound on component `comp` of integer value `v` (`None`: unknown).
    pub fn max(&self, v: Value, comp: usize) -> Option<u64> {
        self.walk(v, comp, 0)
    }

    fn walk(&self, v: Value, comp: usize, depth: u32) -> Option<u64> {
        let ValueType::Data { bits, comps } = self.f.ty(v) else { return None };
        if depth > MAX_DEPTH || bits == 1 {
            return None;
        }
        let c = comp.min(usize::from(comps).saturating_sub(1));
        if let Some(r) = self.memo.borrow().get(&(v, c)) {
            return *r;
        }
        let r = self.compute(v, c, bits, depth);
        self.memo.borrow_mut().insert((v, c), r);
        r
    }

    fn compute(&self, v: Value, c: usize, bits: u8, depth: u32) -> Option<u64> {
        let r = match self.def(v)? {
            InstKind::Const(k) => k.get(c).copied(),
            InstKind::SysVal(sv) => self.sysval(*sv, c),
            InstKind::Alu(op, srcs) => self.alu(*op, srcs, c, bits, depth + 1),
            _ => None,
        }?;
        (r <= mask(bits)).then_some(r)
    }

    fn sysval(&self, sv: SysVal, c: usize) -> Option<u64> {
        let wg = self.shader.workgroup_size.map(|n| u64::from(n.max(1)));
        let size = wg.get(c).copied().unwrap_or(1);
        Some(match sv {
            SysVal::LocalInvocationId => size - 1,
            SysVal::LocalInvocationIndex => wg.iter().product::<u64>() - 1,
            SysVal::WorkgroupId => MAX_WORKGROUPS - 1,
            SysVal::NumWorkgroups => MAX_WORKGROUPS,
            SysVal::GlobalInvocationId => MAX_WORKGROUPS * size - 1,
            SysVal::SubgroupSize => 32,
            SysVal::SubgroupInvocationId => 31,
            SysVal::SubgroupId | SysVal::NumSubgroups => wg.iter().product::<u64>().div_ceil(32),
            _ => return None,
        })
    }

    fn alu(&self, op: AluOp, s: &[Value], c: usize, bits: u8, depth: u32) -> Option<u64> {
        let m = |i: usize| self.walk(s[i], c, depth);
        let k = |i: usize| self.constant(s[i], c);
        match op {
            AluOp::Mov => m(0),
            AluOp::Vec => self.walk(*s.get(c)?, 0, depth),
            AluOp::ExtractDyn => self.walk(s[0], self.constant(s[1], 0)? as usize, depth),
            AluOp::Iadd => m(0)?.checked_add(m(1)?),
            AluOp::Imul => m(0)?.checked_mul(m(1)?),
            AluOp::Ishl => {
                let sh = k(1)?;
                (sh < u64::from(bits)).then_some(())?;
                m(0)?.checked_mul(1u64 << sh)
            }
            AluOp::Ushr => {
                let sh = k(1)?;
                (sh < u64::from(bits)).then_some(())?;
                Some(m(0)? >> sh)
            }
            AluOp::Iand => match (m(0), m(1)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            AluOp::Ior | AluOp::Ixor => {
                let hi = m(0)?.max(m(1)?);
                Some(if hi == 0 { 0 } else { u64::MAX >> hi.leading_zeros() })
            }
            AluOp::Umin => match (m(0), m(1)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            AluOp::Umax => Some(m(0)?.max(m(1)?)),
            // Division and remainder by zero are not bounded by the dividend.
            AluOp::Udiv => Some(m(0)? / k(1).filter(|&d| d > 0)?),
            AluOp::Umod => {
                let d = k(1).filter(|&d| d > 0)?;
                Some(m(0).map_or(d - 1, |a| a.min(d - 1)))
            }
            AluOp::Bcsel => Some(m(1)?.max(m(2)?)),
            AluOp::U2u => {
                let from = self.f.ty(s[0]).shape().0;
                (from <= bits).then_some(())?;
                m(0)
            }
            _ => None,
        }
    }

    /// Component `c` of `v` if it is a constant.
    fn constant(&self, v: Value, c: usize) -> Option<u64> {
        match self.def(v)? {
            InstKind::Const(k) => k.get(c.min(k.len().saturating_sub(1))).copied(),
            _ => None,
        }
    }
}
