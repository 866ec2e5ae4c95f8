//! Questions the compiler backend and the simulator ask about an instruction.

use crate::inst::{Inst, Seg};
use crate::operand::{Operand, Special};
use crate::tables::{flags, Enc, Field, MimgInfo};

/// Hardware counters an instruction increments until it completes (`s_waitcnt` targets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Vector memory loads (and atomics with return).
    pub vmcnt: bool,
    /// Vector memory stores (and atomics without return).
    pub vscnt: bool,
    /// LDS, GDS, scalar memory and messages.
    pub lgkmcnt: bool,
    /// Exports and GDS writes.
    pub expcnt: bool,
}

/// Coarse issue/latency class for scheduling and hazard handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Latency {
    Salu,
    Valu,
    /// Transcendental VALU (rcp, rsq, sqrt, log, exp, sin, cos).
    Trans,
    Smem,
    Vmem,
    Lds,
    Branch,
    Export,
}

impl Inst {
    /// Registers covered by the operand in `field` (0 when the instruction has none): the
    /// table's width, adjusted where it depends on the instruction's own bits — MIMG data and
    /// addresses (dmask, D16, TFE, dim, A16), buffer `vaddr` with both IDXEN and OFFEN, TFE on
    /// buffer loads, and GLOBAL/SCRATCH addresses when an SGPR base is used.
    pub fn dwords(&self, field: Field) -> u8 {
        let Some(form) = self.form() else { return 0 };
        let base = form.dwords(field);
        match (self, field) {
            (Inst::Mimg(m), Field::Vdata) => m.vdata_dwords(),
            (Inst::Mimg(m), Field::Vaddr) => {
                MimgInfo::get(form.code).map_or(0, |i| i.addr_count(m.dim, m.a16))
            }
            (Inst::Mubuf(b) | Inst::Mtbuf(b), Field::Vaddr) => b.offen as u8 + b.idxen as u8,
            (Inst::Mubuf(b) | Inst::Mtbuf(b), Field::Vdata) => base + b.tfe as u8,
            (Inst::Flat(f), Field::Vdst) if f.glc && form.mnemonic.contains("_atomic_") => {
                let data = form.dwords(Field::Data);
                if form.mnemonic.contains("cmpswap") {
                    data / 2
                } else {
                    data
                }
            }
            (Inst::Flat(f), Field::Addr) if f.saddr != Operand::Special(Special::Null) => {
                (f.seg == Seg::Global) as u8
            }
            _ => base,
        }
    }

    fn flags(&self) -> u16 {
        self.form().map_or(0, |f| f.flags)
    }

    /// Program-counter changing instruction (branch, call, return, setpc).
    pub fn is_branch(&self) -> bool {
        let n = self.op().name();
        n.starts_with("s_branch")
            || n.starts_with("s_cbranch")
            || matches!(n, "s_setpc_b64" | "s_swappc_b64" | "s_call_b64" | "s_rfe_b64")
    }

    /// For PC-relative branches (`s_branch`, `s_cbranch_*`, `s_call_b64`): the target's byte
    /// offset from the instruction *after* this one (the hardware adds `simm16 * 4` to the
    /// incremented PC).
    pub fn branch_offset(&self) -> Option<i64> {
        let name = self.op().name();
        match self {
            Inst::Sopp(s) if name == "s_branch" || name.starts_with("s_cbranch") => {
                Some(s.simm16 as i16 as i64 * 4)
            }
            Inst::Sopk(s) if name == "s_call_b64" => Some(s.simm16 as i16 as i64 * 4),
            _ => None,
        }
    }

    /// Accesses memory (scalar, vector, LDS/GDS).
    pub fn is_memory(&self) -> bool {
        matches!(
            self,
            Inst::Smem(_) | Inst::Ds(_) | Inst::Mubuf(_) | Inst::Mtbuf(_) | Inst::Flat(_)
        )
    }

    /// Counters this instruction increments.
    pub fn counters(&self) -> Counters {
        let mut c = Counters::default();
        let name = self.op().name();
        let returns = |glc: bool| {
            let atomic = name.contains("_atomic_");
            (atomic && glc) || (!atomic && name.contains("load"))
        };
        match self {
            Inst::Smem(_) => c.lgkmcnt = !name.starts_with("s_dcache") && name != "s_gl1_inv",
            Inst::Ds(d) => {
                c.lgkmcnt = true;
                c.expcnt = d.gds && !name.contains("read");
            }
            Inst::Sopp(_) => c.lgkmcnt = name.starts_with("s_sendmsg"),
            Inst::Mubuf(b) | Inst::Mtbuf(b) => {
                let r = returns(b.glc) || b.lds;
                c.vmcnt = r;
                c.vscnt = !r;
            }
            Inst::Mimg(m) => {
                let r = returns(m.glc)
                    || name.starts_with("image_sample")
                    || name.starts_with("image_gather")
                    || name.starts_with("image_get");
                c.vmcnt = r;
                c.vscnt = !r;
            }
            Inst::Exp(_) => c.expcnt = true,
            Inst::Flat(f) => {
                let r = returns(f.glc);
                c.vmcnt = r;
                c.vscnt = !r;
                c.lgkmcnt = f.seg == Seg::Flat;
            }
            _ => {}
        }
        c
    }

    /// Reads EXEC implicitly.
    pub fn reads_exec(&self) -> bool {
        self.flags() & flags::READS_EXEC != 0
    }
    /// Writes EXEC implicitly.
    pub fn writes_exec(&self) -> bool {
        self.flags() & flags::WRITES_EXEC != 0
    }
    /// Reads VCC implicitly.
    pub fn reads_vcc(&self) -> bool {
        self.flags() & flags::READS_VCC != 0
    }
    /// Writes VCC implicitly.
    pub fn writes_vcc(&self) -> bool {
        self.flags() & flags::WRITES_VCC != 0
    }
    /// Reads SCC.
    pub fn reads_scc(&self) -> bool {
        self.flags() & flags::READS_SCC != 0
    }
    /// Writes SCC.
    pub fn writes_scc(&self) -> bool {
        self.flags() & flags::WRITES_SCC != 0
    }
    /// Reads M0 implicitly: the opcodes marked in the tables (s_movrel*, s_sendmsg, VINTRP,
    /// ds_gws_*, ...), plus LDS-DMA buffer loads (M0 holds the LDS address) and GDS accesses
    /// (M0 holds the GDS base and size).
    pub fn reads_m0(&self) -> bool {
        match self {
            Inst::Mubuf(b) if b.lds => true,
            Inst::Ds(d) if d.gds => true,
            _ => self.flags() & flags::READS_M0 != 0,
        }
    }

    /// Latency class.
    pub fn latency(&self) -> Latency {
        match self.enc() {
            _ if self.is_branch() => Latency::Branch,
            Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc | Enc::Sopp => Latency::Salu,
            Enc::Smem => Latency::Smem,
            Enc::Ds => Latency::Lds,
            Enc::Mubuf | Enc::Mtbuf | Enc::Flat | Enc::Scratch | Enc::Global | Enc::Mimg => {
                Latency::Vmem
            }
            Enc::Exp => Latency::Export,
            _ if self.flags() & flags::TRANS != 0 => Latency::Trans,
            _ => Latency::Valu,
        }
    }
}
