//! The generated table against facts stated independently (pm4-gfx103.md, the simulator's
//! hand-written compute offsets) and the strict-mode value check.

use ferrum_regs::gfx103::*;
use ferrum_regs::{by_name, lookup, Space};

#[test]
fn table_is_sorted_and_offsets_unique() {
    assert!(REGISTERS.windows(2).all(|w| w[0].offset < w[1].offset));
    assert!(REGISTERS.len() > 1900);
}

#[test]
fn offsets_match_independent_sources() {
    for (name, offset) in [
        ("COMPUTE_PGM_LO", 0xb830),
        ("COMPUTE_PGM_RSRC1", 0xb848),
        ("COMPUTE_USER_DATA_0", 0xb900),
        ("SPI_SHADER_PGM_LO_VS", 0xb120),
        ("SPI_SHADER_USER_DATA_VS_0", 0xb130),
        ("PA_CL_VPORT_XSCALE", 0x2843c),
        ("VGT_PRIMITIVE_TYPE", 0x30908),
        ("GE_VRS_RATE", 0x3098c),
    ] {
        let r = by_name(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(r.offset, offset, "{name}");
        assert_eq!(lookup(offset).unwrap().name, name);
    }
    assert_eq!(PA_SU_SC_MODE_CNTL, 0x28814);
    assert_eq!(lookup(0x28816), None, "not a register");
    assert_eq!(lookup(PA_CL_CLIP_CNTL).unwrap().space(), Space::Context);
    assert_eq!(lookup(SPI_SHADER_PGM_RSRC2_VS).unwrap().space(), Space::Sh);
    assert_eq!(lookup(VGT_INDEX_TYPE).unwrap().space(), Space::Uconfig);
}

#[test]
fn field_accessors() {
    assert_eq!(PA_SU_SC_MODE_CNTL::CULL_FRONT.mask(), 1);
    assert_eq!(PA_SU_SC_MODE_CNTL::PROVOKING_VTX_LAST.mask(), 1 << 19);
    let v = PA_SU_SC_MODE_CNTL::POLY_MODE.set(0xffff_ffff, 0);
    assert_eq!(v, !(3 << 3));
    assert_eq!(SPI_SHADER_PGM_RSRC2_VS::USER_SGPR.val(0x3f), 0x1f << 1, "truncated to 5 bits");
    assert_eq!(SPI_SHADER_PGM_RSRC1_VS::VGPR_COMP_CNT.get(3 << 24), 3);
    assert_eq!(
        VGT_INDEX_TYPE::INDEX_TYPE.value_name(enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_32),
        Some("VGT_INDEX_32")
    );
    // Registers sharing a type share fields.
    assert_eq!(CB_COLOR7_INFO::FORMAT, CB_COLOR0_INFO::FORMAT);
}

#[test]
fn strict_value_check() {
    let r = lookup(PA_SU_SC_MODE_CNTL).unwrap();
    assert!(r.check(PA_SU_SC_MODE_CNTL::CULL_BACK.val(1)).is_ok());
    assert!(r.check(1 << 31).unwrap_err().contains("outside its fields"));
    let r = lookup(VGT_PRIMITIVE_TYPE).unwrap();
    assert!(r.check(enums::VGT_DI_PRIM_TYPE::DI_PT_TRILIST).is_ok());
    assert!(r.check(0x3f).unwrap_err().contains("not a VGT_DI_PRIM_TYPE value"));
    // FLOAT_MODE and EXCP_EN enumerate flags: combinations are valid.
    let r = lookup(SPI_SHADER_PGM_RSRC1_VS).unwrap();
    let modes = enums::FLOAT_MODE::FP_32_DENORMS | enums::FLOAT_MODE::FP_16_64_DENORMS;
    assert!(r.check(SPI_SHADER_PGM_RSRC1_VS::FLOAT_MODE.val(modes)).is_ok());
    // A register without fields takes any 32-bit value.
    assert!(lookup(SPI_SHADER_USER_DATA_VS_0).unwrap().check(u32::MAX).is_ok());
}

/// The checked-in table is what the generator makes of the database, wherever the database
/// and python3 are at hand (the build itself never needs them).
#[test]
fn generated_file_is_current() {
    let db = std::path::Path::new("/work/shared/reference/registers/gfx103.json");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if !db.exists() {
        eprintln!("skipped: no register database at {}", db.display());
        return;
    }
    let out = std::env::temp_dir().join(format!("ferrum-regs-{}.rs", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root.join("scripts/gen-regs"))
        .arg(db.parent().unwrap())
        .arg(&out)
        .status();
    let Ok(status) = status else {
        eprintln!("skipped: no python3");
        return;
    };
    assert!(status.success());
    let fresh = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let checked_in = std::fs::read_to_string(root.join("regs/src/gfx103.rs")).unwrap();
    assert!(fresh == checked_in, "regs/src/gfx103.rs is stale: rerun scripts/gen-regs");
}
