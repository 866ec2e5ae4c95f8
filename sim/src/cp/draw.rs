//! The draw packets (pm4-gfx103.md §5.2) and the state they keep in the CP: index buffer
//! base and size, instance count, and SET_BASE's indirect-argument base.
//!
//! The CP does not add a base vertex or first instance itself: DRAW_INDIRECT and its
//! relatives write them into the SH registers the packet names (the VS's user SGPRs), and the
//! shader adds them. Vertex ids are the indices (0.. for auto-index draws), instance ids
//! count from 0.

use ferrum_regs::gfx103 as r;

use super::packets::Packet;
use super::regs::{field, SH_BASE};
use super::{CommandProcessor, Env};
use crate::error::GpuError;
use crate::gfx::assemble::{IndexSize, IndexSource};
use crate::gfx::{DrawArgs, DrawCounts};

/// VGT_DRAW_INITIATOR.SOURCE_SELECT.
const DI_SRC_SEL_DMA: u32 = 0;
const DI_SRC_SEL_AUTO_INDEX: u32 = 2;

/// Indices to pipeline-statistics counters (GFX10.3 sample order).
const PS_INVOCATIONS: usize = 0;
const C_PRIMITIVES: usize = 1;
const C_INVOCATIONS: usize = 2;
const VS_INVOCATIONS: usize = 3;
const IA_PRIMITIVES: usize = 6;
const IA_VERTICES: usize = 7;

/// Draw state the CP keeps between packets.
#[derive(Debug, Default, Clone)]
pub struct DrawState {
    pub index_base: Option<u64>,
    pub index_buffer_size: Option<u32>,
    pub num_instances: Option<u32>,
    /// Samples that passed depth/stencil since the queue started (ZPASS_DONE reports it).
    pub zpass: u64,
}

/// One indirect draw's arguments: which SH registers receive the base vertex, first
/// instance and draw index.
struct IndirectRegs {
    base_vertex: u32,
    start_instance: u32,
    draw_index: Option<u32>,
}

impl CommandProcessor {
    pub(super) fn index_base(&mut self, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(2)?;
        let va = u64::from(p.body[0]) | (u64::from(p.body[1] & 0xffff) << 32);
        if va % 2 != 0 {
            return Err(p.malformed("INDEX_BASE not 2-byte aligned"));
        }
        self.draw.index_base = Some(va);
        Ok(())
    }

    pub(super) fn index_type(&mut self, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(1)?;
        // The body is a VGT_DMA_INDEX_TYPE value; the index size lives in VGT_INDEX_TYPE.
        use r::VGT_DMA_INDEX_TYPE as D;
        if D::SWAP_MODE.get(p.body[0]) != 0 {
            return Err(GpuError::Unsupported("INDEX_TYPE with byte swapping".into()));
        }
        let v = r::VGT_INDEX_TYPE::INDEX_TYPE.val(D::INDEX_TYPE.get(p.body[0]));
        self.regs.write(r::VGT_INDEX_TYPE, v);
        Ok(())
    }

    pub(super) fn draw_index_auto(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
    ) -> Result<(), GpuError> {
        p.need(2)?;
        self.check_initiator(p, p.body[1], DI_SRC_SEL_AUTO_INDEX)?;
        self.draw(env, IndexSource::Auto { count: p.body[0] })
    }

    pub(super) fn draw_index_2(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(5)?;
        self.check_initiator(p, p.body[4], DI_SRC_SEL_DMA)?;
        let va = u64::from(p.body[1]) | (u64::from(p.body[2] & 0xffff) << 32);
        let src =
            IndexSource::Dma { va, count: p.body[3], max: p.body[0], size: self.index_size(env)? };
        self.draw(env, src)
    }

    pub(super) fn draw_index_offset_2(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
    ) -> Result<(), GpuError> {
        p.need(4)?;
        self.check_initiator(p, p.body[3], DI_SRC_SEL_DMA)?;
        let size = self.index_size(env)?;
        let base = self.need_index_base(p)?;
        // MAX_SIZE counts indices from the index base; the draw starts OFFSET indices in.
        let (max, offset, count) = (p.body[0], p.body[1], p.body[2]);
        let va = base.wrapping_add(u64::from(offset) * size.bytes());
        let src = IndexSource::Dma { va, count, max: max.saturating_sub(offset), size };
        self.draw(env, src)
    }

    /// DRAW_INDIRECT, DRAW_INDEX_INDIRECT and their MULTI forms.
    pub(super) fn draw_indirect(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
        indexed: bool,
        multi: bool,
    ) -> Result<(), GpuError> {
        p.need(if multi { 9 } else { 4 })?;
        let initiator = p.body[if multi { 8 } else { 3 }];
        let sel = if indexed { DI_SRC_SEL_DMA } else { DI_SRC_SEL_AUTO_INDEX };
        self.check_initiator(p, initiator, sel)?;
        let reg = |v: u32| field(v, 0, 15);
        let mut regs = IndirectRegs {
            base_vertex: reg(p.body[1]),
            start_instance: reg(p.body[2]),
            draw_index: None,
        };
        let (mut count, stride) = (1u32, if indexed { 20 } else { 16 });
        let mut stride = stride as u64;
        if multi {
            let flags = p.body[3];
            if flags >> 31 != 0 {
                regs.draw_index = Some(reg(flags));
            }
            count = p.body[4];
            if flags & (1 << 30) != 0 {
                let va = p.addr64(5);
                if va % 4 != 0 {
                    return Err(p.malformed("indirect draw count address not dword aligned"));
                }
                count = count.min(env.space.read_u32(va)?);
            }
            stride = u64::from(p.body[7]);
        }
        let args_va = self.indirect_base.wrapping_add(u64::from(p.body[0]));
        for i in 0..count {
            let va = args_va.wrapping_add(stride * u64::from(i));
            if va % 4 != 0 {
                return Err(p.malformed("indirect draw arguments not dword aligned"));
            }
            let words = env.space.read_u32s(va, if indexed { 5 } else { 4 })?;
            self.indirect_one(env, p, &regs, &words, indexed, i)?;
        }
        Ok(())
    }

    fn indirect_one(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
        regs: &IndirectRegs,
        w: &[u32],
        indexed: bool,
        draw_index: u32,
    ) -> Result<(), GpuError> {
        // Vk(DrawIndexed)IndirectCommand: vertexCount, instanceCount, firstVertex,
        // firstInstance / indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
        let (base_vertex, first_instance) = if indexed { (w[3], w[4]) } else { (w[2], w[3]) };
        let mut set = |index: u32, value: u32| -> Result<(), GpuError> {
            if index != 0 && !self.regs.write(SH_BASE + 4 * index, value) {
                return Err(p.malformed(format!("indirect draw register index {index:#x}")));
            }
            Ok(())
        };
        set(regs.base_vertex, base_vertex)?;
        set(regs.start_instance, first_instance)?;
        if let Some(d) = regs.draw_index {
            set(d, draw_index)?;
        }
        self.draw.num_instances = Some(w[1]);
        let src = if indexed {
            let size = self.index_size(env)?;
            let base = self.need_index_base(p)?;
            let Some(max) = self.draw.index_buffer_size else {
                return Err(GpuError::BadState(
                    "indexed indirect draw before INDEX_BUFFER_SIZE".into(),
                ));
            };
            let va = base.wrapping_add(u64::from(w[2]) * size.bytes());
            IndexSource::Dma { va, count: w[0], max: max.saturating_sub(w[2]), size }
        } else {
            IndexSource::Auto { count: w[0] }
        };
        self.draw(env, src)
    }

    fn check_initiator(&self, p: &Packet<'_>, initiator: u32, sel: u32) -> Result<(), GpuError> {
        use r::VGT_DRAW_INITIATOR as I;
        let got = I::SOURCE_SELECT.get(initiator);
        if got != sel {
            return Err(p.malformed(format!(
                "draw initiator {initiator:#x}: SOURCE_SELECT {got}, this packet needs {sel}"
            )));
        }
        if I::USE_OPAQUE.is_set(initiator) || I::MAJOR_MODE.get(initiator) != 0 {
            return Err(GpuError::Unsupported(format!(
                "draw initiator {initiator:#x} (opaque/streamout draws, major mode 1)"
            )));
        }
        Ok(())
    }

    fn need_index_base(&self, p: &Packet<'_>) -> Result<u64, GpuError> {
        self.draw.index_base.ok_or_else(|| {
            GpuError::BadState(format!("indexed draw at {:#x} before INDEX_BASE", p.addr))
        })
    }

    fn index_size(&self, env: &Env<'_>) -> Result<IndexSize, GpuError> {
        if env.config.strict {
            crate::gfx::state::require(&self.regs, &[r::VGT_INDEX_TYPE], "an indexed draw")?;
        }
        let v = r::VGT_INDEX_TYPE::INDEX_TYPE.get(self.regs.get(r::VGT_INDEX_TYPE));
        IndexSize::from_field(v)
            .ok_or_else(|| GpuError::BadState(format!("VGT_INDEX_TYPE.INDEX_TYPE = {v}")))
    }

    fn draw(&mut self, env: &Env<'_>, source: IndexSource) -> Result<(), GpuError> {
        let instances = match self.draw.num_instances {
            Some(n) => n,
            None if env.config.strict => {
                return Err(GpuError::BadState("draw before NUM_INSTANCES".into()))
            }
            None => 1,
        };
        let counts = env.gfx.draw(&self.regs, env, &DrawArgs { source, instances })?;
        self.count(&counts);
        Ok(())
    }

    fn count(&mut self, c: &DrawCounts) {
        self.draw.zpass += c.back.zpass_samples;
        if self.stats_enabled {
            let s = &mut self.pipeline_stats;
            s[PS_INVOCATIONS] += c.back.ps_invocations;
            s[C_PRIMITIVES] += c.back.c_primitives;
            s[C_INVOCATIONS] += c.c_invocations;
            s[VS_INVOCATIONS] += c.vs_invocations;
            s[IA_PRIMITIVES] += c.ia_primitives;
            s[IA_VERTICES] += c.ia_vertices;
        }
    }
}
