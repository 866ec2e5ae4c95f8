//! The interpreter's subgroup semantics checked by hand: results of the subgroup corpus
//! shaders recomputed here from the inputs with plain loops over each wave's lanes (waves of 32
//! by local invocation index, active lanes following the shader's conditions and loop trips).

mod common;

use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// Runs a corpus case in the interpreter; returns (input words of buffer 0, output words of
/// the last buffer, workgroup size in x).
fn run(name: &str) -> (Vec<u32>, Vec<u32>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name);
    let case = common::load_case(&path);
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let mut res = case.res.clone();
    interp::run(&ir, case.groups, &mut res).unwrap();
    let input = words(&res.buffers[0].data);
    let out = words(&res.buffers.last().unwrap().data);
    (input, out)
}

/// Global ids of the lanes in the same wave as `g` (workgroups of `local` invocations).
fn wave(g: usize, local: usize, n: usize) -> Vec<usize> {
    let (grp, l) = (g / local, g % local);
    let first = grp * local + l / 32 * 32;
    (first..(first + 32).min(grp * local + local).min(n)).collect()
}

#[test]
fn arithmetic_matches_hand_computed_sums() {
    let (x, o) = run("subgroup_arith.comp");
    let n = 80;
    for g in 0..n {
        let w = wave(g, 40, n);
        let b = g * 32;
        let sum = |f: &dyn Fn(usize) -> bool| {
            w.iter().filter(|&&m| f(m)).fold(0u32, |a, &m| a.wrapping_add(x[m]))
        };
        assert_eq!(o[b], sum(&|_| true), "reduce at {g}");
        assert_eq!(o[b + 1], sum(&|m| m <= g), "inclusive at {g}");
        assert_eq!(o[b + 2], sum(&|m| m < g), "exclusive at {g}");
        if x[g] % 4 != 1 {
            assert_eq!(o[b + 16], sum(&|m| x[m] % 4 != 1), "divergent reduce at {g}");
            assert_eq!(o[b + 17], sum(&|m| x[m] % 4 != 1 && m <= g), "divergent scan at {g}");
        } else {
            assert_eq!(o[b + 16], 0);
        }
        // The loop: in trip k, the lanes still looping are those with u % 5 + 1 > k.
        let mut acc = 0u32;
        for k in 0..x[g] % 5 + 1 {
            let active: Vec<usize> = w.iter().copied().filter(|&m| x[m] % 5 + 1 > k).collect();
            let incl = active.iter().filter(|&&m| m <= g).fold(0u32, |a, &m| a + k + x[m]);
            acc = acc.wrapping_add(incl * 3 + k * active.len() as u32);
        }
        assert_eq!(o[b + 23], acc, "loop at {g}");
    }
}

#[test]
fn ballots_match_hand_computed_masks() {
    let (x, o) = run("subgroup_vote_ballot.comp");
    let n = 96;
    for g in 0..n {
        let w = wave(g, 48, n);
        let b = g * 16;
        let mask = |f: &dyn Fn(usize) -> bool| {
            w.iter().filter(|&&m| f(m)).fold(0u32, |a, &m| a | 1 << (m - w[0]))
        };
        assert_eq!(o[b], mask(&|m| x[m] & 1 == 1), "ballot at {g}");
        assert_eq!(o[b + 9], (g - w[0]) as u32 | 32 << 8, "subgroup id at {g}");
        if x[g] % 3 != 0 {
            let active = |m: usize| x[m] % 3 != 0;
            assert_eq!(o[b + 11], mask(&|m| active(m) && x[m] > 500), "divergent ballot at {g}");
            let first = *w.iter().find(|&&m| active(m)).unwrap();
            let elect = u32::from(g == first);
            let all = w.iter().all(|&m| !active(m) || x[m] > 500);
            let any = w.iter().any(|&m| active(m) && x[m] > 990);
            assert_eq!(
                o[b + 12],
                elect | u32::from(all) << 1 | u32::from(any) << 2,
                "votes at {g}"
            );
        } else {
            assert_eq!(o[b + 15], mask(&|m| x[m] % 3 == 0), "else-branch ballot at {g}");
        }
    }
}

/// A subgroup operation with any scope but Subgroup is refused with an error, not run wrongly.
#[test]
fn workgroup_scope_is_refused() {
    let src = "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
               layout(local_size_x = 64) in;\n\
               layout(std430, binding = 0) buffer B { uint d[]; };\n\
               void main() { d[gl_LocalInvocationIndex] = subgroupAdd(d[gl_LocalInvocationIndex]); }\n";
    let dir = std::env::temp_dir().join(format!("ferrum-sg-scope-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scope.comp");
    std::fs::write(&path, src).unwrap();
    let mut words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let spec = Default::default();
    assert!(ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &spec).is_ok());
    // The only OpConstant with value 3 is the Subgroup scope; make it Workgroup (2).
    let mut i = 5;
    let mut patched = 0;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == 43 && len == 4 && words[i + 3] == 3 {
            words[i + 3] = 2;
            patched += 1;
        }
        i += len.max(1);
    }
    assert_eq!(patched, 1);
    let e = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &spec).unwrap_err();
    assert!(e.to_string().contains("scope"), "{e}");
}
