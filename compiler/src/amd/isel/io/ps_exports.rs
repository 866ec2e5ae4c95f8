//! A pixel shader's exports: the colour targets in the key's formats and mrtz.

use ferrum_isa::Opcode;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

use super::{Exported, SlotKey};
use crate::amd::abi::graphics as g;
use crate::amd::error::{unsupported, BackendError};
use crate::amd::isel::build::Src;
use crate::amd::isel::Isel;
use crate::amd::mir::RegRef;

/// One export: target, EN, source registers, `compr`.
type ExpArgs = (u8, u8, [Option<RegRef>; 4], bool);

impl Isel<'_> {
    pub(super) fn ps_exports(&mut self) -> Result<Exported, BackendError> {
        let beyond = |k: &&(SlotKey, u8)| matches!(k.0, SlotKey::Location(l) if l > 7);
        if let Some((k, _)) = self.gfx.outputs.keys().find(beyond) {
            return Err(unsupported(format!("fragment output {k:?} beyond 8 colour targets")));
        }
        let mut color = [0u8; 8];
        let key = self.gfx.key.ps;
        // Alpha to coverage reads the shader's alpha: taken before alpha to one replaces it.
        let mrtz_alpha = if key.alpha_to_coverage_via_mrtz {
            self.export_src(SlotKey::Location(0), 3)
        } else {
            None
        };
        // Conversions first, so no register an export reads is overwritten after it.
        let mut exports = Vec::new();
        for t in 0..8u8 {
            let mut srcs: [Option<Src>; 4] =
                std::array::from_fn(|c| self.export_src(SlotKey::Location(u32::from(t)), c as u8));
            let mut en = (0..4).filter(|&c| srcs[c].is_some()).fold(0u8, |m, c| m | 1 << c);
            let fmt = key.color_formats[usize::from(t)];
            if en == 0 || fmt == EX::SPI_SHADER_ZERO {
                continue;
            }
            if key.alpha_to_one >> t & 1 != 0 {
                srcs[3] = Some(Src::I(1f32.to_bits()));
                en |= 8;
            }
            color[usize::from(t)] = en;
            exports.push(self.mrt(g::EXP_MRT0 + t, fmt, en, srcs)?);
        }
        // Depth first (as ACO orders them); it ends the program when there is no colour.
        let frag_depth = self.gfx.outputs.contains_key(&(SlotKey::Depth, 0));
        let stencil = self.gfx.outputs.contains_key(&(SlotKey::Depth, 1));
        let sample_mask = self.gfx.outputs.contains_key(&(SlotKey::Depth, 2));
        if frag_depth || stencil || sample_mask || mrtz_alpha.is_some() {
            let vgpr = |io: &mut Self, s: Option<Src>| s.map(|s| io.export_vgpr(s));
            let depth = vgpr(self, self.export_src(SlotKey::Depth, 0));
            let stencil_ref = vgpr(self, self.export_src(SlotKey::Depth, 1));
            let mask = vgpr(self, self.export_src(SlotKey::Depth, 2));
            let alpha = vgpr(self, mrtz_alpha);
            let en = u8::from(frag_depth) | u8::from(stencil) << 1 | u8::from(sample_mask) << 2;
            let en = en | u8::from(mrtz_alpha.is_some()) << 3;
            exports.insert(0, (g::EXP_MRTZ, en, [depth, stencil_ref, mask, alpha], false));
        }
        if exports.is_empty() {
            exports.push((g::EXP_NULL, 0, [None; 4], false));
        }
        let mut at = 0;
        for (target, en, regs, compr) in exports {
            at = self.exp(target, en, regs, compr);
        }
        self.set_done(at, true);
        Ok(Exported {
            color,
            inputs: self.gfx.inputs.clone(),
            uses: g::PsUses {
                kills: self.gfx.kills || self.gfx.demotes,
                frag_depth,
                stencil,
                sample_mask,
                mrtz_alpha: mrtz_alpha.is_some(),
                ..self.gfx.ps_uses
            },
            ..Default::default()
        })
    }

    /// The export of one colour target in `fmt` (SPI_SHADER_EX_FORMAT) reading `srcs`,
    /// converting 16-bit formats into packed registers: (target, EN, sources, `compr`).
    fn mrt(
        &mut self,
        target: u8,
        fmt: u32,
        en: u8,
        srcs: [Option<Src>; 4],
    ) -> Result<ExpArgs, BackendError> {
        let pack = match fmt {
            EX::SPI_SHADER_32_R
            | EX::SPI_SHADER_32_GR
            | EX::SPI_SHADER_32_AR
            | EX::SPI_SHADER_32_ABGR => {
                let mask = match fmt {
                    EX::SPI_SHADER_32_R => 1,
                    EX::SPI_SHADER_32_GR => 3,
                    EX::SPI_SHADER_32_AR => 9,
                    _ => 0xf,
                };
                let en = en & mask;
                let regs = std::array::from_fn(|c| {
                    srcs[c].filter(|_| en >> c & 1 != 0).map(|s| self.export_vgpr(s))
                });
                return Ok((target, en, regs, false));
            }
            EX::SPI_SHADER_FP16_ABGR => Opcode::V_CVT_PKRTZ_F16_F32,
            EX::SPI_SHADER_UNORM16_ABGR => Opcode::V_CVT_PKNORM_U16_F32,
            EX::SPI_SHADER_SNORM16_ABGR => Opcode::V_CVT_PKNORM_I16_F32,
            EX::SPI_SHADER_UINT16_ABGR => Opcode::V_CVT_PK_U16_U32,
            EX::SPI_SHADER_SINT16_ABGR => Opcode::V_CVT_PK_I16_I32,
            f => return Err(unsupported(format!("colour export format {f}"))),
        };
        let mut packed = [None; 4];
        let mut pen = 0u8;
        for h in 0..2 {
            if en >> (2 * h) & 3 == 0 {
                continue;
            }
            // An unwritten half of a written pair packs 0 (its value is undefined).
            let (a, b) = (srcs[2 * h].unwrap_or(Src::I(0)), srcs[2 * h + 1].unwrap_or(Src::I(0)));
            packed[h] = Some(self.export_pair(pack, a, b));
            pen |= 3 << (2 * h);
        }
        Ok((target, pen, packed, true))
    }
}
