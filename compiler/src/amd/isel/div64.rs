//! 64-bit unsigned division and remainder by a register. There is no 64-bit divide or
//! reciprocal, so this is restoring (shift-subtract) division unrolled over the 64 quotient
//! bits: straight-line VALU code, so divergent divisors need no control flow, and division by
//! zero falls out as the IR defines it (all-ones quotient, the dividend as remainder).

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::RegClass;
use crate::ir::ops::AluOp;

impl Isel<'_> {
    /// (quotient, remainder) of `n / d`, both 64-bit. The running remainder is kept as two
    /// single-dword values (no register pairs), and one subtract-with-borrow gives both the
    /// trial difference and whether the remainder reached the divisor.
    pub(super) fn udivmod64(&mut self, n: MVal, d: MVal) -> Result<(MVal, MVal), BackendError> {
        let (nl, nh) = split(n);
        let (dl, dh) = split(d);
        let (dl, dh) = (self.src(dl)?, self.src(dh)?);
        let (mut rl, mut rh) = (MVal::Const(0), MVal::Const(0));
        let mut q = [MVal::Const(0), MVal::Const(0)];
        for i in (0..64u32).rev() {
            // r = r << 1 | bit i of n; the bit shifted out of r means r >= 2^64 > d.
            let out = self.compare(AluOp::Ilt, 32, &[rh, MVal::Const(0)], false)?;
            rh = self.v3(O::V_ALIGNBIT_B32, &[rh, rl, MVal::Const(31)], 0)?;
            let word = if i >= 32 { nh } else { nl };
            let pos = MVal::Const(u64::from(i % 32));
            let bit = self.v3(O::V_BFE_U32, &[word, pos, MVal::Const(1)], 0)?;
            rl = self.v3(O::V_LSHL_OR_B32, &[rl, MVal::Const(1), bit], 0)?;
            let (sl, sh) = (self.vreg(RegClass::V, 1), self.vreg(RegClass::V, 1));
            let (borrow, under) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
            let lo = [self.src(rl)?, dl];
            self.emit(build::vop3(O::V_SUB_CO_U32, Some(sl), Some(borrow), &lo, 0));
            let hi = [self.src(rh)?, dh, Src::R(borrow, RegClass::S)];
            self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(sh), Some(under), &hi, 0));
            // Subtract when the shifted-out bit was set or there was no final borrow.
            let take = self.vreg(RegClass::S, 1);
            let (o, u) = (self.src(out)?, Src::R(under, RegClass::S));
            self.emit(build::sop2(O::S_ORN2_B32, Some(take), o, u, 1));
            let take = MVal::Reg(take, RegClass::S);
            rl = self.select(&[take, MVal::Reg(sl, RegClass::V), rl], false)?;
            rh = self.select(&[take, MVal::Reg(sh, RegClass::V), rh], false)?;
            let w = (i / 32) as usize;
            let b = self.select(&[take, MVal::Const(1 << (i % 32)), MVal::Const(0)], false)?;
            q[w] = match q[w] {
                MVal::Const(0) => b,
                acc => self.bin(None, O::V_OR_B32, false, acc, b)?,
            };
        }
        let q = self.pair(q[0], q[1])?;
        let r = self.pair(rl, rh)?;
        Ok((q, r))
    }
}
