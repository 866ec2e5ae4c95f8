//! Reading inputs: fragment inputs interpolated where they are read, vertex inputs (see
//! `vertex_fetch`), read-backs of outputs and the pixel shader's system values.

use ferrum_isa::{Inst, Opcode, Operand, Special, Vintrp};

use super::slot_width;
use crate::amd::abi::graphics as g;
use crate::amd::error::{unsupported, BackendError};
use crate::amd::isel::build::{self, Src, B};
use crate::amd::isel::{Isel, MVal};
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::{AluOp, BuiltinOut, InterpAt, IoSlot, SysVal, Value};

impl Isel<'_> {
    /// `load_input` (fragment inputs) or a read-back of an output.
    pub(in crate::amd::isel) fn select_io_load(
        &mut self,
        d: Value,
        slot: IoSlot,
        comp: u8,
        output: bool,
        at: InterpAt,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(d);
        if bits == 64 {
            return self.select_io_load64(d, slot, comp, output);
        }
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit shader inputs/outputs")));
        }
        let mut out = Vec::new();
        if output {
            let (key, base) = self.gfx.slot_key(slot)?;
            for c in base + comp..base + comp + n {
                out.push(MVal::Reg(self.output_reg(key, c.min(slot_width(key) - 1)), RegClass::V));
            }
            self.set(d, out);
            return Ok(());
        }
        if let (Some(_), IoSlot::Location(loc)) = (self.gfx.vertex, slot) {
            return self.select_vertex_input(d, loc, comp);
        }
        let (Some((bary, prim_mask, _)), Some((loc, comp))) =
            (self.gfx.pixel, self.input_place(slot, comp))
        else {
            return Err(unsupported(format!("shader input {slot:?}")));
        };
        let Some(attr) = self.gfx.inputs.iter().position(|i| i.0 == loc) else {
            return Err(unsupported(format!("input location {loc} without a variable")));
        };
        let flat = self.gfx.inputs[attr].1;
        let bary = match self.gfx.bary.get(&self.gfx.bary_bit_of(loc, at)) {
            Some(&pair) if !flat => self.moved_bary(pair, at)?,
            _ => bary,
        };
        if comp + n > 4 {
            return Err(unsupported(format!("input components {comp}..{} of {slot:?}", comp + n)));
        }
        self.set_m0(prim_mask);
        for c in comp..comp + n {
            let r = self.interp_channel(attr as u8, c.min(3), (!flat).then_some(bary));
            out.push(MVal::Reg(r, RegClass::V));
        }
        self.set(d, out);
        Ok(())
    }

    /// M0 = PRIM_MASK, which the `v_interp_*` instructions read.
    fn set_m0(&mut self, prim_mask: RegRef) {
        if self.indexed_private {
            // Indexed private VGPRs move M0 (`v_movrels`): set it in each block that
            // interpolates, unless this block already did with no M0-relative move since.
            if self.m0_prim != Some(self.cur) {
                let m0 = Operand::Special(Special::M0);
                let mov = build::sop1_fixed(Opcode::S_MOV_B32, m0, Src::R(prim_mask, RegClass::S));
                self.emit(mov);
                self.m0_prim = Some(self.cur);
            }
            return;
        }
        if !self.gfx.m0_set {
            // Nothing else writes M0 (no indexed private VGPRs), so once at the start is enough.
            let m0 = Operand::Special(Special::M0);
            let mov = build::sop1_fixed(Opcode::S_MOV_B32, m0, Src::R(prim_mask, RegClass::S));
            self.emit_prologue(mov);
            self.gfx.m0_set = true;
        }
    }

    /// Channel `chan` of attribute `attr`: interpolated with barycentrics `bary`, or the
    /// provoking vertex's value (`v_interp_mov_f32 p0`) when `bary` is `None` (flat).
    fn interp_channel(&mut self, attr: u8, chan: u8, bary: Option<[RegRef; 2]>) -> RegRef {
        let r = self.vreg(RegClass::V, 1);
        let vintrp = |op, vsrc| Inst::Vintrp(Vintrp { op, vdst: 0, vsrc, attr, chan });
        let Some(bary) = bary else {
            let mi = B::new(vintrp(Opcode::V_INTERP_MOV_F32, 2)).def(Slot::Vdst, r, 1);
            self.emit(mi.done());
            return r;
        };
        let p1 = B::new(vintrp(Opcode::V_INTERP_P1_F32, 0)).use_(Slot::Vsrc1, bary[0], 1).def(
            Slot::Vdst,
            r,
            1,
        );
        self.emit(p1.done());
        let p2 = B::new(vintrp(Opcode::V_INTERP_P2_F32, 0))
            .use_(Slot::Vsrc1, bary[1], 1)
            .use_(Slot::Vdst, r, 1)
            .def(Slot::Vdst, r, 1);
        self.emit(p2.done());
        r
    }

    /// A 64-bit load: element k from 32-bit components k * 2 (low) and k * 2 + 1 (high)
    /// after `comp` ([`super::dword_place`]). Vertex attributes go through
    /// `select_vertex_input64`; fragment inputs are flat (Vulkan requires `Flat` on 64-bit
    /// fragment inputs), each half the provoking vertex's dword.
    fn select_io_load64(
        &mut self,
        d: Value,
        slot: IoSlot,
        comp: u8,
        output: bool,
    ) -> Result<(), BackendError> {
        if let (Some(_), IoSlot::Location(loc), false) = (self.gfx.vertex, slot, output) {
            return self.select_vertex_input64(d, loc, comp);
        }
        let n = self.shape(d).1;
        let mut out = Vec::new();
        for k in 0..u32::from(n) {
            let mut half = [MVal::Const(0); 2];
            for (h, x) in half.iter_mut().enumerate() {
                let (s, c) = super::dword_place(slot, comp, 2 * k + h as u32)?;
                *x = if output { self.output_dword(s, c)? } else { self.flat_dword(s, c)? };
            }
            out.push(self.pair(half[0], half[1])?);
        }
        self.set(d, out);
        Ok(())
    }

    /// The register of 32-bit output component `c` of `slot`, for a read-back.
    fn output_dword(&mut self, slot: IoSlot, c: u8) -> Result<MVal, BackendError> {
        let (key, base) = self.gfx.slot_key(slot)?;
        if base + c >= slot_width(key) {
            return Err(unsupported(format!("output component {c} of {slot:?}")));
        }
        Ok(MVal::Reg(self.output_reg(key, base + c), RegClass::V))
    }

    /// Channel `c` of flat fragment input `slot` (one half of a 64-bit value).
    fn flat_dword(&mut self, slot: IoSlot, c: u8) -> Result<MVal, BackendError> {
        let (Some((_, prim_mask, _)), IoSlot::Location(loc)) = (self.gfx.pixel, slot) else {
            return Err(unsupported(format!("64-bit shader input {slot:?}")));
        };
        let Some(attr) = self.gfx.inputs.iter().position(|i| i.0 == loc) else {
            return Err(unsupported(format!("input location {loc} without a variable")));
        };
        if !self.gfx.inputs[attr].1 {
            return Err(unsupported(format!("64-bit fragment input {loc} that is not flat")));
        }
        self.set_m0(prim_mask);
        Ok(MVal::Reg(self.interp_channel(attr as u8, c, None), RegClass::V))
    }

    /// interpolateAtSample/AtOffset: the centre barycentrics `ij` moved by the offset along
    /// their screen derivatives (as ACO does: I' = I + dI/dx * dx + dI/dy * dy, exact for
    /// `noperspective` inputs, first order for perspective ones); other loads use `ij`.
    fn moved_bary(&mut self, ij: [RegRef; 2], at: InterpAt) -> Result<[RegRef; 2], BackendError> {
        let (dx, dy) = match at {
            InterpAt::Offset(o) => (self.comp(o, 0)?, self.comp(o, 1)?),
            InterpAt::Sample(s) => {
                let s = self.comp(s, 0)?;
                let [x, y] = self.sample_position(s)?;
                let half = MVal::Const(u64::from((-0.5f32).to_bits()));
                (self.alu_comp(AluOp::Fadd, 32, 32, &[x, half], false)?, {
                    self.alu_comp(AluOp::Fadd, 32, 32, &[y, half], false)?
                })
            }
            _ => return Ok(ij),
        };
        let mut out = ij;
        for (k, r) in ij.iter().enumerate() {
            let v = MVal::Reg(*r, RegClass::V);
            let ddx = self.derivative(v, 32, false, true)?;
            let ddy = self.derivative(v, 32, true, true)?;
            let a = self.alu_comp(AluOp::Ffma, 32, 32, &[ddx, dx, v], false)?;
            let b = self.alu_comp(AluOp::Ffma, 32, 32, &[ddy, dy, a], false)?;
            out[k] = self.in_vgpr(b, 1)?;
        }
        Ok(out)
    }

    /// The standard position (x, y in [0, 1)) of sample `s` for the key's sample count: a
    /// 4-bit field per sample of a constant ([`g::STANDARD_SAMPLE_LOCATIONS`] in 1/16 pixel).
    fn sample_position(&mut self, s: MVal) -> Result<[MVal; 2], BackendError> {
        let locs = g::standard_sample_locations(self.gfx.key.ps.samples);
        let pack = |f: fn(&(i32, i32)) -> i32| {
            locs.iter().enumerate().fold(0u64, |w, (i, l)| w | ((f(l) as u64) & 0xf) << (4 * i))
        };
        let shift = self.alu_comp(AluOp::Ishl, 32, 32, &[s, MVal::Const(2)], false)?;
        let sixteenth = MVal::Const(u64::from((1.0f32 / 16.0).to_bits()));
        let mut out = [MVal::Const(0); 2];
        for (k, table) in [pack(|l| l.0), pack(|l| l.1)].into_iter().enumerate() {
            let args = [MVal::Const(table), shift, MVal::Const(4)];
            let n = self.alu_comp(AluOp::Ubfe, 32, 32, &args, false)?;
            let f = self.alu_comp(AluOp::U2f, 32, 32, &[n], false)?;
            out[k] = self.alu_comp(AluOp::Fmul, 32, 32, &[f, sixteenth], false)?;
        }
        Ok(out)
    }

    /// gl_SampleID: ANCILLARY bits 8..11.
    fn sample_id(&mut self) -> Option<MVal> {
        let anc = MVal::Reg(self.gfx.ancillary?, RegClass::V);
        let args = [anc, MVal::Const(8), MVal::Const(4)];
        self.alu_comp(AluOp::Ubfe, 32, 32, &args, false).ok()
    }

    /// The PS input location and first component of `slot`: clip/cull distance `d` (cull
    /// distances after the clip distances) is component `d % 4` of parameter
    /// [`g::CLIP_DIST_LOCATION`]` + d / 4`.
    fn input_place(&self, slot: IoSlot, comp: u8) -> Option<(u32, u8)> {
        let d = match slot {
            IoSlot::Location(l) => return Some((l, comp)),
            IoSlot::Builtin(BuiltinOut::ClipDistance) => comp,
            IoSlot::Builtin(BuiltinOut::CullDistance) => self.gfx.clip_len + comp,
            IoSlot::Builtin(BuiltinOut::PointCoord) => {
                return Some((g::POINT_COORD_LOCATION, comp));
            }
            IoSlot::Builtin(_) => return None,
        };
        Some((g::CLIP_DIST_LOCATION + u32::from(d / 4), d % 4))
    }

    /// Pixel shader system values: fragment coordinate, front facing, sample mask, view
    /// index.
    pub(in crate::amd::isel) fn select_gfx_sysval(&mut self, sv: SysVal) -> Option<Vec<MVal>> {
        let v = |r| MVal::Reg(r, RegClass::V);
        match (sv, self.gfx.pixel) {
            (SysVal::FragCoord, Some((_, _, pos))) => {
                // POS_W_FLOAT is the interpolated clip w; gl_FragCoord.w is its reciprocal.
                let w = self.vreg(RegClass::V, 1);
                self.emit(build::vop1(Opcode::V_RCP_F32, w, Src::R(pos[3], RegClass::V)));
                Some(vec![v(pos[0]), v(pos[1]), v(pos[2]), v(w)])
            }
            (SysVal::SampleMaskIn, Some(_)) => Some(vec![v(self.gfx.sample_coverage?)]),
            (SysVal::SampleId, Some(_)) => Some(vec![self.sample_id()?]),
            (SysVal::SamplePosition, Some(_)) => {
                let id = self.sample_id()?;
                Some(self.sample_position(id).ok()?.to_vec())
            }
            (SysVal::ViewIndex, Some(_)) => {
                Some(vec![MVal::Reg(self.gfx.view_index?, RegClass::S)])
            }
            (SysVal::FrontFacing, Some(_)) => {
                let ff = self.gfx.front_face?;
                let m = self.vreg(RegClass::S, 1);
                self.emit(build::vcmp(
                    Opcode::V_CMP_NE_U32,
                    m,
                    Src::I(0),
                    Src::R(ff, RegClass::V),
                    1,
                ));
                Some(vec![MVal::Reg(m, RegClass::S)])
            }
            _ => None,
        }
    }
}
