//! The MIMG test rig shared by image.rs and sampling.rs: T#/S# words written from
//! descriptors-gfx103.md, and a one-wave program that loads per-lane address and data VGPRs,
//! runs one MIMG instruction and stores its four data VGPRs.
#![allow(dead_code)]

use crate::common::asm::{Asm, Int, Literal, Op};
use crate::common::{raw_vsharp, Buffer, Dispatch, Gpu};
use ferrum_isa::{Inst, Mimg, Opcode};
use ferrum_sim::tex::surface::{texel_offset, Dim, SurfaceDesc};
use ferrum_winsys::{Error, LostReason};

/// T# fields (descriptors-gfx103.md §2), written independently of the simulator's decoder.
#[derive(Clone, Copy)]
pub struct T {
    pub va: u64,
    pub format: u32,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub ty: u32,
    pub sw_mode: u32,
    pub max_mip: u32,
    pub base_level: u32,
    pub last_level: u32,
    pub dst_sel: u32,
    /// BC_SWIZZLE (word 3 bits 27:25).
    pub bc_swizzle: u32,
    pub base_array: u32,
}

impl T {
    pub fn new(va: u64, format: u32, width: u32, height: u32) -> T {
        T {
            va,
            format,
            width,
            height,
            depth: 0,
            ty: 9,
            sw_mode: 0,
            max_mip: 0,
            base_level: 0,
            last_level: 0,
            dst_sel: 0xfac,
            bc_swizzle: 0,
            base_array: 0,
        }
    }

    pub fn words(&self) -> [u32; 8] {
        let w1 = (self.width - 1) & 3;
        [
            (self.va >> 8) as u32,
            (self.va >> 40) as u32 & 0xff | self.format << 20 | w1 << 30,
            (self.width - 1) >> 2 | (self.height - 1) << 14 | 1 << 31,
            self.dst_sel
                | self.base_level << 12
                | self.last_level << 16
                | self.sw_mode << 20
                | self.bc_swizzle << 25
                | self.ty << 28,
            self.depth | self.base_array << 16,
            self.max_mip << 4 | 4 << 20,
            0,
            0,
        ]
    }
}

/// S# words: address modes (x, y, z), filters (mag/min: 0 point, 1 bilinear; mip: 0 none,
/// 1 point, 2 linear), compare function, border colour type, LOD range 0..15.
pub fn s_sharp(clamp: u32, xy: u32, mip: u32, compare: u32, border: u32) -> [u32; 4] {
    [
        clamp | clamp << 3 | clamp << 6 | compare << 12,
        15 << 20,
        xy << 20 | xy << 22 | mip << 26,
        border << 30,
    ]
}

pub struct Rig {
    pub gpu: Gpu,
    pub table: Buffer,
    pub input: Buffer,
    pub output: Buffer,
    pub image: Buffer,
    /// Instructions run between loading the address/data VGPRs and the MIMG instruction.
    pub pre: std::cell::RefCell<Vec<Inst>>,
    /// UCONFIG registers written before the dispatch (byte address, value).
    pub uconfig: std::cell::RefCell<Vec<(u32, u32)>>,
}

impl Rig {
    pub fn new(image_bytes: u64) -> Rig {
        let gpu = Gpu::new();
        let table = gpu.buffer(4096);
        let input = gpu.buffer(4096);
        let output = gpu.buffer(4096);
        let image = gpu.buffer(image_bytes.max(65536));
        table.map.write_u32s(0x30, &raw_vsharp(output.va, 4096)).unwrap();
        table.map.write_u32s(0x40, &raw_vsharp(input.va, 4096)).unwrap();
        output.map.write_u32s(0, &[0xdead_beef; 1024]).unwrap();
        Rig {
            gpu,
            table,
            input,
            output,
            image,
            pre: Default::default(),
            uconfig: Default::default(),
        }
    }

    /// Runs `inst` (vaddr v1..v4, vdata v8..v11, T# s[4:11], S# s[12:15]) on 32 lanes whose
    /// address VGPRs come from `coords`, preceded by `pre` (stores: data in v8..v11 too);
    /// returns the four data VGPRs per lane.
    pub fn run(&self, t: &T, s: [u32; 4], inst: Mimg, coords: &[[u32; 4]]) -> Vec<[u32; 4]> {
        self.run_data(t, s, inst, coords, &[])
    }

    /// Like `run`, with `data` preloaded into v8..v11 (stores, atomics).
    pub fn run_data(
        &self,
        t: &T,
        s: [u32; 4],
        inst: Mimg,
        coords: &[[u32; 4]],
        data: &[[u32; 4]],
    ) -> Vec<[u32; 4]> {
        let flat: Vec<u32> = data.iter().flatten().copied().collect();
        self.input.map.write_u32s(0x800, &flat).unwrap();
        self.try_run(t, s, inst, coords, true).unwrap();
        let out = self.output.map.read_u32s(0, 4 * coords.len()).unwrap();
        out.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }

    pub fn try_run(
        &self,
        t: &T,
        s: [u32; 4],
        inst: Mimg,
        coords: &[[u32; 4]],
        wait: bool,
    ) -> ferrum_winsys::Result<bool> {
        self.table.map.write_u32s(0, &t.words()).unwrap();
        self.table.map.write_u32s(0x20, &s).unwrap();
        let flat: Vec<u32> = coords.iter().flatten().copied().collect();
        self.input.map.write_u32s(0, &flat).unwrap();
        let mut p = Asm::new();
        p.smem(Op::S_LOAD_DWORDX8, 4, 0, 0)
            .smem(Op::S_LOAD_DWORDX4, 12, 0, 0x20)
            .smem(Op::S_LOAD_DWORDX4, 16, 0, 0x30)
            .smem(Op::S_LOAD_DWORDX4, 20, 0, 0x40)
            .vop2(Op::V_LSHLREV_B32, 5, Int(4), 0)
            .vop2(Op::V_ADD_NC_U32, 6, Literal(0x800), 5)
            .waitcnt(63, 0)
            .mubuf(Op::BUFFER_LOAD_DWORDX4, 1, 5, 20, false)
            .mubuf(Op::BUFFER_LOAD_DWORDX4, 8, 6, 20, false)
            .waitcnt(0, 63);
        for &i in self.pre.borrow().iter() {
            p.i(i);
        }
        p.i(Inst::Mimg(inst));
        if wait {
            p.waitcnt(0, 63);
        }
        p.mubuf(Op::BUFFER_STORE_DWORDX4, 8, 5, 16, false).endpgm();
        let prog = self.gpu.program(&p.finish());
        let ud = [self.table.va as u32, (self.table.va >> 32) as u32];
        let d = Dispatch { vgprs: 16, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
        let mut pm = Vec::new();
        for &(addr, value) in self.uconfig.borrow().iter() {
            crate::common::pm4::packet(&mut pm, 0x79, &[(addr - 0x30000) / 4, value]);
        }
        d.emit(&mut pm);
        let bufs = [&self.table, &self.input, &self.output, &self.image, &prog];
        self.gpu.run(&pm, &bufs)
    }
}

pub fn mimg(op: Opcode, dmask: u8, dim: u8) -> Mimg {
    let mut vaddr = [0u8; 13];
    vaddr[0] = 1;
    Mimg {
        op,
        vdata: 8,
        vaddr,
        nsa: false,
        srsrc: 4,
        ssamp: 12,
        dmask,
        dim,
        unorm: false,
        glc: false,
        slc: false,
        dlc: false,
        r128: false,
        a16: false,
        tfe: false,
        lwe: false,
        d16: false,
    }
}

pub fn f(v: f32) -> u32 {
    v.to_bits()
}

pub fn expect_guilty(r: ferrum_winsys::Result<bool>) {
    match r {
        Err(Error::ContextLost(LostReason::Guilty)) => {}
        other => panic!("expected a guilty context loss, got {other:?}"),
    }
}

/// A linear 2D R8G8B8A8_UNORM image of 5×3 texels (pitch 64 texels = 256 bytes), texel
/// (x, y) = (x, y, 10x + y, 255).
pub fn rgba8_linear(rig: &Rig) -> T {
    for y in 0..3u32 {
        for x in 0..5u32 {
            let texel = x | y << 8 | (10 * x + y) << 16 | 255 << 24;
            rig.image.map.write_u32s((y * 256 + x * 4) as usize, &[texel]).unwrap();
        }
    }
    T::new(rig.image.va, 56, 5, 3)
}

/// f32 → f16 → f32 as the store/load pair does (round to nearest even).
pub fn f16_roundtrip(v: u32) -> u32 {
    use ferrum_sim::tex::format::{f32_to_small_float, small_float_to_f32};
    small_float_to_f32(f32_to_small_float(f32::from_bits(v), 5, 10, true), 5, 10, true).to_bits()
}

/// Fills an R32_FLOAT 2D image (linear, `mips` levels, 4×4 at level 0) with
/// value(x, y, level) = x + 10 y + 100 level; returns its T#.
pub fn r32f(rig: &Rig, mips: u32) -> T {
    let desc = SurfaceDesc {
        sw_mode: 0,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 4,
        height: 4,
        slices: 1,
        mips,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for m in 0..mips {
        for y in 0..4 >> m {
            for x in 0..4 >> m {
                let o = texel_offset(&desc, x, y, 0, m, 0).unwrap() as usize;
                let v = x as f32 + 10.0 * y as f32 + 100.0 * m as f32;
                rig.image.map.write_u32s(o, &[v.to_bits()]).unwrap();
            }
        }
    }
    T {
        max_mip: mips - 1,
        last_level: mips - 1,
        dst_sel: 4 | 1 << 9,
        ..T::new(rig.image.va, 22, 4, 4)
    }
}

pub fn value(x: i32, y: i32, level: u32) -> f32 {
    x as f32 + 10.0 * y as f32 + 100.0 * level as f32
}

/// One lane per (s, t) with an explicit LOD.
pub fn st(points: &[(f32, f32)], lod: f32) -> Vec<[u32; 4]> {
    points.iter().map(|&(s, t)| [f(s), f(t), f(lod), 0]).collect()
}
