//! Register allocation quality on corpus shaders: what coalescing and the spill choice must
//! achieve, measured on the compiled code (the simulator corpus test checks that it runs).

mod common;

use ferrum_compiler::amd;
use ferrum_compiler::ir::Stage;

fn compile(name: &str) -> amd::Binary {
    let case = common::load_case(&common::corpus_dir().join(format!("{name}.comp")));
    let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .expect("front end");
    amd::compile(&ir, &amd::default_layout(&ir)).expect("backend")
}

/// `v_mov_b32 vA, vB` and `s_mov_b32 sA, sB` lines of a listing.
fn register_moves(isa: &str) -> Vec<&str> {
    isa.lines()
        .filter(|l| {
            let mut w = l.split([' ', ',']).filter(|w| !w.is_empty());
            let (op, d, s) = (w.next(), w.next(), w.next());
            let reg = |x: Option<&str>, p: char| {
                x.is_some_and(|x| x.starts_with(p) && x[1..].chars().all(|c| c.is_ascii_digit()))
            };
            match op {
                Some("v_mov_b32_e32" | "v_mov_b32") => reg(d, 'v') && reg(s, 'v'),
                Some("s_mov_b32") => reg(d, 's') && reg(s, 's'),
                _ => false,
            }
        })
        .collect()
}

#[test]
fn the_move_counter_sees_register_moves_only() {
    let isa = "v_mov_b32_e32 v5, v9 ; 0\ns_mov_b32 s0, s1 ; 4\nv_mov_b32_e32 v1, 0 ; 8\n\
               s_mov_b32 exec_lo, s2 ; c\nv_mov_b32_e32 v2, s3 ; 10\n";
    assert_eq!(register_moves(isa), ["v_mov_b32_e32 v5, v9 ; 0", "s_mov_b32 s0, s1 ; 4"]);
}

/// Every loop of the shader carries a value it recomputes from itself: none ends with a
/// copy into its φ register. The one move left copies `x` into `h` before the loop that
/// rewrites `h`, `x` being read again in that loop's condition.
#[test]
fn loop_carried_values_need_no_moves() {
    let bin = compile("pressure_loop_carried");
    let moves = register_moves(&bin.isa_text);
    assert!(moves.len() <= 1, "{moves:?}\n{}", bin.isa_text);
}

/// register_spill holds 270 loaded values, the 270 addresses each load shares with its store,
/// and, while the divergent branch runs, 90 rewritten values beside the originals the other
/// side still needs (on the linear CFG): 630 dwords for 256 VGPRs, so at least 374 must go.
/// The spill choice may lose one more to spill temporaries, no more (the previous allocator
/// spilled 376 and took 3207 instructions).
#[test]
fn register_spill_spills_only_what_does_not_fit() {
    let bin = compile("register_spill");
    let s = &bin.stats;
    assert!(s.spilled_vgprs <= 375, "{}", s.to_json());
    assert_eq!(s.scratch_size, 4 * s.spilled_vgprs, "{}", s.to_json());
    assert!(s.instructions < 3100, "{}", s.to_json());
}
