//! A harness for the graphics back end: register state written by hand (names from
//! `ferrum_regs`), pixel shaders assembled through `ferrum_isa`, primitives handed straight to
//! the back end as the front end would, and the target surfaces read back.

use std::time::Instant;

use ferrum_isa::{Exp, Inst, Opcode, Vintrp};
use ferrum_regs::gfx103::*;
use ferrum_sim::compute::ComputeEngine;
use ferrum_sim::cp::{Env, RegisterFile};
use ferrum_sim::gfx::backend::BackEnd;
use ferrum_sim::gfx::{BackEndCounts, PrimBatch, PrimKind, Rasterizer, SetupPrim, SetupVertex};
use ferrum_sim::{GpuError, SimConfig};

use super::asm::Asm;
use super::{Buffer, Gpu};

pub const W: u32 = 64;
pub const H: u32 = 64;

/// A 64x64 scene: colour target 0 (linear), depth (D32F) and stencil (S8) surfaces.
pub struct Scene {
    pub gpu: Gpu,
    pub regs: RegisterFile,
    pub code: Buffer,
    pub color: Buffer,
    pub depth: Buffer,
    pub stencil: Buffer,
    pub config: SimConfig,
    pub compute: ComputeEngine,
    /// Bytes per colour pixel of target 0.
    pub bpp: u32,
    pub w: u32,
    pub h: u32,
}

/// Bits of an f32.
pub fn f(v: f32) -> u32 {
    v.to_bits()
}

impl Scene {
    pub fn new() -> Scene {
        Scene::with_size(
            W,
            H,
            SimConfig { strict: true, threads: 2, wave_budget: 1 << 20, ..Default::default() },
        )
    }

    /// A `w` x `h` scene (linear targets).
    pub fn with_size(w: u32, h: u32, config: SimConfig) -> Scene {
        let gpu = Gpu::with_config(SimConfig { host_memory_limit: 1 << 30, ..config.clone() });
        let mut s = Scene {
            code: gpu.buffer(64 << 10),
            color: gpu.buffer((w.div_ceil(16) * 16 * h * 16) as u64),
            depth: gpu.buffer((w.div_ceil(64) * 64 * h * 4) as u64),
            stencil: gpu.buffer((w.div_ceil(256) * 256 * h) as u64),
            w,
            h,
            gpu,
            regs: RegisterFile::default(),
            config,
            compute: ComputeEngine::default(),
            bpp: 4,
        };
        let full = |tl: u32, br: u32, regs: &mut RegisterFile| {
            regs.write(tl, 0);
            regs.write(br, w | h << 16);
        };
        full(PA_SC_SCREEN_SCISSOR_TL, PA_SC_SCREEN_SCISSOR_BR, &mut s.regs);
        full(PA_SC_WINDOW_SCISSOR_TL, PA_SC_WINDOW_SCISSOR_BR, &mut s.regs);
        full(PA_SC_GENERIC_SCISSOR_TL, PA_SC_GENERIC_SCISSOR_BR, &mut s.regs);
        s.set(
            PA_SU_VTX_CNTL,
            PA_SU_VTX_CNTL::PIX_CENTER.val(1)
                | PA_SU_VTX_CNTL::ROUND_MODE.val(2)
                | PA_SU_VTX_CNTL::QUANT_MODE.val(5),
        );
        // Everything else the back end reads starts at 0 (strict mode wants it written).
        for reg in [
            PA_SC_WINDOW_OFFSET,
            PA_SC_MODE_CNTL_0,
            PA_SC_AA_CONFIG,
            SPI_BARYC_CNTL,
            SPI_SHADER_Z_FORMAT,
            DB_SHADER_CONTROL,
            DB_DEPTH_CONTROL,
            DB_STENCIL_CONTROL,
            DB_STENCILREFMASK,
            DB_STENCILREFMASK_BF,
            DB_DEPTH_BOUNDS_MIN,
            DB_DEPTH_BOUNDS_MAX,
            DB_DEPTH_VIEW,
            DB_Z_INFO,
            DB_STENCIL_INFO,
            DB_DEPTH_SIZE_XY,
            CB_COLOR0_VIEW,
            CB_COLOR0_ATTRIB,
            CB_BLEND0_CONTROL,
            CB_BLEND_RED,
            CB_BLEND_GREEN,
            CB_BLEND_BLUE,
            CB_BLEND_ALPHA,
            PA_SC_VPORT_SCISSOR_0_TL,
            PA_SC_VPORT_SCISSOR_0_BR,
        ] {
            s.set(reg, 0);
        }
        for i in 0..16 {
            s.set(PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 4 * i, 0);
        }
        s.set(PA_SC_CENTROID_PRIORITY_0, 0x7654_3210);
        s.set(PA_SC_CENTROID_PRIORITY_1, 0xfedc_ba98);
        s.set(PA_SC_AA_MASK_X0Y0_X1Y0, u32::MAX);
        s.set(PA_SC_AA_MASK_X0Y1_X1Y1, u32::MAX);
        s.set(PA_SC_VPORT_ZMIN_0, f(0.0));
        s.set(PA_SC_VPORT_ZMAX_0, f(1.0));
        s.set(CB_COLOR_CONTROL, CB_COLOR_CONTROL::MODE.val(1) | CB_COLOR_CONTROL::ROP3.val(0xcc));
        s.set(CB_TARGET_MASK, 0xf);
        s.set(CB_SHADER_MASK, 0xf);
        s.set(SPI_PS_IN_CONTROL, SPI_PS_IN_CONTROL::PS_W32_EN.val(1));
        s.set(SPI_PS_INPUT_CNTL_0, 0);
        s.inputs(1 << 1); // PERSP_CENTER
        s.set(SPI_SHADER_COL_FORMAT, 9); // 32_ABGR
        s.target(14, 7, 0); // 32_32_32_32 FLOAT
        s
    }

    pub fn set(&mut self, reg: u32, v: u32) {
        assert!(self.regs.write(reg, v), "{reg:#x} is not a register");
    }

    /// SPI_PS_INPUT_ENA and ADDR.
    pub fn inputs(&mut self, ena: u32) {
        self.set(SPI_PS_INPUT_ENA, ena);
        self.set(SPI_PS_INPUT_ADDR, ena);
    }

    /// Colour target 0: FORMAT, NUMBER_TYPE, COMP_SWAP; linear, W x H.
    pub fn target(&mut self, format: u32, number: u32, swap: u32) {
        self.bpp = match format {
            1 => 1,
            2 | 3 | 16..=19 => 2,
            4..=10 => 4,
            11 | 12 => 8,
            _ => 16,
        };
        self.set(CB_COLOR0_BASE, (self.color.va >> 8) as u32);
        self.set(CB_COLOR0_BASE_EXT, (self.color.va >> 40) as u32);
        self.set(
            CB_COLOR0_INFO,
            CB_COLOR0_INFO::FORMAT.val(format)
                | CB_COLOR0_INFO::NUMBER_TYPE.val(number)
                | CB_COLOR0_INFO::COMP_SWAP.val(swap),
        );
        self.set(
            CB_COLOR0_ATTRIB2,
            CB_COLOR0_ATTRIB2::MIP0_WIDTH.val(self.w - 1)
                | CB_COLOR0_ATTRIB2::MIP0_HEIGHT.val(self.h - 1),
        );
        self.set(CB_COLOR0_ATTRIB3, 0);
    }

    /// Depth D32F (and stencil S8 when `stencil`), linear, at the scene's buffers.
    pub fn depth_target(&mut self, stencil: bool) {
        self.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(3));
        self.set(DB_Z_READ_BASE, (self.depth.va >> 8) as u32);
        self.set(DB_Z_WRITE_BASE, (self.depth.va >> 8) as u32);
        self.set(DB_STENCIL_INFO, DB_STENCIL_INFO::FORMAT.val(stencil as u32));
        self.set(DB_STENCIL_READ_BASE, (self.stencil.va >> 8) as u32);
        self.set(DB_STENCIL_WRITE_BASE, (self.stencil.va >> 8) as u32);
        self.set(
            DB_DEPTH_SIZE_XY,
            DB_DEPTH_SIZE_XY::X_MAX.val(self.w - 1) | DB_DEPTH_SIZE_XY::Y_MAX.val(self.h - 1),
        );
    }

    /// Loads a pixel shader with `vgprs` VGPRs.
    pub fn shader(&mut self, p: &mut Asm, vgprs: u32) {
        let words = p.finish();
        self.code.map.write_u32s(0, &words).unwrap();
        // New code at the same address: what ACQUIRE_MEM's I$ invalidation does.
        self.compute.invalidate_programs();
        self.set(SPI_SHADER_PGM_LO_PS, (self.code.va >> 8) as u32);
        self.set(SPI_SHADER_PGM_HI_PS, (self.code.va >> 40) as u32);
        self.set(
            SPI_SHADER_PGM_RSRC1_PS,
            SPI_SHADER_PGM_RSRC1_PS::VGPRS.val(vgprs.div_ceil(8) - 1),
        );
        self.set(SPI_SHADER_PGM_RSRC2_PS, 0);
    }

    pub fn draw(&mut self, prims: Vec<SetupPrim>) -> Result<BackEndCounts, GpuError> {
        let space = self.gpu.kernel.address_space();
        let ts = || 0u64;
        let gfx = ferrum_sim::gfx::GraphicsEngine::default();
        let env = Env {
            space: &space,
            config: &self.config,
            compute: &self.compute,
            gfx: &gfx,
            timestamp: &ts,
        };
        let slots =
            prims.iter().flat_map(|p| p.v.iter().map(|v| v.params.len())).max().unwrap_or(0);
        let batch = PrimBatch { param_slots: slots, prims };
        let _t = Instant::now();
        BackEnd.rasterize(&batch, &self.regs, &env)
    }

    /// Bytes of pixel (x, y) of target 0 (linear, pitch aligned to 256 bytes).
    pub fn pixel_bytes(&self, x: u32, y: u32) -> Vec<u8> {
        let pitch = self.w.div_ceil(256 / self.bpp) * (256 / self.bpp);
        let off = ((y * pitch + x) * self.bpp) as usize;
        let mut b = vec![0u8; self.bpp as usize];
        self.color.map.read(off, &mut b).unwrap();
        b
    }

    /// Pixel (x, y) of a 32_32_32_32 float target.
    pub fn rgba(&self, x: u32, y: u32) -> [f32; 4] {
        let b = self.pixel_bytes(x, y);
        core::array::from_fn(|i| f32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
    }

    pub fn fill_color(&self, v: &[u8]) {
        let n = self.color.map.len();
        let data: Vec<u8> = v.iter().copied().cycle().take(n).collect();
        self.color.map.write(0, &data).unwrap();
    }
}

/// A vertex at window (x, y, z), 1/w, with parameters.
pub fn vtx(x: f32, y: f32, z: f32, inv_w: f32, params: Vec<[u32; 4]>) -> SetupVertex {
    SetupVertex { x, y, z, inv_w, params }
}

pub fn tri(v: [SetupVertex; 3]) -> SetupPrim {
    SetupPrim {
        kind: PrimKind::Triangle,
        flat_params: v[0].params.clone(),
        v: v.to_vec(),
        provoking: 0,
        viewport: 0,
        layer: 0,
        front_facing: true,
        point_size: 0.0,
        line_width: 0.0,
        line_strip_start: false,
        prim_id: 0,
        instance: 0,
        polygon: None,
    }
}

/// A flat triangle at depth z with no parameters.
pub fn tri2(p: [[f32; 2]; 3], z: f32) -> SetupPrim {
    tri(p.map(|[x, y]| vtx(x, y, z, 1.0, vec![])))
}

/// `v_mov_b32 v[first + i], literal(c[i])` for four values, then `exp mrt0 ... done vm`.
pub fn export_const(p: &mut Asm, c: [u32; 4]) -> &mut Asm {
    for (i, v) in c.iter().enumerate() {
        p.vop1(
            Opcode::V_MOV_B32,
            ferrum_isa::Operand::Vgpr(4 + i as u8),
            ferrum_isa::Operand::Literal(*v),
        );
    }
    export(p, 0, [4, 5, 6, 7], false)
}

/// `exp mrtN vA, vB, vC, vD done vm` (with `compr`, two registers).
pub fn export(p: &mut Asm, target: u8, src: [u8; 4], compr: bool) -> &mut Asm {
    // All four slots (with `compr`: both registers, two halves each).
    p.i(Inst::Exp(Exp { target, en: 0xf, src, compr, done: true, vm: true }))
}

pub fn vintrp(p: &mut Asm, op: Opcode, vdst: u8, vsrc: u8, attr: u8, chan: u8) -> &mut Asm {
    p.i(Inst::Vintrp(Vintrp { op, vdst, vsrc, attr, chan }))
}
