//! Loads from the shader's constant data ([`Space::Constant`], the tables
//! `passes::opt_constant_arrays` makes), which the backend places after the code.
//!
//! The data's address comes from the program counter: an `s_getpc_b64` MIR instruction that
//! [`crate::amd::emit`] expands to `s_getpc_b64; s_add_u32 lo, lo, distance; s_addc_u32 hi,
//! hi, 0` once the code size (hence the distance) is known, as ACO's `p_constaddr` does. A
//! uniform offset reads with `s_load_dword*` (the data is read-only, so the scalar cache may
//! hold it); a divergent one with `global_load_dword*` (SGPR base + 32-bit VGPR offset).
//! The offsets are in range by construction (the pass clamps every index).

use ferrum_isa::{Inst, Opcode as O, Operand, Sop1};

use super::build::{self, SmemOff, Src, B};
use super::mem::{chunks, global_op, smem_op};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::Value;

impl Isel<'_> {
    /// The 64-bit address of the constant data in a fresh SGPR pair.
    fn constant_data_base(&mut self) -> RegRef {
        let d = self.vreg(RegClass::S, 2);
        let getpc =
            Inst::Sop1(Sop1 { op: O::S_GETPC_B64, sdst: Operand::Sgpr(0), ssrc0: Operand::UNUSED });
        self.emit(B::new(getpc).def(Slot::Sdst, d, 2).done());
        d
    }

    /// `total` dwords of the constant data at byte `addr + byte`.
    pub(super) fn load_constant_dwords(
        &mut self,
        addr: Value,
        (align, byte): (u32, u32),
        bits: u8,
        total: u8,
        uniform: bool,
        dwords: &mut Vec<MVal>,
    ) -> Result<(), BackendError> {
        let off = self.comp(addr, 0)?;
        let base = self.constant_data_base();
        if uniform {
            let soff = match off {
                MVal::Const(_) => None,
                other => self.in_sgpr(other, 1, true)?,
            };
            for (at, dw) in chunks(total, 8, align, true, false) {
                let extra = byte + u32::from(at) * 4;
                let o = match (off, soff) {
                    (MVal::Const(c), _) => SmemOff::Imm(c as u32 + extra),
                    (_, Some(s)) if extra == 0 => SmemOff::Reg(s),
                    (_, Some(s)) => {
                        let t = self.vreg(RegClass::S, 1);
                        let (a, k) = (Src::R(s, RegClass::S), Src::I(extra));
                        self.emit(build::sop2(O::S_ADD_U32, Some(t), a, k, 1));
                        SmemOff::Reg(t)
                    }
                    _ => return Err(unsupported("a constant-data offset that is not uniform")),
                };
                let r = self.vreg(RegClass::S, dw);
                self.emit(build::smem_load(smem_op(dw, false), r, dw, base, 2, o));
                dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::S)));
            }
        } else {
            let v = self.in_vgpr(off, 1)?;
            for (at, dw) in chunks(total, 4, align, false, false) {
                let extra = byte + u32::from(at) * 4;
                let r = self.vreg(RegClass::V, dw);
                let op = global_op(dw, bits, true);
                self.emit(build::global(
                    op,
                    Some((r, dw)),
                    None,
                    v,
                    Some(base),
                    extra as i16,
                    false,
                ));
                dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::V)));
            }
        }
        Ok(())
    }
}
