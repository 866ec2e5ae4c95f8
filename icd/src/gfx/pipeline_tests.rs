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
