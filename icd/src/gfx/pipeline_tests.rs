use super::*;

#[test]
fn empty_fragment_shader_is_valid_spirv() {
    // spirv-val (SPIRV-Tools, installed by scripts/setup) is the oracle for the hand-written
    // words; a missing tool fails the test.
    let path = std::env::temp_dir().join(format!("ferrum-empty-fs-{}.spv", std::process::id()));
    let bytes: Vec<u8> = EMPTY_FS.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.0"])
        .arg(&path)
        .output()
        .expect("spirv-val (run scripts/setup)");
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn empty_fragment_shader_exports_nothing() {
    let ir =
        ferrum_compiler::compile_to_ir(&EMPTY_FS, "main", Stage::Fragment, &Default::default())
            .expect("front end");
    // Even with every colour target present, a shader that writes none enables none.
    let key = GfxKey { vs: VsKey::default(), ps: PsKey::default(), single_view: false };
    let bin = amd::compile_graphics(&ir, &amd::ResourceLayout::default(), key).expect("compile");
    let GfxMetadata::Fragment(pm) = bin.metadata else { panic!("not a fragment shader") };
    assert_eq!(pm.col_format, 0);
    assert_eq!(pm.cb_shader_mask, 0);
    assert_eq!(pm.z_format, EX::SPI_SHADER_ZERO);
}

/// The vertex shader's constant outputs come from the cache when it has them: its SPIR-V is
/// not translated (here it is not SPIR-V at all, which the front end would refuse); on a miss
/// the front end runs, unless the creation may not compile.
#[test]
fn cached_vertex_outputs_need_no_front_end() {
    let adapter = crate::core::physical_device::Adapter::open_simulated().unwrap();
    let cache = PipelineCache::new(&adapter, &[]);
    let layout = amd::ResourceLayout::default();
    let junk = [0xdead_beef_u32, 7, 8];
    let st = StageInfo { words: &junk, entry: "main", spec: Default::default() };
    let none = vk::PipelineCreateFlags::empty();
    let fail = vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;
    let mut ir = None;
    let miss = vs_constant_outputs(Some(&cache), none, &st, &layout, &mut ir);
    assert!(matches!(miss, Err(VkError::InvalidShader(_))), "{miss:?}");
    let miss = vs_constant_outputs(Some(&cache), fail, &st, &layout, &mut ir);
    assert!(matches!(miss, Err(VkError::PipelineCompileRequired)), "{miss:?}");
    let mut outputs = ConstantInputs { mask: 0b101, ..Default::default() };
    outputs.values[2] = 0x3f80_0000;
    let k = crate::pipeline::gfx_cache::link_key(&junk, "main", &st.spec, &layout);
    cache.insert_link(k, outputs);
    for flags in [none, fail] {
        let hit = vs_constant_outputs(Some(&cache), flags, &st, &layout, &mut ir);
        assert_eq!(hit.ok(), Some(outputs));
        assert!(ir.is_none(), "no IR: nothing was translated");
    }
    // Another entry point is another shader.
    let other = StageInfo { entry: "other", ..st };
    assert!(vs_constant_outputs(Some(&cache), fail, &other, &layout, &mut ir).is_err());
}
