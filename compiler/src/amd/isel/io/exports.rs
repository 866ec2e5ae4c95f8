//! The exports at the end of the program, and a vertex shader's: position, the misc vector
//! and clip/cull distances, then one parameter per written location.

use ferrum_isa::{Exp, Inst, Opcode, Operand, Special};

use super::{Exported, GfxIo, SlotKey};
use crate::amd::abi::graphics as g;
use crate::amd::error::{unsupported, BackendError};
use crate::amd::isel::build::{self, Src, B};
use crate::amd::isel::Isel;
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::Stage;

impl Isel<'_> {
    /// The exports, at the end of the program.
    pub(in crate::amd::isel) fn emit_exports(&mut self) -> Result<Exported, BackendError> {
        if let Some(live) = self.gfx.live {
            let exec = Operand::Special(Special::ExecLo);
            self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(live, RegClass::S)));
        }
        let full = std::mem::take(&mut self.gfx.written_in_entry);
        self.mf.blocks[0].insts.retain(|mi| {
            let zeroing = mi.inst.op() == Opcode::V_MOV_B32 && mi.uses.is_empty();
            !(zeroing && mi.defs.len() == 1 && full.contains(&mi.defs[0].reg))
        });
        match self.shader.stage {
            Stage::Vertex => self.vs_exports(),
            Stage::Fragment => self.ps_exports(),
            _ => Ok(Exported::default()),
        }
    }

    pub(super) fn exp(
        &mut self,
        target: u8,
        en: u8,
        src: [Option<RegRef>; 4],
        compr: bool,
    ) -> usize {
        let mut b =
            B::new(Inst::Exp(Exp { target, en, src: [0; 4], compr, done: false, vm: false }));
        for (k, r) in src.iter().enumerate() {
            if let Some(r) = r {
                b = b.use_(Slot::ExpSrc(k as u8), *r, 1);
            }
        }
        self.emit(b.done());
        self.mf.blocks[self.cur].insts.len() - 1
    }

    pub(super) fn set_done(&mut self, at: usize, vm: bool) {
        if let Inst::Exp(e) = &mut self.mf.blocks[self.cur].insts[at].inst {
            e.done = true;
            e.vm = vm;
        }
    }

    /// Registers and enable mask of output slot `key`.
    fn slot_regs(&self, key: SlotKey) -> (u8, [Option<RegRef>; 4]) {
        let regs: [Option<RegRef>; 4] =
            std::array::from_fn(|c| self.gfx.outputs.get(&(key, c as u8)).copied());
        let en = (0..4).filter(|&c| regs[c].is_some()).fold(0u8, |m, c| m | 1 << c);
        (en, regs)
    }

    fn vs_exports(&mut self) -> Result<Exported, BackendError> {
        // Position needs all four components (SPI_SHADER_POS_FORMAT 4COMP).
        let pos: [Option<RegRef>; 4] =
            std::array::from_fn(|c| Some(self.output_reg(SlotKey::Position, c as u8)));
        let mut at = self.exp(g::EXP_POS0, 0xf, pos, false);
        let written = |io: &GfxIo, key, c: u8| io.outputs.contains_key(&(key, c));
        let bits = |io: &GfxIo, r: std::ops::Range<u8>| {
            r.filter(|&c| written(io, SlotKey::ClipCull, c)).fold(0u8, |m, c| m | 1 << c)
        };
        let extras = g::VsExtras {
            point_size: written(&self.gfx, SlotKey::Misc, 0),
            layer: written(&self.gfx, SlotKey::Misc, 2),
            viewport_index: written(&self.gfx, SlotKey::Misc, 3),
            clip_mask: bits(&self.gfx, 0..self.gfx.clip_len),
            cull_mask: bits(&self.gfx, self.gfx.clip_len..8),
        };
        let mut target = g::EXP_POS0 + 1;
        // The misc vector and the distance vectors export only their written components:
        // PA_CL_VS_OUT_CNTL (from `extras`) makes the PA read exactly those (the edge flag
        // and distances past the last stay off), as Mesa's exports do.
        let mut vectors = Vec::new();
        if extras.misc() {
            vectors.push((SlotKey::Misc, 0));
        }
        for v in 0..extras.ccdist_vectors() as u8 {
            vectors.push((SlotKey::ClipCull, 4 * v));
        }
        for (key, first) in vectors {
            let regs: [Option<RegRef>; 4] =
                std::array::from_fn(|c| self.gfx.outputs.get(&(key, first + c as u8)).copied());
            let en = (0..4).filter(|&c| regs[c].is_some()).fold(0u8, |m, c| m | 1 << c);
            at = self.exp(target, en, regs, false);
            target += 1;
        }
        self.set_done(at, false);
        let locations: Vec<u32> = self
            .gfx
            .outputs
            .keys()
            .filter_map(|k| match k.0 {
                SlotKey::Location(l) => Some(l),
                SlotKey::Position | SlotKey::Depth | SlotKey::Misc | SlotKey::ClipCull => None,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for (slot, &loc) in locations.iter().enumerate() {
            let (en, regs) = self.slot_regs(SlotKey::Location(loc));
            self.exp(g::EXP_PARAM0 + slot as u8, en, regs, false);
        }
        // The distances again as parameters, for a fragment shader that reads them.
        let mut params = locations;
        let copies =
            if self.gfx.key.vs.unread_clip_distances { 0 } else { extras.ccdist_vectors() };
        for v in 0..copies as u8 {
            let slot = params.len() as u8;
            if u32::from(slot) >= g::MAX_PARAMS {
                return Err(unsupported("more than 32 parameters with the clip distances"));
            }
            let regs: [Option<RegRef>; 4] =
                std::array::from_fn(|c| Some(self.output_reg(SlotKey::ClipCull, 4 * v + c as u8)));
            self.exp(g::EXP_PARAM0 + slot, 0xf, regs, false);
            params.push(g::CLIP_DIST_LOCATION + u32::from(v));
        }
        Ok(Exported { params, extras, ..Default::default() })
    }
}
