//! A debugging aid, not part of the suite: runs the shaders named in `FERRUM_CORPUS`
//! (comma-separated paths to corpus-style files) on the simulator and the interpreter, prints
//! every differing dword and the listing, and fails on a difference:
//! `FERRUM_CORPUS=a.comp cargo test -p ferrum-compiler --test corpus_one -- --ignored --nocapture`.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

#[test]
#[ignore = "debugging aid: set FERRUM_CORPUS and pass --ignored"]
fn named_corpus_shaders() {
    let list = std::env::var("FERRUM_CORPUS").expect("FERRUM_CORPUS names the shaders to run");
    let mut differ = 0;
    let gpu = Gpu::new();
    for p in list.split(',') {
        let case = common::load_case(std::path::Path::new(p));
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        let layout = amd::default_layout(&ir);
        let bin = amd::compile(&ir, &layout).unwrap();
        let mut want = case.res.clone();
        interp::run(&ir, case.groups, &mut want).unwrap();
        let got = gpu.run(&bin, &layout, case.groups, &case.res).unwrap();
        for (w, g) in want.buffers.iter().zip(&got.buffers) {
            let wd: Vec<u32> =
                w.data.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            let gd: Vec<u32> =
                g.data.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            for (i, (a, b)) in wd.iter().zip(&gd).enumerate() {
                if a != b {
                    differ += 1;
                    eprintln!(
                        "{p} binding {} dword {i}: interpreter {a:#x} simulator {b:#x}",
                        w.binding
                    );
                }
            }
        }
        eprintln!("{}", bin.isa_text);
    }
    assert_eq!(differ, 0, "dwords differ between the interpreter and the simulator");
}
