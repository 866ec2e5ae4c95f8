//! End to end: every corpus shader the backend compiles runs on the simulator (strict mode:
//! missing waits, registers or LDS beyond the allocation are faults) and leaves memory exactly
//! as the IR interpreter does.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

/// Runs one case; Ok(false) when the backend refuses the shader or no oracle exists.
fn check(gpu: &Gpu, case: &common::Case, groups: [u32; 3]) -> Result<bool, String> {
    let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .map_err(|e| e.to_string())?;
    let layout = amd::default_layout(&ir);
    let bin = match amd::compile(&ir, &layout) {
        Ok(b) => b,
        Err(amd::BackendError::Unsupported(_)) => return Ok(false),
        Err(e) => return Err(e.to_string()),
    };
    let mut want = case.res.clone();
    if let Err(e) = interp::run(&ir, groups, &mut want) {
        // Shapes beyond the shader's buffers: the interpreter refuses out-of-bounds accesses
        // (the GPU would drop them), so there is no oracle for this shape.
        if groups != case.groups && matches!(e, interp::InterpError::OutOfBounds { .. }) {
            return Ok(false);
        }
        return Err(format!("interpreter: {e}"));
    }
    let got =
        gpu.run(&bin, &layout, groups, &case.res).map_err(|e| format!("{e}\n{}", bin.isa_text))?;
    let approx = APPROXIMATE.contains(&case.name.as_str());
    for (i, (w, g)) in want.buffers.iter().zip(&got.buffers).enumerate() {
        if approx && f32_close(&w.data, &g.data) {
            continue;
        }
        if w.data != g.data {
            let first = w.data.iter().zip(&g.data).position(|(a, b)| a != b).unwrap_or(0) / 4 * 4;
            return Err(format!(
                "buffer {i} (set {} binding {}) differs first at byte {first}: want {:02x?} got {:02x?}\n{}",
                w.set,
                w.binding,
                &w.data[first..(first + 16).min(w.data.len())],
                &g.data[first..(first + 16).min(g.data.len())],
                bin.isa_text
            ));
        }
    }
    for (i, (w, g)) in want.globals.iter().zip(&got.globals).enumerate() {
        if w.data != g.data {
            return Err(format!("global buffer {i} differs\n{}", bin.isa_text));
        }
    }
    Ok(true)
}

/// Shaders whose result depends on the order in which invocations run, so the interpreter's
/// order is no oracle: `atomics_shared` mixes atomicAdd and atomicMax on `hist[3]` between
/// invocations with no ordering, so add-then-max per invocation (interpreter) and all adds then
/// all maxes (one wave) give different, equally valid, sums.
const ORDER_DEPENDENT: &[&str] = &["atomics_shared"];

/// Shaders using transcendentals (exp2, inversesqrt, sqrt, ...): the interpreter evaluates
/// them in f64 and rounds once; the hardware's instructions are specified to about 1 ulp. Their
/// f32 results are compared within 4 ulp; everything else is compared byte for byte.
const APPROXIMATE: &[&str] = &["glsl_math"];

fn f32_close(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len()
        && a.chunks_exact(4).zip(b.chunks_exact(4)).all(|(x, y)| {
            let x = i32::from_le_bytes(x.try_into().unwrap());
            let y = i32::from_le_bytes(y.try_into().unwrap());
            // Same sign: compare as ordered integers (ulps).
            x == y || ((x ^ y) >= 0 && (x - y).unsigned_abs() <= 4)
        })
}

/// Shaders whose workgroups race with each other (non-atomic read-modify-write of the same
/// buffer words), so only their own dispatch shape has an oracle: `memory_forwarding` does
/// `a[a[i] & 15] += 1` from every workgroup.
const ONE_SHAPE: &[&str] = &["memory_forwarding"];

#[test]
fn corpus_runs_on_the_simulator_like_the_interpreter() {
    let gpu = Gpu::new();
    let mut failures = Vec::new();
    let cases = common::all_cases();
    let mut ran = 0;
    for case in &cases {
        if ORDER_DEPENDENT.contains(&case.name.as_str()) {
            continue;
        }
        // The case's own dispatch shape, a single workgroup, and more groups in y and z.
        let g = case.groups;
        let shapes: &[[u32; 3]] = if ONE_SHAPE.contains(&case.name.as_str()) {
            &[g]
        } else {
            &[g, [1, 1, 1], [g[0], g[1] + 1, g[2] + 1]]
        };
        for (k, &groups) in shapes.iter().enumerate() {
            match check(&gpu, case, groups) {
                Ok(r) => ran += usize::from(r && k == 0),
                Err(e) => failures.push(format!("{} {groups:?}: {e}", case.name)),
            }
        }
    }
    eprintln!("{ran} of {} corpus shaders ran on the simulator", cases.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
    // Everything but the order-dependent shaders.
    assert!(ran + ORDER_DEPENDENT.len() >= cases.len(), "only {ran} of {} ran", cases.len());
}

/// Programs above the translator's size cap (1500 instructions; this one has about 4800),
/// which run on the interpreter by design.
const UNTRANSLATED: &[&str] = &["pressure_divergent_spill"];

/// The translator against the interpreter on every corpus shader the backend compiles, in
/// the case's own dispatch shape: memory after the dispatch identical byte for byte (no
/// tolerance, transcendentals included), faults identical, and the JIT really translated.
#[test]
fn corpus_runs_identically_on_the_interpreter_and_the_jit() {
    use ferrum_sim::jit::Engine;
    let (interp, jit) = (Gpu::with_engine(Engine::Interp), Gpu::with_engine(Engine::Jit));
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in &common::all_cases() {
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        let layout = amd::default_layout(&ir);
        let Ok(bin) = amd::compile(&ir, &layout) else { continue };
        let before = jit.jit_stats().0;
        let a = interp.run(&bin, &layout, case.groups, &case.res);
        let b = jit.run(&bin, &layout, case.groups, &case.res);
        if jit.jit_stats().0 == before && !UNTRANSLATED.contains(&case.name.as_str()) {
            failures.push(format!("{}: not translated", case.name));
        }
        ran += 1;
        let same = match (&a, &b) {
            (Ok(x), Ok(y)) => {
                x.buffers.iter().zip(&y.buffers).all(|(p, q)| p.data == q.data)
                    && x.globals.iter().zip(&y.globals).all(|(p, q)| p.data == q.data)
            }
            (Err(x), Err(y)) => x == y,
            _ => false,
        };
        if !same {
            failures.push(format!("{}: engines differ\n{}", case.name, bin.isa_text));
        }
    }
    eprintln!("{ran} corpus shaders compared");
    assert!(ran > 50, "only {ran} shaders compiled");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

/// A shader keeping `n` floats per invocation live at once (every load before any store);
/// with `branch`, a divergent `if` rewrites every third value first, so φs of live values meet
/// under different EXEC masks.
fn stress_case(n: usize, branch: bool) -> common::Case {
    let mut src = String::from(
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(std430, binding = 0) buffer B { float d[]; };\nvoid main() {\n\
         uint i = gl_GlobalInvocationID.x;\n",
    );
    for k in 0..n {
        src.push_str(&format!("float a{k} = d[i * {n}u + {k}u];\n"));
    }
    if branch {
        src.push_str("if ((i % 3u) != 1u) {\n");
        for k in (0..n).step_by(3) {
            src.push_str(&format!("a{k} = a{k} * 0.5 + a{};\n", (k + 7) % n));
        }
        src.push_str("}\n");
    }
    for k in 0..n {
        src.push_str(&format!("d[i * {n}u + {k}u] = a{} * a{k} + float({k});\n", n - 1 - k));
    }
    src.push_str("}\n");
    let dir = std::env::temp_dir().join(format!("ferrum-stress-sim-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stress.comp");
    std::fs::write(&path, src).unwrap();
    let data: Vec<u8> =
        (0..2 * 64 * n).flat_map(|i| (i as f32 * 0.25 - 7.0).to_le_bytes()).collect();
    let case = common::Case {
        name: "stress".into(),
        words: common::glsl_to_spirv(&path),
        groups: [2, 1, 1],
        res: interp::Resources {
            buffers: vec![interp::Buffer { set: 0, binding: 0, index: 0, data }],
            ..Default::default()
        },
        spec: Default::default(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    case
}

/// Many values live at once still run correctly.
#[test]
fn register_pressure_stress_runs_on_the_simulator() {
    let case = stress_case(96, false);
    assert!(check(&Gpu::new(), &case, case.groups).unwrap());
}

/// More live values than a lane has VGPRs: the allocator spills to scratch, reports it in the
/// statistics, and the result is still the interpreter's, with and without divergent φs.
#[test]
fn vgpr_spilling_runs_on_the_simulator() {
    let gpu = Gpu::new();
    for (n, branch) in [(300, false), (290, true)] {
        let case = stress_case(n, branch);
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        let bin = amd::compile(&ir, &amd::default_layout(&ir)).unwrap();
        let st = &bin.stats;
        assert!(st.spilled_vgprs > 0 && st.scratch_size >= 4 * st.spilled_vgprs, "{st:?}");
        assert!(st.vgprs <= 256 && bin.metadata.scratch_bytes_per_lane == st.scratch_size);
        assert!(check(&gpu, &case, case.groups).unwrap(), "n = {n}");
        assert!(check(&gpu, &case, [1, 1, 1]).unwrap(), "n = {n}, one group");
    }
}

/// More live uniform values than a wave has SGPRs: scalar values spill to VGPR lanes
/// (`v_writelane`/`v_readlane`), and the result is still the interpreter's.
#[test]
fn sgpr_spilling_runs_on_the_simulator() {
    let n = 128;
    let mut src = String::from(
        "#version 450\nlayout(local_size_x = 32) in;\n\
         layout(std140, binding = 0) uniform U { uvec4 u[32]; };\n\
         layout(std430, binding = 1) buffer O { uint o[]; };\nvoid main() {\n\
         uint i = gl_LocalInvocationID.x;\n",
    );
    for k in 0..n {
        src.push_str(&format!("uint a{k} = u[{}].{};\n", k / 4, ["x", "y", "z", "w"][k % 4]));
    }
    for k in 0..n {
        src.push_str(&format!("o[i * {n}u + {k}u] = a{} * a{k} + i;\n", n - 1 - k));
    }
    src.push_str("}\n");
    let dir = std::env::temp_dir().join(format!("ferrum-sgpr-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sgpr_stress.comp");
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let ubo: Vec<u8> = (0..n as u32).flat_map(|k| (k * 7919 + 13).to_le_bytes()).collect();
    let case = common::Case {
        name: "sgpr_stress".into(),
        words,
        groups: [1, 1, 1],
        res: interp::Resources {
            buffers: vec![
                interp::Buffer { set: 0, binding: 0, index: 0, data: ubo },
                interp::Buffer { set: 0, binding: 1, index: 0, data: vec![0; 4 * 32 * n] },
            ],
            ..Default::default()
        },
        spec: Default::default(),
    };
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let bin = amd::compile(&ir, &amd::default_layout(&ir)).unwrap();
    assert!(bin.stats.spilled_sgprs > 0, "{:?}", bin.stats);
    assert!(check(&Gpu::new(), &case, case.groups).unwrap());
}

/// Control-flow cases written for the backend (compiler/tests/backend_cases).
#[test]
fn backend_cases_run_on_the_simulator_like_the_interpreter() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/backend_cases");
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let gpu = Gpu::new();
    let mut failures = Vec::new();
    for p in paths {
        let case = common::load_case(&p);
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        if let Err(e) = amd::compile(&ir, &amd::default_layout(&ir)) {
            failures.push(format!("{}: {e}", case.name));
            continue;
        }
        match check(&gpu, &case, case.groups) {
            Ok(true) => {}
            Ok(false) => failures.push(format!("{}: no oracle", case.name)),
            Err(e) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Writes each generated shader (one per seed) to a temporary file and runs it against the
/// interpreter; every failure is reported with its seed and source.
fn run_generated(tag: &str, seeds: std::ops::Range<u64>, make: impl Fn(u64) -> String) {
    let dir = std::env::temp_dir().join(format!("ferrum-random-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gpu = Gpu::new();
    let mut failures = Vec::new();
    for seed in seeds {
        let src = make(seed);
        let path = dir.join(format!("{tag}{seed}.comp"));
        std::fs::write(&path, &src).unwrap();
        let case = common::load_case(&path);
        match check(&gpu, &case, [1, 1, 1]) {
            Ok(true) => {}
            Ok(false) => failures.push(format!("seed {seed}: not compiled\n{src}")),
            Err(e) => failures.push(format!("seed {seed}: {e}\n{src}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A linear congruential generator: the same programs on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A generator of random statement lists: the kind of statement is the generator's own.
trait Statements {
    fn rng(&mut self) -> &mut Lcg;
    fn stmt(&mut self, depth: u32, out: &mut String);
    fn next(&mut self, n: u64) -> u64 {
        self.rng().next(n)
    }
    /// One to three statements.
    fn stmts(&mut self, depth: u32, out: &mut String) {
        for _ in 0..1 + self.next(3) {
            self.stmt(depth, out);
        }
    }
}

/// Random structured control flow (nested ifs on divergent and uniform conditions, loops with
/// break and continue, switches, early returns), generated from fixed seeds: the exec-mask
/// lowering must agree with the interpreter on every one.
#[test]
fn random_control_flow_matches_the_interpreter() {
    struct Gen(Lcg, u32);
    impl Statements for Gen {
        fn rng(&mut self) -> &mut Lcg {
            &mut self.0
        }
        fn stmt(&mut self, depth: u32, out: &mut String) {
            self.statement(depth, out);
        }
    }
    impl Gen {
        fn cond(&mut self) -> String {
            let (a, m, k) = (self.next(100), 2 + self.next(6), self.next(4));
            match self.next(3) {
                0 => format!("(acc + {a}u) % {m}u < {k}u"),
                1 => format!("(x ^ acc) % {m}u == {k}u"),
                _ => format!("(d[{}u] & {m}u) < {k}u", self.next(8)),
            }
        }
        fn statement(&mut self, depth: u32, out: &mut String) {
            let pick = if depth >= 3 { 0 } else { self.next(6) };
            match pick {
                0 | 1 => {
                    let (a, b) = (1 + self.next(7), self.next(1000));
                    out.push_str(&format!("acc = acc * {a}u + (x ^ {b}u);\n"));
                }
                2 => {
                    out.push_str(&format!("if ({}) {{\n", self.cond()));
                    self.stmts(depth + 1, out);
                    out.push_str("} else {\n");
                    self.stmts(depth + 1, out);
                    out.push_str("}\n");
                }
                3 => {
                    self.1 += 1;
                    let (k, r) = (self.1, 1 + self.next(4));
                    out.push_str(&format!(
                        "for (uint k{k} = 0u; k{k} < (x & 3u) + {r}u; k{k}++) {{\n"
                    ));
                    self.stmts(depth + 1, out);
                    out.push_str(&format!("if ((acc ^ k{k}) % 5u == 0u) break;\n"));
                    out.push_str(&format!("if ({}) continue;\n", self.cond()));
                    out.push_str("acc += 3u;\n}\n");
                }
                4 => {
                    out.push_str(
                        "switch (acc % 3u) {\ncase 0u: acc += 1u; break;\ncase 1u: acc ^= 7u;\n",
                    );
                    out.push_str("default: acc += x;\n}\n");
                }
                _ => {
                    out.push_str(&format!(
                        "if ({}) {{ d[i + 32u] = acc; return; }}\n",
                        self.cond()
                    ));
                }
            }
        }
    }
    run_generated("cf", 0..24, |seed| {
        let mut g = Gen(Lcg(seed * 7919 + 13), 0);
        let mut body = String::new();
        g.stmts(0, &mut body);
        format!(
            "#version 450\n//! buf 0 0 rand 64\nlayout(local_size_x = 32) in;\n\
             layout(std430, binding = 0) buffer B {{ uint d[]; }};\nvoid main() {{\n\
             uint i = gl_LocalInvocationID.x;\nuint x = d[i];\nuint acc = i;\n{body}\
             d[i + 32u] = acc;\n}}\n"
        )
    });
}

/// Random structured control flow whose conditions are mostly uniform across the wave (loop
/// bounds, breaks, continues and ifs on scalar data), with divergent statements mixed in, over
/// a workgroup of one full and one partial wave: the scalar-branch lowering of uniform
/// constructs, nested inside and around divergent ones, must agree with the interpreter.
#[test]
fn random_uniform_control_flow_matches_the_interpreter() {
    struct Gen(Lcg, u32);
    impl Statements for Gen {
        fn rng(&mut self) -> &mut Lcg {
            &mut self.0
        }
        fn stmt(&mut self, depth: u32, out: &mut String) {
            self.statement(depth, out);
        }
    }
    impl Gen {
        fn cond(&mut self) -> String {
            let (a, m, k) = (self.next(100), 2 + self.next(6), self.next(4));
            match self.next(5) {
                0 => format!("(u + {a}u) % {m}u < {k}u"),
                1 => format!("(d[{}u] ^ u) % {m}u == {k}u", self.next(8)),
                2 => format!("(d[{}u] & {m}u) < {k}u", self.next(8)),
                3 => format!("(u & {m}u) != {k}u"),
                _ => format!("(acc ^ x) % {m}u < {k}u"),
            }
        }
        fn statement(&mut self, depth: u32, out: &mut String) {
            let pick = if depth >= 3 { self.next(2) } else { self.next(9) };
            match pick {
                0 => {
                    let (a, b) = (1 + self.next(7), self.next(1000));
                    out.push_str(&format!("u = u * {a}u + (d[{}u] ^ {b}u);\n", self.next(8)));
                }
                1 => {
                    let (a, b) = (1 + self.next(7), self.next(1000));
                    out.push_str(&format!("acc = acc * {a}u + (x ^ u ^ {b}u);\n"));
                }
                2 | 3 => {
                    out.push_str(&format!("if ({}) {{\n", self.cond()));
                    self.stmts(depth + 1, out);
                    if self.next(2) == 0 {
                        out.push_str("} else {\n");
                        self.stmts(depth + 1, out);
                    }
                    out.push_str("}\n");
                }
                4 | 5 => {
                    self.1 += 1;
                    let (k, r) = (self.1, 1 + self.next(4));
                    let bound = match self.next(3) {
                        0 => format!("(x & 3u) + {r}u"),
                        _ => format!("(d[{}u] & 3u) + {r}u", self.next(8)),
                    };
                    out.push_str(&format!("for (uint k{k} = 0u; k{k} < {bound}; k{k}++) {{\n"));
                    self.stmts(depth + 1, out);
                    if self.next(2) == 0 {
                        out.push_str(&format!("if ((u ^ k{k}) % 5u == 0u) break;\n"));
                    }
                    if self.next(2) == 0 {
                        out.push_str(&format!("if ({}) continue;\n", self.cond()));
                    }
                    out.push_str("u += 3u;\n}\n");
                }
                6 => {
                    let k = self.next(8);
                    out.push_str(&format!(
                        "do {{ u = u * 5u + 1u; acc += u; }} while ((u ^ d[{k}u]) % 3u != 0u);\n"
                    ));
                }
                7 if self.next(2) == 0 => {
                    // A uniform switch; case 1 sometimes falls through, the default may be
                    // empty (its edge goes straight to the merge).
                    out.push_str(&format!("switch ((u ^ d[{}u]) % 4u) {{\n", self.next(8)));
                    out.push_str("case 0u: acc += u; u ^= 9u; break;\ncase 1u: acc ^= x;\n");
                    if self.next(2) == 0 {
                        out.push_str("break;\n");
                    }
                    out.push_str("case 3u:\n");
                    self.stmts(depth + 1, out);
                    out.push_str("break;\ndefault: break;\n}\n");
                }
                _ if self.next(2) == 0 => {
                    // An early return with nothing to do first (a block that only returns).
                    out.push_str(&format!("if ({}) return;\n", self.cond()));
                }
                _ => {
                    out.push_str(&format!(
                        "if ({}) {{ d[i + 64u] = acc ^ u; return; }}\n",
                        self.cond()
                    ));
                }
            }
        }
    }
    run_generated("ucf", 0..32, |seed| {
        let mut g = Gen(Lcg(seed * 104723 + 29), 0);
        let mut body = String::new();
        g.stmts(0, &mut body);
        format!(
            "#version 450\n//! buf 0 0 rand 128\nlayout(local_size_x = 48) in;\n\
             layout(std430, binding = 0) buffer B {{ uint d[]; }};\nvoid main() {{\n\
             uint i = gl_LocalInvocationID.x;\nuint x = d[i];\nuint acc = i;\n\
             uint u = d[3];\n{body}d[i + 64u] = acc ^ u;\n}}\n"
        )
    });
}

/// Random integer and float expression trees over buffer inputs (fixed seeds): instruction
/// selection of every operator agrees with the IR's reference semantics.
#[test]
fn random_expressions_match_the_interpreter() {
    struct Gen(Lcg);
    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0.next(n)
        }
        fn uexpr(&mut self, depth: u32) -> String {
            if depth == 0 || self.next(4) == 0 {
                return match self.next(4) {
                    0 => format!("{}u", self.next(1 << 31)),
                    1 => "a".into(),
                    2 => "b".into(),
                    _ => format!("d[{}u]", self.next(32)),
                };
            }
            let (x, y) = (self.uexpr(depth - 1), self.uexpr(depth - 1));
            match self.next(22) {
                0 => format!("({x} + {y})"),
                1 => format!("({x} - {y})"),
                2 => format!("({x} * {y})"),
                3 => format!("({x} / {y})"),
                4 => format!("({x} % {y})"),
                5 => format!("({x} & {y})"),
                6 => format!("({x} | {y})"),
                7 => format!("({x} ^ {y})"),
                8 => format!("({x} << ({y} & 31u))"),
                9 => format!("({x} >> ({y} & 31u))"),
                10 => format!("min({x}, {y})"),
                11 => format!("max({x}, {y})"),
                12 => format!("uint(min(int({x}), int({y})))"),
                13 => format!("uint(int({x}) >> int({y} & 31u))"),
                14 => format!("uint(int({x}) / int({y} | 1u))"),
                15 => format!("bitfieldExtract({x}, {}, {})", self.next(16), self.next(16)),
                16 => format!(
                    "uint(bitfieldExtract(int({x}), {}, {}))",
                    self.next(16),
                    1 + self.next(15)
                ),
                17 => format!("bitfieldInsert({x}, {y}, {}, {})", self.next(16), self.next(16)),
                18 => format!("uint(findMSB({x})) + uint(findLSB({y})) + uint(bitCount({x}))"),
                19 => format!("(({x} < {y}) ? {x} : bitfieldReverse({y}))"),
                20 => format!("uint(float({x} & 0xffffu) * 1.5 + float(int({y} & 0xfffu) - 2000))"),
                _ => format!("uint(max(fma(float({x} & 255u), 0.25, -float({y} & 1023u)), -50.0))"),
            }
        }
    }
    run_generated("alu", 0..16, |seed| {
        let mut g = Gen(Lcg(seed * 104729 + 7));
        let exprs: Vec<String> = (0..4).map(|_| g.uexpr(4)).collect();
        let mut body = String::new();
        for (k, e) in exprs.iter().enumerate() {
            body.push_str(&format!("d[32u + i * 4u + {k}u] = {e};\n"));
        }
        format!(
            "#version 450\n//! buf 0 0 rand 160\nlayout(local_size_x = 32) in;\n\
             layout(std430, binding = 0) buffer B {{ uint d[]; }};\nvoid main() {{\n\
             uint i = gl_LocalInvocationID.x;\nuint a = d[i] * 2654435761u;\n\
             uint b = d[(i + 7u) & 31u] + 3u;\n{body}}}\n"
        )
    });
}
