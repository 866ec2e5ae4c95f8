//! Address constants: `opt_split_offsets` keeps every corpus shader's results (IR interpreter
//! before and after), and instruction selection moves the constants into the immediate offset
//! fields exactly where that is exact (MUBUF only when the addition provably cannot wrap).

mod common;

use ferrum_compiler::interp::{self, Resources};
use ferrum_compiler::ir::{Shader, Stage};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;
use ferrum_compiler::{amd, ir::validate::Expect};

fn run(case: &common::Case, s: &Shader) -> Resources {
    let mut res = case.res.clone();
    interp::run(s, case.groups, &mut res).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    res
}

/// The pipeline up to the point where `opt_split_offsets` runs.
fn lowered(case: &common::Case) -> Shader {
    let mut s = ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let mut ex = Expect::default();
    inline_functions::inline_functions(&mut s).unwrap();
    ex.inlined = true;
    lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
    optimize(&mut s, ex).unwrap();
    opt_memory_forward::opt_memory_forward(&mut s);
    lower_system_values::lower_system_values(&mut s);
    lower_explicit_io::lower_explicit_io(&mut s);
    ex.explicit_io_lowered = true;
    optimize(&mut s, ex).unwrap();
    s
}

#[test]
fn splitting_offsets_preserves_results_on_the_corpus() {
    let mut rewritten = 0;
    for case in common::all_cases() {
        let mut s = lowered(&case);
        let reference = run(&case, &s);
        let ex = Expect { inlined: true, explicit_io_lowered: true };
        rewritten += usize::from(opt_split_offsets::opt_split_offsets(&mut s));
        ferrum_compiler::ir::validate::validate(&s, ex)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let got = run(&case, &s);
        for (a, b) in reference.buffers.iter().zip(&got.buffers) {
            assert!(a.data == b.data, "{}: results differ after opt_split_offsets", case.name);
        }
        for (a, b) in reference.globals.iter().zip(&got.globals) {
            assert!(a.data == b.data, "{}: global results differ", case.name);
        }
        // A second run finds nothing left to split.
        assert!(!opt_split_offsets::opt_split_offsets(&mut s), "{}: not idempotent", case.name);
    }
    assert!(rewritten >= 10, "only {rewritten} shaders had address constants");
}

pub fn listing(name: &str) -> String {
    let words = common::glsl_to_spirv(&common::corpus_dir().join(name));
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    amd::compile(&ir, &amd::default_layout(&ir)).unwrap().isa_text
}

/// Lines of `text` whose mnemonic starts with `prefix`.
fn lines<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines()
        .filter(|l| l.split_whitespace().next().is_some_and(|m| m.starts_with(prefix)))
        .collect()
}

/// The `offset:` of a listing line (0 when absent).
fn offset(line: &str) -> u32 {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("offset:"))
        .map_or(0, |o| o.parse().unwrap())
}

#[test]
fn buffer_constants_fold_into_the_mubuf_immediate_up_to_its_limit() {
    let text = listing("vmem_scatter_gather.comp");
    let loads = lines(&text, "buffer_load");
    // x[i*4+0..3] from one address (merged into one dwordx4); x[i+1023] at 4092, the largest
    // dword offset the 12-bit field holds; x[i+1024] (4096) needs an addition.
    assert!(loads.iter().any(|l| l.starts_with("buffer_load_dwordx4") && offset(l) == 0), "{text}");
    assert!(loads.iter().any(|l| offset(l) == 4092), "no load at offset 4092:\n{text}");
    assert!(text.contains("0x1000"), "{text}");
    assert!(!text.contains("0xffc"), "{text}");
    let stores = lines(&text, "buffer_store");
    assert_eq!(stores.len(), 1, "{text}");
}

#[test]
fn lds_constants_fold_into_the_ds_offset() {
    let text = listing("vmem_shared_tile.comp");
    let ds: Vec<&str> = lines(&text, "ds_");
    // tile[l][19] and tile[r][19]: 76 bytes past the row, through the 16-bit field.
    assert!(ds.iter().any(|l| l.contains("offset:76") || l.contains("offset1:19")), "{text}");
    // No address arithmetic per element: the row base and at most a few sums remain.
    let adds = lines(&text, "v_add_nc_u32").len();
    assert!(adds <= 4, "{adds} additions:\n{text}");
}

/// A buffer index that may wrap around 2^32 keeps its constant in the address arithmetic: the
/// hardware would not wrap `offset + immediate`, so folding could move an access out of range.
#[test]
fn unbounded_offsets_keep_their_constant_out_of_the_immediate() {
    let dir = std::env::temp_dir().join(format!("ferrum-vmem-wrap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrap.comp");
    std::fs::write(
        &path,
        "#version 450\nlayout(local_size_x = 32) in;\n\
         layout(std430, binding = 0) buffer B { uint d[]; };\n\
         layout(push_constant) uniform P { uint k; };\n\
         void main() { uint i = gl_GlobalInvocationID.x * k; d[i + 1u] = i; }\n",
    )
    .unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let text = amd::compile(&ir, &amd::default_layout(&ir)).unwrap().isa_text;
    let stores = lines(&text, "buffer_store");
    assert_eq!(stores.len(), 1, "{text}");
    assert_eq!(offset(stores[0]), 0, "{text}");
}
