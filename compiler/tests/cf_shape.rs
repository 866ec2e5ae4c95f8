//! The shape of the code control flow becomes: uniform constructs branch on SCC and leave EXEC
//! alone, divergent ones narrow EXEC. (That the code is *right* is sim_corpus's business; these
//! tests fail when a uniform construct silently falls back to lane masks.) An arm that stores
//! keeps its construct a branch; opt_if_convert turns arms of plain arithmetic into selects.

mod common;

use common::listing;

fn count(text: &str, pat: &str) -> usize {
    text.lines().filter(|l| l.contains(pat)).count()
}

const HEAD: &str = "#version 450\nlayout(local_size_x = 64) in;\n\
    layout(std430, binding = 0) buffer B { uint d[]; };\n\
    layout(push_constant) uniform P { uint n; uint m; } pc;\n";

#[test]
fn uniform_loop_with_break_continue_and_if_never_touches_exec() {
    let src = format!(
        "{HEAD}void main() {{\n uint i = gl_LocalInvocationID.x;\n uint acc = d[i];\n\
         for (uint k = 0u; k < pc.n; k++) {{\n acc = acc * 3u + k;\n\
         if (k == pc.m) break;\n if ((k & 1u) == 0u) continue;\n\
         if (k > 7u) {{ d[k] = acc; }} else {{ acc += 5u; }}\n }}\n d[i] = acc;\n}}\n"
    );
    let text = listing("uloop", &src);
    assert_eq!(count(&text, "exec_lo"), 0, "a uniform loop wrote EXEC:\n{text}");
    assert!(count(&text, "s_cbranch_scc") >= 4, "uniform branches are not on SCC:\n{text}");
}

#[test]
fn divergent_if_narrows_exec_and_restores_it_at_the_join() {
    let src = format!(
        "{HEAD}void main() {{\n uint i = gl_LocalInvocationID.x;\n uint v = d[i];\n\
         if (v > 10u) {{ d[i + 64u] = v * 7u; }} else {{ v = v + 1u; }}\n d[i] = v;\n}}\n"
    );
    let text = listing("divif", &src);
    // Save, then side, other side, restore: no accumulated masks.
    assert!(count(&text, "s_cbranch_execz") >= 2, "{text}");
    assert!(count(&text, "s_or_b32") == 0, "join lanes accumulated instead of restored:\n{text}");
}

#[test]
fn loop_after_a_divergent_if_stays_uniform() {
    // The loop counter's φ is reachable from both sides of the divergent branch, but only
    // through the branch's merge point: it is not a divergent join. (63 trips: more than
    // opt_loop_unroll unrolls, so the loop stays.)
    let src = format!(
        "{HEAD}shared uint t[64];\nvoid main() {{\n uint l = gl_LocalInvocationID.x;\n\
         t[l] = d[l];\n if (l == 0u) t[63] = 0u;\n uint off = 1u;\n\
         for (uint k = 1u; k < 64u; k++) {{\n barrier();\n\
         if (l < k) {{ t[l] += off; }}\n off += k;\n }}\n barrier();\n d[l] = t[l];\n}}\n"
    );
    let text = listing("loopafter", &src);
    assert!(text.contains("s_cmp_lt_u32") && text.contains(", 64"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("v_cmp") && l.contains(", 64")), "{text}");
}

#[test]
fn early_returns_cost_no_masks_once_the_wave_is_uniform() {
    // A divergent early return narrows EXEC once; the uniform one after it is a scalar branch
    // to the end of the program.
    let src = format!(
        "{HEAD}void main() {{\n uint i = gl_GlobalInvocationID.x;\n if (i >= pc.n) return;\n\
         if (pc.m == 0u) return;\n uint acc = d[i];\n\
         for (uint k = 0u; k < pc.m; k++) acc = acc * 3u + k;\n d[i] = acc;\n}}\n"
    );
    let text = listing("returns", &src);
    assert_eq!(count(&text, "exec_lo"), 2, "{text}");
    assert_eq!(count(&text, "s_cbranch_execz"), 1, "{text}");
    // The uniform return's branch lands on s_endpgm (listing lines end in "; <byte address>").
    let addr = |l: &str| u32::from_str_radix(l.rsplit("; ").next().unwrap().trim(), 16).unwrap();
    let end = addr(text.lines().find(|l| l.starts_with("s_endpgm")).unwrap());
    let to_end = text.lines().filter(|l| l.starts_with("s_cbranch_scc")).any(|l| {
        let words: i64 = l.split_whitespace().nth(1).unwrap().parse::<u16>().unwrap() as i16 as i64;
        i64::from(addr(l)) + 4 + 4 * words == i64::from(end)
    });
    assert!(to_end, "no scalar branch to the end:\n{text}");
}
