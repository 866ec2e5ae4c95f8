//! Graphics back-end throughput: pixels per second for a full-screen quad whose pixel shader
//! interpolates a vec4 attribute (perspective) and exports it to an RGBA8 target, and
//! triangles per second for many small triangles (about 8 pixels each).
//! `cargo bench -p ferrum-sim --bench raster`

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::asm::{Asm, Op, S};
use common::gfx::*;
use ferrum_isa::Opcode;
use ferrum_isa::Operand::Special;
use ferrum_regs::gfx103::*;
use ferrum_sim::gfx::SetupPrim;
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
