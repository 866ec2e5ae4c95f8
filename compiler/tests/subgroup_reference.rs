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

/// `subgroup_int64.comp`: 64-bit sums carry across the dword boundary, signed min/max order
/// by the sign of the whole 64-bit value, products keep their high halves.
#[test]
fn int64_arithmetic_matches_hand_computed_values() {
    let (x, o) = run("subgroup_int64.comp");
    let n = 96;
    let w = |m: usize| u64::from(x[m]) << 32 | u64::from(0xffff_f000u32.wrapping_add(x[m] * 7));
    let s = |m: usize| (w(m) as i64).wrapping_sub(i64::from(x[m] % 3) * 0x0300_0000_0000);
    let at = |i: usize| u64::from(o[i]) | u64::from(o[i + 1]) << 32;
    for g in 0..n {
        let lanes = wave(g, 48, n);
        let b = g * 32;
        let sum = lanes.iter().fold(0u64, |a, &m| a.wrapping_add(w(m)));
        assert_eq!(at(b), sum, "reduce add at {g}");
        let incl = lanes.iter().filter(|&&m| m <= g).fold(0u64, |a, &m| a.wrapping_add(w(m)));
        assert_eq!(at(b + 2), incl, "inclusive add at {g}");
        let smin = lanes.iter().map(|&m| s(m)).min().unwrap();
        let smax = lanes.iter().map(|&m| s(m)).max().unwrap();
        assert_eq!(at(b + 8), (smin as u64).wrapping_add(smax as u64), "signed min+max at {g}");
        let umin = lanes.iter().map(|&m| w(m)).min().unwrap();
        let umax = lanes.iter().map(|&m| w(m)).max().unwrap();
        assert_eq!(at(b + 6), umin ^ umax, "unsigned min^max at {g}");
        let mul = |f: &dyn Fn(usize) -> bool| {
            lanes.iter().filter(|&&m| f(m)).fold(1u64, |a, &m| a.wrapping_mul(w(m) | 1))
        };
        assert_eq!(at(b + 14), mul(&|_| true) ^ mul(&|m| m <= g), "products at {g}");
        if x[g] % 3 != 1 {
            let active: Vec<usize> = lanes.iter().copied().filter(|&m| x[m] % 3 != 1).collect();
            let sum = active.iter().fold(0u64, |a, &m| a.wrapping_add(w(m)));
            let incl =
                active.iter().filter(|&&m| m <= g).fold(0u64, |a, &m| a.wrapping_add(s(m) as u64));
            assert_eq!(at(b + 28), sum.wrapping_add(incl), "divergent sums at {g}");
        }
    }
}

/// `subgroup_narrow.comp`: 8- and 16-bit min/max compare the narrow values with their own
/// signedness, whatever the wider arithmetic that produced them.
#[test]
fn narrow_integer_min_max_match_hand_computed_values() {
    let (x, o) = run("subgroup_narrow.comp");
    let n = 80;
    let c = |m: usize| (x[m] as i8).wrapping_add(100);
    let uc = |m: usize| (x[m].wrapping_mul(3) as u8).wrapping_add(200);
    let h = |m: usize| (x[m].wrapping_mul(77) as i16).wrapping_sub(20000);
    let uh = |m: usize| (x[m].wrapping_mul(131) as u16).wrapping_add(60000);
    for g in 0..n {
        let lanes = wave(g, 40, n);
        let b = g * 32;
        let add = lanes.iter().fold(0i8, |a, &m| a.wrapping_add(c(m)));
        let mul = lanes.iter().fold(1u8, |a, &m| a.wrapping_mul(uc(m) | 1));
        let min = lanes.iter().map(|&m| c(m)).min().unwrap();
        let max = lanes.iter().map(|&m| c(m)).max().unwrap();
        let want = u32::from_le_bytes([add as u8, mul, min as u8, max as u8]);
        assert_eq!(o[b], want, "int8 reductions at {g}");
        let hmin = lanes.iter().map(|&m| h(m)).min().unwrap() as u16;
        let hmax = lanes.iter().map(|&m| h(m)).max().unwrap() as u16;
        assert_eq!(o[b + 4], u32::from(hmin) | u32::from(hmax) << 16, "int16 min/max at {g}");
        let umin = lanes.iter().map(|&m| uh(m)).min().unwrap();
        let umax = lanes.iter().map(|&m| uh(m)).max().unwrap();
        assert_eq!(o[b + 5], u32::from(umin) | u32::from(umax) << 16, "uint16 min/max at {g}");
    }
}

/// `subgroup_basic.comp`: subgroup ids and counts follow the local invocation index in runs of
/// 32, and a subgroup barrier makes a lane's workgroup-memory write visible to its subgroup.
#[test]
fn basic_ids_and_barrier_exchange_match_hand_computed_values() {
    let (x, o) = run("subgroup_basic.comp");
    let (n, local) = (144, 72);
    for g in 0..n {
        let lanes = wave(g, local, n);
        let (l, b) = (g % local, g * 4);
        let elect = u32::from(g == lanes[0]);
        let want = (l / 32) as u32 | 3 << 8 | 32 << 16 | elect << 24;
        assert_eq!(o[b], want, "ids at {g}");
        let src = lanes[((g - lanes[0]) + 5) % lanes.len()];
        assert_eq!(o[b + 1], x[src] * 3, "exchange at {g}");
    }
}

/// `subgroup_float64.comp`: all-equal on floats is SPIR-V's ordered-equal compare, so `-0` and
/// `+0` are equal and a NaN is equal to nothing (not even the same bit pattern).
#[test]
fn float_all_equal_is_an_ordered_compare() {
    let (_, o) = run("subgroup_float64.comp");
    for g in 0..80 {
        assert_eq!(o[g * 32 + 30], 0b11_0011, "all-equal flags at {g}");
    }
}
