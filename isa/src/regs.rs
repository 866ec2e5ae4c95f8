//! Which registers an instruction reads and writes: what the backend's wait-count insertion
//! and hazard checks, and the simulator's strict mode, need. Widths come from
//! [`Inst::dwords`]; implicit registers (VCC, EXEC, SCC, M0) from the query methods.

use crate::inst::{Inst, Seg};
use crate::operand::{Operand, Special};
use crate::tables::Field;

/// One register operand (a range of `dwords` registers starting at `operand`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegAccess {
    /// The field it is encoded in.
    pub field: Field,
    /// The first register (SGPR, VGPR, TTMP or special register).
    pub operand: Operand,
    /// Registers covered.
    pub dwords: u8,
    /// Written by the instruction.
    pub def: bool,
    /// Read by the instruction.
    pub read: bool,
}

fn is_reg(o: Operand) -> bool {
    matches!(o, Operand::Sgpr(_) | Operand::Vgpr(_) | Operand::Ttmp(_) | Operand::Special(_))
        && o != Operand::Special(Special::Null)
}

/// How the SOPK `sdst` field is used: compared, stored to a hardware register, waited on
/// (read), accumulated into (read and written), or just written.
fn sopk_role(name: &str) -> (bool, bool) {
    if name.starts_with("s_cmpk")
        || name.starts_with("s_setreg")
        || name.starts_with("s_waitcnt")
        || name.starts_with("s_subvector")
    {
        (false, true)
    } else if name.starts_with("s_addk") || name.starts_with("s_mulk") || name == "s_cmovk_i32" {
        (true, true)
    } else {
        (true, false)
    }
}

/// How a memory instruction's data operand is used: loads write it, stores read it, atomics
/// read it and (with GLC) write the old value back.
fn data_role(name: &str, glc: bool) -> (bool, bool) {
    if name.contains("_atomic") {
        (glc, true)
    } else if name.contains("store") {
        (false, true)
    } else {
        (true, false)
    }
}

impl Inst {
    /// The explicit register operands, with their widths and whether they are read or
    /// written. Constants, literals and `off`/`null` are left out.
    pub fn reg_accesses(&self) -> Vec<RegAccess> {
        let name = self.op().name();
        let mut out = Vec::new();
        let mut add = |field: Field, operand: Operand, def: bool, read: bool| {
            let dwords = self.dwords(field);
            if dwords > 0 && is_reg(operand) {
                out.push(RegAccess { field, operand, dwords, def, read });
            }
        };
        let v = Operand::Vgpr;
        match self {
            Inst::Sop2(i) => {
                add(Field::Sdst, i.sdst, true, false);
                add(Field::Ssrc0, i.ssrc0, false, true);
                add(Field::Ssrc1, i.ssrc1, false, true);
            }
            Inst::Sop1(i) => {
                add(Field::Sdst, i.sdst, true, false);
                add(Field::Ssrc0, i.ssrc0, false, true);
            }
            Inst::Sopc(i) => {
                add(Field::Ssrc0, i.ssrc0, false, true);
                add(Field::Ssrc1, i.ssrc1, false, true);
            }
            Inst::Sopk(i) => {
                let (def, read) = sopk_role(name);
                add(Field::Sdst, i.sdst, def, read);
            }
            Inst::Sopp(_) | Inst::Exp(_) => {}
            Inst::Smem(i) => {
                add(Field::Sdata, i.sdata, true, false);
                add(Field::Sbase, crate::display::sgpr_base(i.sbase), false, true);
                add(Field::Offset, i.soffset, false, true);
            }
            Inst::Vop1(i) => {
                add(Field::Vdst, i.vdst, true, false);
                add(Field::Src0, i.src0, false, true);
            }
            Inst::Vop2(i) => {
                add(Field::Vdst, v(i.vdst), true, false);
                add(Field::Src0, i.src0, false, true);
                add(Field::Vsrc1, v(i.vsrc1), false, true);
            }
            Inst::Vopc(i) => {
                add(Field::Src0, i.src0, false, true);
                add(Field::Vsrc1, v(i.vsrc1), false, true);
            }
            Inst::Vop3(i) => {
                add(Field::Vdst, i.vdst, true, false);
                add(Field::Sdst, i.sdst, true, false);
                for (k, fl) in [Field::Src0, Field::Src1, Field::Src2].into_iter().enumerate() {
                    add(fl, i.src[k], false, true);
                }
            }
            Inst::Vop3p(i) => {
                add(Field::Vdst, v(i.vdst), true, false);
                for (k, fl) in [Field::Src0, Field::Src1, Field::Src2].into_iter().enumerate() {
                    add(fl, i.src[k], false, true);
                }
            }
            Inst::Vintrp(i) => {
                add(Field::Vdst, v(i.vdst), true, false);
                if self
                    .form()
                    .and_then(|f| f.operand(Field::Vsrc))
                    .is_some_and(|o| o.kind == crate::tables::Kind::Vgpr)
                {
                    add(Field::Vsrc, v(i.vsrc), false, true);
                }
            }
            Inst::Ds(i) => {
                add(Field::Vdst, v(i.vdst), true, false);
                add(Field::Addr, v(i.addr), false, true);
                add(Field::Data0, v(i.data0), false, true);
                add(Field::Data1, v(i.data1), false, true);
            }
            Inst::Mubuf(i) | Inst::Mtbuf(i) => {
                let (def, read) = data_role(name, i.glc);
                add(Field::Vdata, v(i.vdata), def, read);
                if i.offen || i.idxen {
                    add(Field::Vaddr, v(i.vaddr), false, true);
                }
                add(Field::Srsrc, crate::display::sgpr_base(i.srsrc), false, true);
                add(Field::Soffset, i.soffset, false, true);
            }
            Inst::Flat(i) => {
                add(Field::Vdst, v(i.vdst), true, false);
                if !(i.seg == Seg::Scratch && i.saddr != Operand::Special(Special::Null)) {
                    add(Field::Addr, v(i.addr), false, true);
                }
                add(Field::Data, v(i.data), false, true);
                add(Field::Off, i.saddr, false, true);
            }
            Inst::Mimg(i) => {
                let (def, read) = data_role(name, i.glc);
                add(Field::Vdata, v(i.vdata), def, read);
                add(Field::Srsrc, crate::display::sgpr_base(i.srsrc), false, true);
                add(Field::Ssamp, crate::display::sgpr_base(i.ssamp), false, true);
                if !i.nsa {
                    add(Field::Vaddr, v(i.vaddr[0]), false, true);
                }
            }
        }
        self.nsa_and_exports(&mut out);
        out
    }

    /// The parts of `reg_accesses` that are lists rather than fields: NSA addresses and
    /// export sources.
    fn nsa_and_exports(&self, out: &mut Vec<RegAccess>) {
        let one = |field, r: u8| RegAccess {
            field,
            operand: Operand::Vgpr(r),
            dwords: 1,
            def: false,
            read: true,
        };
        match self {
            Inst::Mimg(i) if i.nsa => {
                let n = self.dwords(Field::Vaddr) as usize;
                out.extend(i.vaddr.iter().take(n).map(|&r| one(Field::Vaddr, r)));
            }
            Inst::Exp(e) => {
                for slot in 0..4 {
                    if e.en >> slot & 1 != 0 {
                        let r = if e.compr { e.src[slot / 2] } else { e.src[slot] };
                        if !out.iter().any(|a| a.operand == Operand::Vgpr(r)) {
                            out.push(one(Field::Data, r));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
