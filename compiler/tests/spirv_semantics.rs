//! Front-end semantics the interpreter and the simulator would agree on even when wrong,
//! checked against values written out by hand: OpCompositeInsert's operand order, and loops in
//! inlined functions.

mod common;

use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

#[test]
fn object_goes_into_composite() {
    let mut case = common::load_case(&common::corpus_dir().join("composite_insert.spvasm"));
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    interp::run(&ir, case.groups, &mut case.res).unwrap();
    let fill = -2_126_951_091i32 as u32;
    for x in 0..8u32 {
        let got: Vec<u32> = (0..7)
            .map(|k| common::u32_at(&case.res.buffers[1].data, (x * 8 + k) as usize))
            .collect();
        assert_eq!(got, [x, fill, x, fill, 7, x, 7], "invocation {x}");
    }
}

/// A called function's loop survives inlining: `sum(i) = 0 + 1 + ... + (i - 1)`.
#[test]
fn inlined_loop_keeps_its_branch_targets() {
    let mut case = common::load_case(&common::corpus_dir().join("call_with_loop.spvasm"));
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    interp::run(&ir, case.groups, &mut case.res).unwrap();
    for i in 0..16u32 {
        assert_eq!(
            common::u32_at(&case.res.buffers[0].data, i as usize),
            i * i.saturating_sub(1) / 2
        );
    }
}
