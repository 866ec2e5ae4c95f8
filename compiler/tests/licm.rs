//! Loop-invariant code motion: push-constant loads and invariant arithmetic leave the loop.

mod common;

#[test]
fn push_constant_loads_move_out_of_a_loop() {
    let src = "#version 450\nlayout(local_size_x = 32) in;\n\
        layout(std430, binding = 0) buffer B { uint d[]; };\n\
        layout(push_constant) uniform P { uint n; uint m; } pc;\n\
        void main() {\n uint i = gl_LocalInvocationID.x;\n uint acc = d[i];\n\
        for (uint k = 0u; k < pc.n; k++) {\n acc = acc * 3u + k * (pc.m + 7u);\n\
        if (k == pc.m) break;\n }\n d[i] = acc;\n}\n";
    let text = common::listing("licm", src);
    // The set table, the buffer's descriptor and both push constants in one load, once.
    let loads: Vec<&str> = text.lines().filter(|l| l.starts_with("s_load")).collect();
    assert_eq!(loads.len(), 3, "{text}");
    // pc.m + 7 is computed once, before the loop's first branch.
    let first_branch = text.lines().position(|l| l.starts_with("s_cbranch")).unwrap();
    let add = text.lines().position(|l| l.starts_with("s_add_i32") || l.starts_with("s_add_u32"));
    assert!(add.is_some_and(|a| a < first_branch), "{text}");
}
