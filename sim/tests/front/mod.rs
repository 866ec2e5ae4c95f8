//! A harness for the graphics front end's tests: a hand-assembled VS, the register state RADV
//! programs for a legacy (non-NGG) VS draw (pm4-gfx103.md §5.3), and a [`Capture`] back end
//! that receives the setup primitives.
//!
//! The test VS reads 32 bytes per vertex from a table of 16 at user SGPRs s[0:1], indexed by
//! the vertex id modulo 16: the clip-space position, then a second vector. It exports the position to
//! POS0, the second vector to POS1 when the state enables one (misc or clip/cull distances),
//! and PARAM0 = (vertex id, instance id, position x, position y).

#![allow(dead_code)]

use ferrum_isa::{Exp, Flat, Inst, Operand, Seg};
use ferrum_regs::gfx103::{self as r, enums};
use ferrum_sim::gfx::{Capture, PrimBatch};

use crate::common::asm::{Asm, Int, Op};
pub use crate::common::pm4::{self, packet};
use crate::common::{Buffer, Gpu};
use ferrum_winsys::{Error, Ib, Ip, LostReason, Priority, Submission};

pub const SET_CONTEXT_REG: u32 = 0x69;
pub const SET_UCONFIG_REG_INDEX: u32 = 0x7a;
pub const INDEX_BASE: u32 = 0x26;
pub const INDEX_BUFFER_SIZE: u32 = 0x13;
pub const NUM_INSTANCES: u32 = 0x2f;
pub const DRAW_INDEX_AUTO: u32 = 0x2d;
pub const DRAW_INDEX_2: u32 = 0x27;
pub const DRAW_INDEX_OFFSET_2: u32 = 0x35;
pub const DRAW_INDIRECT: u32 = 0x24;
pub const DRAW_INDEX_INDIRECT: u32 = 0x25;
pub const DRAW_INDIRECT_MULTI: u32 = 0x2c;
pub const DRAW_INDEX_INDIRECT_MULTI: u32 = 0x38;
pub const SET_BASE: u32 = 0x11;

pub fn set_regs(out: &mut Vec<u32>, addr: u32, values: &[u32]) {
    let (op, base) = match addr {
        0xb000..=0xbfff => (pm4::SET_SH_REG, 0xb000),
        0x28000..=0x2ffff => (SET_CONTEXT_REG, 0x28000),
        _ => (0x79, 0x30000),
    };
    let mut body = vec![(addr - base) / 4];
    body.extend_from_slice(values);
    packet(out, op, &body);
}

pub fn f(v: f32) -> u32 {
    v.to_bits()
}

/// The test VS (see the module documentation). `pos1`: also export POS1.
pub fn vertex_shader(pos1: bool) -> Vec<u32> {
    vertex_shader_exporting(pos1, [0, 3, 4, 5])
}

/// The test VS exporting the VGPRs `param0` as PARAM0 (v0 vertex id, v2 primitive id, v3
/// instance id, v4.. the position).
pub fn vertex_shader_exporting(pos1: bool, param0: [u8; 4]) -> Vec<u32> {
    let mut a = Asm::new();
    let load = |vdst: u8, offset: i16| {
        Inst::Flat(Flat {
            op: Op::GLOBAL_LOAD_DWORDX4,
            seg: Seg::Global,
            vdst,
            addr: 1,
            data: 0,
            saddr: Operand::Sgpr(0),
            offset,
            glc: false,
            slc: false,
            dlc: false,
        })
    };
    let exp = |target: u8, src: [u8; 4], done: bool| {
        Inst::Exp(Exp { target, en: 0xf, src, compr: false, done, vm: false })
    };
    a.vop2(Op::V_AND_B32, 1, Int(15), 0);
    a.vop2(Op::V_LSHLREV_B32, 1, Int(5), 1);
    a.i(load(4, 0)).i(load(8, 16)).waitcnt(0, 63);
    a.i(exp(12, [4, 5, 6, 7], !pos1));
    if pos1 {
        a.i(exp(13, [8, 9, 10, 11], true));
    }
    a.i(exp(32, param0, false));
    a.endpgm();
    a.finish()
}

/// Register state for one draw; tests change fields before [`Draw::emit`].
#[derive(Clone)]
pub struct Draw {
    pub prim_type: u32,
    pub vs_out_cntl: u32,
    pub clip_cntl: u32,
    pub su_mode: u32,
    pub vte_cntl: u32,
    /// Guard-band adjust (clip, discard) for x and y.
    pub gb: [f32; 2],
    /// Viewport 0: x, y, width, height, min depth, max depth.
    pub viewport: [f32; 6],
    pub instances: u32,
    pub point_size: u32,
    pub line_width: u32,
    pub point_minmax: u32,
    /// UCP planes 0..5.
    pub ucp: [[f32; 4]; 6],
    pub restart: Option<u32>,
    pub index_type: u32,
    pub pos1: bool,
    /// GE_INDX_OFFSET and GE_MIN/MAX_VTX_INDX.
    pub index_offset: u32,
    pub index_range: (u32, u32),
    /// Emit these registers (everything a draw needs); strict tests clear some.
    pub skip: Vec<u32>,
}

impl Default for Draw {
    fn default() -> Self {
        Draw {
            prim_type: enums::VGT_DI_PRIM_TYPE::DI_PT_TRILIST,
            vs_out_cntl: 0,
            clip_cntl: r::PA_CL_CLIP_CNTL::DX_CLIP_SPACE_DEF.val(1),
            su_mode: 0,
            vte_cntl: 0x43f,
            gb: [1.0, 1.0],
            viewport: [0.0, 0.0, 100.0, 100.0, 0.0, 1.0],
            instances: 1,
            point_size: 8 << 4,
            line_width: 8,
            point_minmax: 0xffff << 16,
            ucp: [[0.0; 4]; 6],
            restart: None,
            index_type: enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_16,
            pos1: false,
            index_offset: 0,
            index_range: (0, u32::MAX),
            skip: Vec::new(),
        }
    }
}

impl Draw {
    /// The register writes of the draw state (not the draw packet).
    pub fn emit(&self, out: &mut Vec<u32>, vs: &Buffer, table: &Buffer) {
        let mut set = |addr: u32, values: &[u32]| {
            if !self.skip.contains(&addr) {
                set_regs(out, addr, values);
            }
        };
        use r::VGT_SHADER_STAGES_EN as S;
        set(r::VGT_SHADER_STAGES_EN, &[S::VS_W32_EN.val(1) | S::MAX_PRIMGRP_IN_WAVE.val(2)]);
        set(r::VGT_GS_MODE, &[0]);
        let rsrc1 = r::SPI_SHADER_PGM_RSRC1_VS::VGPRS.val(1)
            | r::SPI_SHADER_PGM_RSRC1_VS::VGPR_COMP_CNT.val(3)
            | r::SPI_SHADER_PGM_RSRC1_VS::DX10_CLAMP.val(1);
        let rsrc2 = r::SPI_SHADER_PGM_RSRC2_VS::USER_SGPR.val(2);
        set(r::SPI_SHADER_PGM_LO_VS, &[(vs.va >> 8) as u32, (vs.va >> 40) as u32, rsrc1, rsrc2]);
        set(r::SPI_SHADER_USER_DATA_VS_0, &[table.va as u32, (table.va >> 32) as u32]);
        let pos_format = 4 | if self.pos1 { 4 << 4 } else { 0 };
        set(r::SPI_SHADER_POS_FORMAT, &[pos_format]);
        set(r::SPI_VS_OUT_CONFIG, &[0]);
        set(r::PA_CL_VS_OUT_CNTL, &[self.vs_out_cntl]);
        set(r::PA_CL_CLIP_CNTL, &[self.clip_cntl]);
        set(r::PA_SU_SC_MODE_CNTL, &[self.su_mode]);
        set(r::PA_CL_VTE_CNTL, &[self.vte_cntl]);
        let [gc, gd] = self.gb;
        set(r::PA_CL_GB_VERT_CLIP_ADJ, &[f(gc), f(gd), f(gc), f(gd)]);
        let [x, y, w, h, zmin, zmax] = self.viewport;
        set(
            r::PA_CL_VPORT_XSCALE,
            &[f(w / 2.0), f(x + w / 2.0), f(h / 2.0), f(y + h / 2.0), f(zmax - zmin), f(zmin)],
        );
        set(r::PA_SU_POINT_SIZE, &[self.point_size | self.point_size << 16]);
        set(r::PA_SU_POINT_MINMAX, &[self.point_minmax]);
        set(r::PA_SU_LINE_CNTL, &[self.line_width]);
        let ucp: Vec<u32> = self.ucp.iter().flatten().map(|&v| f(v)).collect();
        set(r::PA_CL_UCP_0_X, &ucp);
        set(r::GE_INDX_OFFSET, &[self.index_offset]);
        set(r::GE_MIN_VTX_INDX, &[self.index_range.0]);
        set(r::GE_MAX_VTX_INDX, &[self.index_range.1]);
        set(r::GE_MULTI_PRIM_IB_RESET_EN, &[self.restart.is_some() as u32]);
        set(r::VGT_MULTI_PRIM_IB_RESET_INDX, &[self.restart.unwrap_or(u32::MAX)]);
        if !self.skip.contains(&r::VGT_PRIMITIVE_TYPE) {
            packet(out, SET_UCONFIG_REG_INDEX, &[0x1000_0242, self.prim_type]);
        }
        if !self.skip.contains(&r::VGT_INDEX_TYPE) {
            packet(out, SET_UCONFIG_REG_INDEX, &[0x2000_0243, self.index_type]);
        }
        if !self.skip.contains(&r::VGT_NUM_INSTANCES) {
            packet(out, NUM_INSTANCES, &[self.instances]);
        }
    }
}

/// A device with a capturing back end, the test VS and a vertex table.
pub struct Scene {
    pub gpu: Gpu,
    pub capture: Capture,
    pub vs: Buffer,
    pub table: Buffer,
    pub extra: Buffer,
}

impl Scene {
    /// `verts`: per vertex, the position and the second vector.
    pub fn new(verts: &[([f32; 4], [f32; 4])], pos1: bool) -> Scene {
        Scene::with(Gpu::new(), verts, &vertex_shader(pos1))
    }

    /// A scene on `gpu` running the VS `program`.
    pub fn with(gpu: Gpu, verts: &[([f32; 4], [f32; 4])], program: &[u32]) -> Scene {
        let capture = Capture::default();
        gpu.kernel.set_graphics_backend(Box::new(capture.clone()));
        let vs = gpu.program(program);
        let table = gpu.buffer(4096.max(32 * verts.len() as u64));
        let words: Vec<u32> =
            verts.iter().flat_map(|(p, e)| p.iter().chain(e).map(|v| v.to_bits())).collect();
        table.map.write_u32s(0, &words).unwrap();
        let extra = gpu.buffer(1 << 16);
        Scene { gpu, capture, vs, table, extra }
    }

    /// Runs `pm4` on the graphics ring; whether the job completed without a fault.
    pub fn run(&self, pm4: &[u32]) -> bool {
        let ib = self.gpu.buffer(((pm4.len() * 4) as u64).max(4096));
        ib.map.write_u32s(0, pm4).unwrap();
        let handles: Vec<u32> =
            [&self.vs, &self.table, &self.extra, &ib].iter().map(|b| b.bo.handle()).collect();
        let ibs = [Ib { va: ib.va, size_dw: pm4.len() as u32, flags: 0 }];
        // A fresh context per job: a fault makes its context guilty.
        let ctx = self.gpu.dev.create_context(Priority::Normal).unwrap();
        let fence = ctx.submit(&Submission::new(Ip::Gfx, &ibs, &handles)).unwrap();
        match ctx.wait(fence, Some(std::time::Duration::from_secs(10))) {
            Ok(true) => true,
            Err(Error::ContextLost(LostReason::Guilty)) => false,
            other => panic!("unexpected wait result {other:?}"),
        }
    }

    /// Emits `draw`'s state and then `tail` (the draw packets); returns the captured batches,
    /// or `None` if the job faulted.
    pub fn draw(&self, draw: &Draw, tail: &[u32]) -> Option<Vec<PrimBatch>> {
        self.capture.batches.lock().clear();
        let mut pm = Vec::new();
        draw.emit(&mut pm, &self.vs, &self.table);
        pm.extend_from_slice(tail);
        if !self.run(&pm) {
            return None;
        }
        Some(std::mem::take(&mut *self.capture.batches.lock()))
    }

    /// A DRAW_INDEX_AUTO of `count` vertices.
    pub fn auto(&self, draw: &Draw, count: u32) -> Option<Vec<PrimBatch>> {
        let mut tail = Vec::new();
        packet(&mut tail, DRAW_INDEX_AUTO, &[count, 2]);
        self.draw(draw, &tail)
    }

    /// A DRAW_INDEX_2 over `indices` (written into `extra` at offset 0) in `draw.index_type`.
    pub fn indexed(&self, draw: &Draw, indices: &[u32]) -> Option<Vec<PrimBatch>> {
        let bytes: Vec<u8> = match draw.index_type {
            enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_8 => indices.iter().map(|&i| i as u8).collect(),
            enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_16 => {
                indices.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()
            }
            _ => indices.iter().flat_map(|&i| i.to_le_bytes()).collect(),
        };
        self.extra.map.write(0, &bytes).unwrap();
        let va = self.extra.va;
        let n = indices.len() as u32;
        let mut tail = Vec::new();
        packet(&mut tail, DRAW_INDEX_2, &[n, va as u32, (va >> 32) as u32, n, 0]);
        self.draw(draw, &tail)
    }
}

/// Captured primitives as (vertex ids, instance) per primitive, from PARAM0.x/y.
pub fn ids(batches: &[PrimBatch]) -> Vec<(Vec<u32>, u32)> {
    batches
        .iter()
        .flat_map(|b| b.prims.iter())
        .map(|p| (p.v.iter().map(|v| v.params[0][0]).collect(), p.instance))
        .collect()
}
