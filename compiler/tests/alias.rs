//! Alias analysis answers and the effect of load/store forwarding on a real shader.

mod common;

use ferrum_compiler::analysis::alias::{alias, paths, Alias, Step};
use ferrum_compiler::ir::validate::Expect;
use ferrum_compiler::ir::{InstKind, Mode, Shader, Stage};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;

fn prepared(name: &str) -> Shader {
    let case = common::load_case(&common::corpus_dir().join(format!("{name}.comp")));
    let mut s =
        ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    inline_functions::inline_functions(&mut s).unwrap();
    lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
    optimize(&mut s, Expect { inlined: true, explicit_io_lowered: false }).unwrap();
    s
}

fn count(s: &Shader, pred: impl Fn(&InstKind) -> bool) -> usize {
    s.funcs[0].blocks.iter().flat_map(|b| &b.insts).filter(|i| pred(&i.kind)).count()
}

#[test]
fn must_may_no() {
    let s = prepared("memory_forwarding");
    let f = &s.funcs[0];
    let p = paths(&s, f);
    let ssbo: Vec<_> = p.values().filter(|x| x.mode == Mode::Storage).cloned().collect();
    let shared: Vec<_> = p.values().filter(|x| x.mode == Mode::Workgroup).cloned().collect();
    // b[i].x and b[i].y: same element, different constant component.
    let bx = ssbo.iter().find(|x| x.steps.len() == 3 && x.steps[2] == Step::Const(0)).unwrap();
    let by = ssbo
        .iter()
        .find(|x| x.steps.len() == 3 && x.steps[2] == Step::Const(1) && x.root == bx.root)
        .unwrap();
    assert_eq!(alias(&s, f, bx, bx), Alias::Must);
    assert_eq!(alias(&s, f, bx, by), Alias::No);
    // a[...] versus b[...]: different bindings may share memory.
    let a = ssbo.iter().find(|x| x.root != bx.root && x.steps.len() == 2).unwrap();
    assert_eq!(alias(&s, f, a, bx), Alias::May);
    // Shared memory never aliases a storage buffer.
    assert_eq!(alias(&s, f, &shared[0], bx), Alias::No);
    // A whole element and one of its components overlap without being equal.
    let elem = ssbo
        .iter()
        .find(|x| x.root == bx.root && x.steps.len() == 2 && x.steps[1] == bx.steps[1])
        .unwrap();
    assert_eq!(alias(&s, f, elem, bx), Alias::May);
}

#[test]
fn forwarding_removes_loads_and_dead_stores() {
    let mut s = prepared("memory_forwarding");
    let loads = count(&s, |k| matches!(k, InstKind::Load { .. }));
    let stores = count(&s, |k| matches!(k, InstKind::Store { .. }));
    assert!(opt_memory_forward::opt_memory_forward(&mut s));
    opt_dce::opt_dce(&mut s);
    // b[i].x is re-read once and s[i] once; the first store to s[i] is overwritten.
    assert_eq!(count(&s, |k| matches!(k, InstKind::Load { .. })), loads - 2);
    assert_eq!(count(&s, |k| matches!(k, InstKind::Store { .. })), stores - 1);
}
