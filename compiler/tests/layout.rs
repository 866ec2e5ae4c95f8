//! Layout checks against glslang: the std140/std430/scalar rules we implement reproduce the
//! offsets and strides glslang decorates every block with, and hand-computed addresses.

mod common;

use ferrum_compiler::ir::layout::{child_offset, member_offset, size_align};
use ferrum_compiler::ir::layout_rules::{apply, strip, BlockLayout};
use ferrum_compiler::ir::{Mode, Stage, Type};

/// (shader, rule for uniform blocks, rule for storage and push-constant blocks)
const CASES: &[(&str, BlockLayout, BlockLayout)] = &[
    ("std140_row_major", BlockLayout::Std140, BlockLayout::Std430),
    ("std140_arrays", BlockLayout::Std140, BlockLayout::Std430),
    ("std430_vec3_packing", BlockLayout::Std140, BlockLayout::Std430),
    ("scalar_layout", BlockLayout::Scalar, BlockLayout::Scalar),
    ("col_major_mat3", BlockLayout::Std140, BlockLayout::Std430),
    ("row_major_mat3x2", BlockLayout::Std140, BlockLayout::Std430),
    ("array_of_matrices", BlockLayout::Std140, BlockLayout::Std430),
    ("nested_structs", BlockLayout::Std140, BlockLayout::Std430),
    ("copy_struct_layouts", BlockLayout::Std140, BlockLayout::Std430),
    ("push_constants_struct", BlockLayout::Std140, BlockLayout::Std430),
    ("storage_16bit", BlockLayout::Std140, BlockLayout::Std430),
    ("storage_8bit", BlockLayout::Std140, BlockLayout::Std430),
    ("runtime_array_length", BlockLayout::Std140, BlockLayout::Std430),
];

#[test]
fn block_layout_rules_match_glslang_decorations() {
    let mut checked = 0;
    for (name, ubo, ssbo) in CASES {
        let case = common::load_case(&common::corpus_dir().join(format!("{name}.comp")));
        let mut s =
            ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
        for v in s.vars.clone() {
            let rule = match v.mode {
                Mode::Uniform => *ubo,
                Mode::Storage | Mode::PushConstant => *ssbo,
                _ => continue,
            };
            let bare = strip(&mut s.types, v.ty);
            assert_ne!(bare, v.ty, "{name}: {} has no layout to strip", v.name);
            let (laid, _, _) = apply(&mut s.types, bare, rule);
            assert_eq!(
                laid,
                v.ty,
                "{name}: {rule:?} layout of {} differs from glslang's:\n ours   {:?}\n glslang {:?}",
                v.name,
                s.types.struct_decls(),
                s.types.get(v.ty)
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} blocks checked");
}

#[test]
fn hand_checked_std140_offsets() {
    // layout(std140) uniform U { float f[4]; vec2 v2[4]; vec3 v3[2]; uint k; }
    let case = common::load_case(&common::corpus_dir().join("std140_arrays.comp"));
    let s = ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let u = s.vars.iter().find(|v| v.mode == Mode::Uniform).unwrap();
    let offs: Vec<u32> = (0..4).map(|i| member_offset(&s.types, u.ty, i)).collect();
    // f[4] and v2[4] have stride 16; v3[2] takes 2 * 16 bytes, so k lands at 160.
    assert_eq!(offs, [0, 64, 128, 160]);
    assert_eq!(size_align(&s.types, u.ty).0, 164);
}

#[test]
fn row_major_matrix_element_addresses() {
    // layout(std430, row_major) buffer I { mat3x2 m; vec3 v; mat2x3 n; }: mat3x2 has 3 columns
    // of 2 rows; row-major stores 2 rows of 3 floats with MatrixStride 16.
    let case = common::load_case(&common::corpus_dir().join("row_major_mat3x2.comp"));
    let mut s =
        ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let block = s.vars.iter().find(|v| v.binding == Some((0, 0))).unwrap().ty;
    let Type::Struct { members, .. } = s.types.get(block).clone() else { panic!() };
    let m = members[0].ty;
    let Type::Matrix { stride, row_major, .. } = s.types.get(m).clone() else { panic!() };
    assert_eq!((stride, row_major), (Some(16), true));
    for c in 0..3u32 {
        let col = s.types.child(m, c).unwrap();
        for r in 0..2u32 {
            // Element (column c, row r) = row r * 16 + column c * 4.
            assert_eq!(
                child_offset(&s.types, m, c) + child_offset(&s.types, col, r),
                r * 16 + c * 4
            );
        }
    }
    assert_eq!(member_offset(&s.types, block, 1), 32);
    assert_eq!(member_offset(&s.types, block, 2), 48);
}
