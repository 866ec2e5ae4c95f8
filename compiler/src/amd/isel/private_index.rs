//! Dynamically indexed private data kept in VGPRs: the array is one register range, read with
//! `v_movrels_b32` and written with `v_movreld_b32`, which add M0 to the register number.
//!
//! A uniform index goes to M0 directly. A divergent index runs a waterfall loop: each trip
//! takes the first active lane's index (`v_readfirstlane`), narrows EXEC to the lanes with the
//! same index, moves their dwords and retires them, until no lane is left. The loop is emitted
//! inside the current block between two markers and [`split_waterfalls`] turns it into a
//! block of its own after selection. Where the compare/select chain of
//! [`super::scratch`] has fewer instructions (arrays of a few dwords) it is kept.
//!
//! The access reads or writes one of the range's registers, which one only the index knows,
//! so the instruction records the whole range from the first register it can reach as read
//! (and, for writes, as written): liveness and allocation keep every element in place. M0 is
//! otherwise only the pixel shader's PRIM_MASK for `v_interp_*`, which is set again before
//! interpolation when a shader indexes private VGPRs (see `io::inputs`).

use ferrum_isa::{Inst, Opcode as O, Operand, Special, Vop1};

use super::build::{self, Src, B};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MFunc, RegClass, RegRef, Slot};

const M0: Operand = Operand::Special(Special::M0);
const EXEC_LO: Operand = Operand::Special(Special::ExecLo);

/// Instructions of a waterfall loop besides its moves: `s_mov` of EXEC before, then
/// `v_readfirstlane`, `v_cmp`, `s_and_saveexec`, `s_lshr` to M0, `s_xor` of EXEC and the
/// branch in the loop, and EXEC restored after it.
const WATERFALL_COST: usize = 8;

/// A waterfall loop selected inside a block: its block, the index of its first instruction
/// and one past its branch back (the loop body becomes block `block + 1`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Waterfall {
    block: usize,
    start: usize,
    end: usize,
}

/// What an indexed access moves: reads copy element `first + j + index` into `dst[j]`;
/// writes copy `src[j]` into it.
#[derive(Clone, Copy)]
enum Moves<'a> {
    Read(&'a [RegRef]),
    Write(&'a [RegRef]),
}

impl Isel<'_> {
    /// Reads dwords `0..total` of the private value at dynamic byte offset `off` with
    /// `v_movrels`, or `None` when the select chain is shorter.
    pub(super) fn indexed_read(
        &mut self,
        off: MVal,
        total: u8,
    ) -> Result<Option<Vec<MVal>>, BackendError> {
        let n = self.scratch.len();
        let chain: usize = (0..total as usize).map(|j| 1 + 2 * n.saturating_sub(j)).sum();
        if !self.indexing_pays(off, total, chain) {
            return Ok(None);
        }
        let dst: Vec<RegRef> = (0..total).map(|_| self.vreg(RegClass::V, 1)).collect();
        self.indexed_moves(off, 0, Moves::Read(&dst))?;
        Ok(Some(dst.into_iter().map(|r| MVal::Reg(r, RegClass::V)).collect()))
    }

    /// Writes VGPRs `data` (`dw` dwords) to the private value at dynamic byte offset `off` +
    /// `byte` with `v_movreld`; false when the select chain is shorter (nothing emitted).
    pub(super) fn indexed_write(
        &mut self,
        off: MVal,
        byte: u32,
        data: RegRef,
        dw: u8,
    ) -> Result<bool, BackendError> {
        let n = self.scratch.len();
        let chain: usize = (0..dw as usize).map(|j| 2 * n.saturating_sub(j)).sum();
        if byte % 4 != 0 || !self.indexing_pays(off, dw, chain) {
            return Ok(false);
        }
        let src: Vec<RegRef> = (0..dw).map(|j| data.at(j)).collect();
        self.indexed_moves(off, byte / 4, Moves::Write(&src))?;
        Ok(true)
    }

    /// True if M0-relative moves of `dwords` take fewer instructions than a select chain of
    /// `chain`: one `s_lshr` to M0 for a uniform index, a waterfall loop for a divergent one.
    fn indexing_pays(&self, off: MVal, dwords: u8, chain: usize) -> bool {
        let moves = usize::from(dwords);
        match off {
            MVal::Reg(_, RegClass::S) => 1 + moves < chain,
            MVal::Reg(_, RegClass::V) => WATERFALL_COST + moves < chain,
            _ => false,
        }
    }

    /// Emits the moves of one access, with M0 = `off` / 4 (uniform) or in a waterfall loop.
    fn indexed_moves(&mut self, off: MVal, first: u32, moves: Moves) -> Result<(), BackendError> {
        let base =
            *self.scratch.first().ok_or_else(|| unsupported("indexing empty private data"))?;
        let n = self.scratch.len() as u32;
        let count = match moves {
            Moves::Read(d) | Moves::Write(d) => d.len() as u32,
        };
        if first + count > n {
            return Err(unsupported("private access past the end of the data"));
        }
        let m0_from = |s: &mut Self, idx: RegRef| {
            let mut shr = build::sop2(O::S_LSHR_B32, None, Src::R(idx, RegClass::S), Src::I(2), 1);
            if let Inst::Sop2(i) = &mut shr.inst {
                i.sdst = M0;
            }
            s.emit(shr);
        };
        let emit_moves = |s: &mut Self| {
            for j in 0..count {
                let k = first + j;
                let elem = base.at(k as u8);
                let reach = (n - k) as u8;
                let mi = match moves {
                    Moves::Read(d) => movrel(O::V_MOVRELS_B32)
                        .def(Slot::Vdst, d[j as usize], 1)
                        .use_(Slot::Src0, elem, reach),
                    Moves::Write(d) => movrel(O::V_MOVRELD_B32)
                        .use_(Slot::Src0, d[j as usize], 1)
                        .use_(Slot::Vdst, elem, reach)
                        .def(Slot::Vdst, elem, reach),
                };
                s.emit(mi.done());
            }
        };
        self.m0_prim = None;
        match off {
            MVal::Reg(idx, RegClass::S) => {
                m0_from(self, idx);
                emit_moves(self);
                Ok(())
            }
            MVal::Reg(idx, RegClass::V) => {
                self.waterfall(idx, |s, sidx| {
                    m0_from(s, sidx);
                    emit_moves(s);
                });
                Ok(())
            }
            _ => Err(unsupported("a constant private index through M0")),
        }
    }

    /// Runs `body` once per distinct value of VGPR `idx` among the active lanes, with EXEC
    /// narrowed to the lanes holding it and the value in an SGPR.
    fn waterfall(&mut self, idx: RegRef, body: impl FnOnce(&mut Self, RegRef)) {
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(O::S_MOV_B32, saved, build::EXEC, 1));
        let start = self.mf.blocks[self.cur].insts.len();
        let sidx = self.vreg(RegClass::S, 1);
        self.emit(build::readfirstlane(sidx, idx));
        let mask = self.vreg(RegClass::S, 1);
        let (s, v) = (Src::R(sidx, RegClass::S), Src::R(idx, RegClass::V));
        self.emit(build::vcmp(O::V_CMP_EQ_U32, mask, s, v, 1));
        let old = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(O::S_AND_SAVEEXEC_B32, old, Src::R(mask, RegClass::S), 1));
        // The body is straight-line code: it must not open blocks of its own.
        let cur = self.cur;
        body(self, sidx);
        debug_assert_eq!(self.cur, cur);
        let this = self;
        let mut xor = build::sop2(O::S_XOR_B32, None, build::EXEC, Src::R(old, RegClass::S), 1);
        if let Inst::Sop2(i) = &mut xor.inst {
            i.sdst = EXEC_LO;
        }
        this.emit(xor);
        let mut back = build::sopp(O::S_CBRANCH_EXECNZ, 0);
        back.target = Some(cur + 1);
        this.emit(back);
        let end = this.mf.blocks[cur].insts.len();
        this.waterfalls.push(Waterfall { block: cur, start, end });
        this.emit(build::sop1_fixed(O::S_MOV_B32, EXEC_LO, Src::R(saved, RegClass::S)));
    }
}

fn movrel(op: O) -> B {
    B::new(Inst::Vop1(Vop1 {
        op,
        vdst: Operand::Vgpr(0),
        src0: Operand::Vgpr(0),
        ext: ferrum_isa::Ext::None,
    }))
}

/// Moves each waterfall loop recorded during selection into a block of its own: block `b`
/// becomes `b` (code before the loop), `b + 1` (the loop, branching back to itself) and
/// `b + 2` (code after it); every branch to a later block is renumbered. Runs right after
/// selection, while the recorded instruction positions still hold.
pub(crate) fn split_waterfalls(mf: &mut MFunc, mut loops: Vec<Waterfall>) {
    // Last first, so the positions of the ones still to split stay valid.
    loops.sort_by_key(|w| std::cmp::Reverse((w.block, w.start)));
    for w in loops {
        let b = w.block;
        for blk in &mut mf.blocks {
            for mi in &mut blk.insts {
                if let Some(t) = mi.target.as_mut() {
                    if *t > b {
                        *t += 2;
                    }
                }
            }
        }
        let rest = mf.blocks[b].insts.split_off(w.end);
        let mut body = mf.blocks[b].insts.split_off(w.start);
        if let Some(back) = body.last_mut() {
            back.target = Some(b + 1);
        }
        mf.blocks.insert(b + 1, crate::amd::mir::MBlock { insts: body });
        mf.blocks.insert(b + 2, crate::amd::mir::MBlock { insts: rest });
    }
}
