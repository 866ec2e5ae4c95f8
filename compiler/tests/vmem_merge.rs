//! Vector memory merging: neighbouring dword accesses from one address leave selection as
//! separate instructions and reach the final code as `_dwordx2/x3/x4` and `ds_read2/write2`
//! (counted here so the test fails if the optimisation stops), and accesses that straddle the
//! end of a buffer keep each dword's own range-check result.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd::{self, mir::MFunc, opt_dce, smem_merge, vmem_merge};
use ferrum_compiler::interp::{Buffer, Resources};
use ferrum_compiler::ir::{Shader, Stage};

fn ir_of(path: &std::path::Path) -> Shader {
    let words = common::glsl_to_spirv(path);
    ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default()).unwrap()
}

/// Memory instructions of `mf` by mnemonic prefix: (count, dwords moved).
fn count(mf: &MFunc, prefix: &str) -> usize {
    let ops = mf.blocks.iter().flat_map(|b| &b.insts).map(|mi| mi.inst.op().name());
    ops.filter(|n| n.starts_with(prefix)).count()
}

/// Selection of a corpus shader before and after merging, and the final listing.
fn merged(name: &str) -> (MFunc, MFunc, String) {
    let ir = ir_of(&common::corpus_dir().join(name));
    let layout = amd::default_layout(&ir);
    let mut mf = amd::isel::select(&ir, &layout).unwrap();
    opt_dce::opt_dce(&mut mf);
    smem_merge::merge_scalar_loads(&mut mf);
    let before = mf.clone();
    let removed = vmem_merge::merge_vector_accesses(&mut mf);
    let text = amd::compile(&ir, &layout).unwrap().isa_text;
    let total = |m: &MFunc| m.blocks.iter().map(|b| b.insts.len()).sum::<usize>();
    assert!(total(&mf) <= total(&before), "{name}: merging added instructions");
    assert!(removed > 0, "{name}: nothing merged");
    (before, mf, text)
}

#[test]
fn scattered_dwords_become_quads() {
    let (before, after, text) = merged("vmem_scatter_gather.comp");
    // Seven loads (four neighbours, two far ones, one through a signed index) and four stores.
    assert_eq!((count(&before, "buffer_load"), count(&before, "buffer_store")), (7, 4));
    assert_eq!((count(&after, "buffer_load"), count(&after, "buffer_store")), (4, 1), "{text}");
    assert_eq!(count(&after, "buffer_load_dwordx4"), 1, "{text}");
    assert_eq!(count(&after, "buffer_store_dwordx4"), 1, "{text}");
}

#[test]
fn lds_neighbours_pair_up_and_vec2_rows_merge() {
    let (before, after, text) = merged("vmem_shared_tile.comp");
    assert_eq!(count(&before, "ds_write_b32"), 5);
    // Four row writes pair up; tile[l][19] stays alone.
    assert_eq!(count(&after, "ds_write2_b32"), 2, "{text}");
    assert_eq!(count(&after, "ds_write_b32"), 1, "{text}");
    assert!(count(&after, "ds_read2_b32") >= 3, "{text}");
    assert!(count(&after, "ds_read") < count(&before, "ds_read"), "{text}");
    // The two vec2 rows of x are one dwordx4, the four outputs one store.
    assert_eq!(count(&after, "buffer_load_dwordx4"), 1, "{text}");
    assert_eq!(count(&after, "buffer_store_dwordx4"), 1, "{text}");
}

#[test]
fn struct_members_merge_through_buffers() {
    let (before, after, text) = merged("vmem_struct_array.comp");
    let mem = |m: &MFunc| count(m, "buffer_") + count(m, "global_");
    assert!(mem(&after) < mem(&before), "{text}");
    assert_eq!(count(&after, "global_load_dwordx4"), 2, "{text}");
}

/// A quad whose last dwords lie past the end of the buffer: loads read zero there and stores
/// drop exactly those dwords, as four single-dword accesses would (the oracle here is the
/// per-dword range check of raw buffers, computed directly).
#[test]
fn merged_accesses_straddling_the_buffer_end_keep_per_dword_range_checks() {
    let dir = std::env::temp_dir().join(format!("ferrum-vmem-oob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("oob.comp");
    std::fs::write(
        &path,
        "#version 450\nlayout(local_size_x = 8) in;\n\
         layout(std430, binding = 0) readonly buffer I { uint x[]; };\n\
         layout(std430, binding = 1) buffer O { uint o[]; };\n\
         void main() {\n  uint i = gl_LocalInvocationID.x;\n\
           uint a = x[i * 4u], b = x[i * 4u + 1u], c = x[i * 4u + 2u], d = x[i * 4u + 3u];\n\
           o[i * 4u] = a + 1u; o[i * 4u + 1u] = b + 2u; o[i * 4u + 2u] = c + 3u;\n\
           o[i * 4u + 3u] = d + 4u;\n}\n",
    )
    .unwrap();
    let ir = ir_of(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    assert!(bin.isa_text.contains("buffer_load_dwordx4"), "{}", bin.isa_text);
    assert!(bin.isa_text.contains("buffer_store_dwordx4"), "{}", bin.isa_text);
    // 10 input dwords and 30 output dwords: lane 2's load and lane 7's store straddle the ends.
    let (n_in, n_out) = (10usize, 30usize);
    let input: Vec<u32> = (0..n_in as u32).map(|k| 100 + k).collect();
    let old: Vec<u32> = (0..n_out as u32).map(|k| 0xdead_0000 + k).collect();
    let bytes = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: bytes(&input) },
            Buffer { set: 0, binding: 1, index: 0, data: bytes(&old) },
        ],
        ..Default::default()
    };
    let got = Gpu::new().run(&bin, &layout, [1, 1, 1], &res).unwrap();
    let mut want = old.clone();
    for lane in 0..8 {
        for k in 0..4 {
            let idx = lane * 4 + k;
            let v = input.get(idx).copied().unwrap_or(0);
            if idx < n_out {
                want[idx] = v.wrapping_add(k as u32 + 1);
            }
        }
    }
    assert_eq!(got.buffers[1].data, bytes(&want), "{}", bin.isa_text);
}
