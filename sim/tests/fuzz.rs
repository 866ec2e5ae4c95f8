//! Garbage in, no panic out: random PM4 streams and random instruction words either run or
//! end as a context loss, and the simulator never fails internally.

mod common;

use std::time::Duration;

use common::{pm4, raw_vsharp, Dispatch, Gpu};
use fastrand::Rng;
use ferrum_sim::SimConfig;
use ferrum_winsys::{Error, Ib, Ip, Priority, Submission};

fn fuzz_gpu(strict: bool) -> Gpu {
    Gpu::with_config(SimConfig {
        strict,
        // Random programs that loop end after 2^16 instructions; the clock ends random
        // WAIT_REG_MEM packets.
        wave_budget: 1 << 16,
        watchdog: Duration::from_millis(30),
        host_memory_limit: 256 << 20,
        threads: 2,
        ..Default::default()
    })
}

fn submit_and_wait(gpu: &Gpu, words: &[u32], handles: &[u32]) {
    let ctx = gpu.dev.create_context(Priority::Normal).unwrap();
    let ib = gpu.buffer(4096);
    ib.map.write_u32s(0, words).unwrap();
    let mut all = handles.to_vec();
    all.push(ib.bo.handle());
    let ibs = [Ib { va: ib.va, size_dw: words.len() as u32, flags: 0 }];
    let fence = ctx.submit(&Submission::new(Ip::Compute, &ibs, &all)).unwrap();
    match ctx.wait(fence, Some(Duration::from_secs(20))) {
        Ok(true) | Err(Error::ContextLost(_)) => {}
        other => panic!("stream {words:08x?}: {other:?}"),
    }
}

#[test]
fn random_pm4_streams_never_break_the_simulator() {
    let gpu = fuzz_gpu(true);
    let scratch = gpu.buffer(4096);
    let mut rng = Rng::with_seed(0x1234_5678_9abc_def1);
    let opcodes = [
        0x10, 0x11, 0x12, 0x15, 0x16, 0x28, 0x37, 0x3c, 0x3f, 0x40, 0x42, 0x46, 0x49, 0x50, 0x58,
        0x69, 0x76, 0x79, 0x7a, 0x9b, 0x7f,
    ];
    for _ in 0..300 {
        let mut words = Vec::new();
        while words.len() < 24 {
            match rng.u32(..4) {
                0 => words.push(rng.u32(..)),
                _ => {
                    let op = opcodes[rng.u32(..opcodes.len() as u32) as usize];
                    let body = 1 + rng.u32(..8) as usize;
                    let mut b: Vec<u32> = (0..body)
                        .map(|_| match rng.u32(..3) {
                            0 => rng.u32(..),
                            1 => scratch.va as u32 + 4 * rng.u32(..64),
                            _ => rng.u32(..16),
                        })
                        .collect();
                    if op == 0x37 || op == 0x49 || op == 0x40 {
                        b.push((scratch.va >> 32) as u32);
                    }
                    words.push(pm4::header(op, b.len()) | (rng.u32(..2) << 1));
                    words.extend(b);
                }
            }
        }
        submit_and_wait(&gpu, &words, &[scratch.bo.handle()]);
    }
    assert_eq!(gpu.kernel.internal_errors(), 0);
}

#[test]
fn random_instruction_words_never_break_the_simulator() {
    for strict in [true, false] {
        let gpu = fuzz_gpu(strict);
        let data = gpu.buffer(65536);
        let mut rng = Rng::with_seed(0xdead_beef_cafe_f00d ^ strict as u64);
        // Words taken from real encodings' high bits keep most of them decodable.
        let prefixes = [
            0xbe80_0000u32,
            0x8000_0000,
            0xbf80_0000,
            0xf400_0000,
            0x7e00_0000,
            0x0200_0000,
            0x7c00_0000,
            0xd500_0000,
            0xd800_0000,
            0xe000_0000,
            0xdc00_0000,
            0xbf00_0000,
        ];
        for _ in 0..200 {
            // Random words filtered through the decoder: valid instructions with random
            // operands, fields and modifiers.
            let mut words: Vec<u32> = Vec::new();
            let mut count = 0;
            while count < 48 {
                let p = prefixes[rng.u32(..prefixes.len() as u32) as usize];
                let mask = !(p | (p >> 1) | (p >> 2)) & 0x01ff_ffff;
                let cand = [p | (rng.u32(..) & mask), rng.u32(..), rng.u32(..1 << 12)];
                if let Ok((inst, len)) = ferrum_isa::decode(&cand) {
                    if inst.op() != ferrum_isa::Opcode::S_ENDPGM {
                        words.extend_from_slice(&cand[..len]);
                        count += 1;
                    }
                }
            }
            words.push(0xbf81_0000); // s_endpgm
            let prog = gpu.program(&words);
            let ud = raw_vsharp(data.va, 65536);
            let mut ud8 = ud.to_vec();
            ud8.extend([data.va as u32, (data.va >> 32) as u32, 0, 0]);
            let d = Dispatch {
                vgprs: 256,
                tgid_x: true,
                tg_size: true,
                lds_bytes: 4096,
                groups: [2, 1, 1],
                ..Dispatch::one_group(prog.va, &ud8, [64, 1, 1])
            };
            let mut pm = Vec::new();
            d.emit(&mut pm);
            submit_and_wait(&gpu, &pm, &[data.bo.handle(), prog.bo.handle()]);
        }
        assert_eq!(gpu.kernel.internal_errors(), 0, "strict = {strict}");
    }
}
