//! Graphics back-end throughput: pixels per second for a full-screen quad whose pixel shader
//! interpolates a vec4 attribute (perspective) and exports it to an RGBA8 target, and
//! triangles per second for many small triangles (about 8 pixels each), and pixels per second
//! for a full-screen quad whose pixel shader samples a mipmapped 2D texture (trilinear).
//! `cargo bench -p ferrum-sim --bench raster`

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/tex/mod.rs"]
mod tex;

use std::time::{Duration, Instant};

use common::asm::{Asm, Op, S};
use common::gfx::*;
use ferrum_isa::Opcode;
use ferrum_isa::Operand::Special;
use ferrum_regs::gfx103::*;
use ferrum_sim::gfx::SetupPrim;
use ferrum_sim::tex::surface::{sw, Dim, SurfaceDesc};
use ferrum_sim::SimConfig;

const SIZE: u32 = 1024;

fn scene() -> Scene {
    let config =
        SimConfig { strict: false, watchdog: Duration::from_secs(600), ..Default::default() };
    let mut s = Scene::with_size(SIZE, SIZE, config);
    s.target(10, 0, 0);
    s.set(SPI_SHADER_COL_FORMAT, 4); // FP16_ABGR
    s.set(
        SPI_PS_IN_CONTROL,
        SPI_PS_IN_CONTROL::PS_W32_EN.val(1) | SPI_PS_IN_CONTROL::NUM_INTERP.val(1),
    );
    s.set(SPI_PS_INPUT_CNTL_0, 0);
    let mut p = Asm::new();
    p.sop1(Op::S_MOV_B32, Special(ferrum_isa::Special::M0), S(0));
    for c in 0..4u8 {
        vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4 + c, 0, 0, c);
        vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4 + c, 1, 0, c);
    }
    p.vop3(
        Op::V_CVT_PKRTZ_F16_F32,
        ferrum_isa::Operand::Vgpr(8),
        [ferrum_isa::Operand::Vgpr(4), ferrum_isa::Operand::Vgpr(5), ferrum_isa::Operand::Int(0)],
    );
    p.vop3(
        Op::V_CVT_PKRTZ_F16_F32,
        ferrum_isa::Operand::Vgpr(9),
        [ferrum_isa::Operand::Vgpr(6), ferrum_isa::Operand::Vgpr(7), ferrum_isa::Operand::Int(0)],
    );
    export(&mut p, 0, [8, 9, 0, 0], true).endpgm();
    s.shader(&mut p, 16);
    s
}

/// Texture edge in texels: 1.5 texels per pixel, so the implicit LOD is log2(1.5) ≈ 0.585 and
/// every pixel blends mip levels 0 and 1 (the trilinear path, eight texel fetches).
const TEX: u32 = SIZE * 3 / 2;

/// An RGBA8 UNORM 2D texture in the 64KB_R_X swizzle with its full mip chain; texel (x, y) of
/// level m = (x & 255, y & 255, 40 m, 255). Returns the buffer and its T#.
fn texture(s: &Scene) -> (common::Buffer, tex::T) {
    let mips = 32 - TEX.leading_zeros();
    let desc = SurfaceDesc {
        sw_mode: sw::R_64KB_X,
        dim: Dim::D2,
        bpe_log2: 2,
        width: TEX,
        height: TEX,
        slices: 1,
        mips,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    let layout = desc.layout().expect("a valid 2D surface");
    let mut bytes = vec![0u8; layout.size as usize];
    for m in 0..mips {
        let (w, h, _) = layout.mip_size(m);
        for y in 0..h {
            for x in 0..w {
                let texel = x & 255 | (y & 255) << 8 | (40 * m) << 16 | 255 << 24;
                let o = layout.offset(x, y, 0, m, 0) as usize;
                bytes[o..o + 4].copy_from_slice(&texel.to_le_bytes());
            }
        }
    }
    let buf = s.gpu.buffer(layout.size);
    buf.map.write(0, &bytes).unwrap();
    let t = tex::T {
        sw_mode: sw::R_64KB_X,
        max_mip: mips - 1,
        last_level: mips - 1,
        ..tex::T::new(buf.va, 56, TEX, TEX) // IMG_FORMAT_8_8_8_8_UNORM
    };
    (buf, t)
}

/// The quad's pixel shader: (u, v) interpolated from attribute 0, `image_sample` with the
/// T# in s[0:7] and S# in s[8:11] (user data), the result exported as FP16.
fn textured_scene() -> (Scene, common::Buffer) {
    let mut s = scene();
    let (buf, t) = texture(&s);
    // Wrap, bilinear texels, linear between mips.
    let sampler = tex::s_sharp(0, 1, 2, 0, 0);
    for (i, w) in t.words().iter().chain(&sampler).enumerate() {
        s.set(SPI_SHADER_USER_DATA_PS_0 + 4 * i as u32, *w);
    }
    let mut p = Asm::new();
    // Helper lanes start outside EXEC; the implicit LOD needs the whole quad.
    let exec = Special(ferrum_isa::Special::ExecLo);
    p.sop1(Op::S_WQM_B32, exec, exec);
    p.sop1(Op::S_MOV_B32, Special(ferrum_isa::Special::M0), S(12));
    for c in 0..2u8 {
        vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4 + c, 0, 0, c);
        vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4 + c, 1, 0, c);
    }
    let mut sample = tex::mimg(Op::IMAGE_SAMPLE, 0xf, 1);
    (sample.vdata, sample.vaddr[0], sample.srsrc, sample.ssamp) = (8, 4, 0, 8);
    p.i(ferrum_isa::Inst::Mimg(sample)).waitcnt(0, 63);
    let v = ferrum_isa::Operand::Vgpr;
    p.vop3(Op::V_CVT_PKRTZ_F16_F32, v(12), [v(8), v(9), ferrum_isa::Operand::Int(0)]);
    p.vop3(Op::V_CVT_PKRTZ_F16_F32, v(13), [v(10), v(11), ferrum_isa::Operand::Int(0)]);
    export(&mut p, 0, [12, 13, 0, 0], true).endpgm();
    s.shader(&mut p, 16);
    s.set(SPI_SHADER_PGM_RSRC2_PS, SPI_SHADER_PGM_RSRC2_PS::USER_SGPR.val(12));
    (s, buf)
}

/// The textured quad's result is the formula's: red/green the texel coordinates' low bytes
/// (any value), blue the mip blend 40·frac(LOD)/255 with LOD = log2(1.5), alpha 1.
fn check_textured(s: &Scene) {
    let px = s.pixel_bytes(SIZE / 2 + 3, SIZE / 3 + 1);
    let want_blue = 40.0 * 1.5f64.log2().fract();
    assert!((px[2] as f64 - want_blue).abs() <= 1.5, "blue {} (want ≈ {want_blue:.1})", px[2]);
    assert_eq!(px[3], 255, "alpha");
}

fn v(x: f32, y: f32) -> ferrum_sim::gfx::SetupVertex {
    let c = |t: f32| t.to_bits();
    vtx(x, y, 0.5, 1.0 / (1.0 + x / 1024.0), vec![[c(x / 1024.0), c(y / 1024.0), c(0.5), c(1.0)]])
}

/// CPU time of the whole process (all threads), in seconds: on a shared machine the wall
/// clock measures the other tenants as much as the simulator.
fn cpu_seconds() -> f64 {
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn measure(name: &str, unit: &str, per_run: f64, mut run: impl FnMut()) {
    run(); // warm-up
    let reps = 3;
    let (t0, c0) = (Instant::now(), cpu_seconds());
    for _ in 0..reps {
        run();
    }
    let secs = t0.elapsed().as_secs_f64() / reps as f64;
    let cpu = (cpu_seconds() - c0) / reps as f64;
    println!(
        "{name:>18}: {:>7.1} ms/draw wall {:>8.2} M {unit}/s; {:>7.1} ms CPU {:>8.2} M {unit}/CPU-s",
        secs * 1e3,
        per_run / secs / 1e6,
        cpu * 1e3,
        per_run / cpu / 1e6
    );
}

fn main() {
    let mut s = scene();
    let f = SIZE as f32;
    let quad = vec![tri([v(0.0, 0.0), v(f, 0.0), v(0.0, f)]), tri([v(f, 0.0), v(f, f), v(0.0, f)])];
    measure("full-screen quad", "pixels", (SIZE * SIZE) as f64, || {
        s.draw(quad.clone()).unwrap();
    });
    let (mut ts, _texture) = textured_scene();
    let affine =
        |x: f32, y: f32| vtx(x, y, 0.5, 1.0, vec![[(x / f).to_bits(), (y / f).to_bits(), 0, 0]]);
    let tquad = vec![
        tri([affine(0.0, 0.0), affine(f, 0.0), affine(0.0, f)]),
        tri([affine(f, 0.0), affine(f, f), affine(0.0, f)]),
    ];
    measure("textured quad", "pixels", (SIZE * SIZE) as f64, || {
        ts.draw(tquad.clone()).unwrap();
    });
    check_textured(&ts);
    let mut seed = 7u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % (SIZE - 8) * 256) as f32 / 256.0 + 2.0
    };
    let small: Vec<SetupPrim> = (0..20_000)
        .map(|_| {
            let (x, y) = (rnd(), rnd());
            tri([v(x, y), v(x + 4.3, y + 0.4), v(x + 0.6, y + 3.9)])
        })
        .collect();
    measure("small triangles", "triangles", small.len() as f64, || {
        s.draw(small.clone()).unwrap();
    });
}
