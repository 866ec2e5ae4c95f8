//! Debian's `vulkaninfo` runs against Ferrum alone and reports what the driver declares.

use std::path::Path;
use std::process::{Command, Output};

use ferrum_tests::{driver_manifest, Harness};
use serde_json::Value;
use vulkan_ferrum::core::physical_device::limits::navi21_limits;

fn vulkaninfo(args: &[&str], cwd: &Path) -> Output {
    let out = Command::new("vulkaninfo")
        .args(args)
        .current_dir(cwd)
        .env("VK_DRIVER_FILES", driver_manifest())
        .env("VK_ICD_FILENAMES", driver_manifest())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("vulkaninfo not found: install vulkan-tools (scripts/setup does)");
    assert!(
        out.status.success(),
        "vulkaninfo {args:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-vulkaninfo-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn summary_reports_the_ferrum_device() {
    let dir = scratch_dir("summary");
    let out = String::from_utf8(vulkaninfo(&["--summary"], &dir).stdout).unwrap();
    assert!(out.contains("deviceName         = Ferrum on simulated NAVI21"), "{out}");
    assert!(out.contains("vendorID           = 0x1002"), "{out}");
    assert!(out.contains("deviceID           = 0x73bf"), "{out}");
    // Ferrum alone: exactly one GPU.
    assert!(out.contains("GPU0:") && !out.contains("GPU1:"), "{out}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn full_report_runs_to_completion() {
    let dir = scratch_dir("full");
    let out = String::from_utf8(vulkaninfo(&[], &dir).stdout).unwrap();
    for section in [
        "VkPhysicalDeviceLimits:",
        "VkPhysicalDeviceMemoryProperties:",
        "VkQueueFamilyProperties:",
        "VkPhysicalDeviceFeatures:",
    ] {
        assert!(out.contains(section), "missing {section}");
    }
    assert!(!out.contains("VK_ERROR"), "{out}");
    std::fs::remove_dir_all(dir).ok();
}

/// The profile JSON that `vulkaninfo --json` writes (to a file in the working directory in
/// vulkan-tools 1.3.239, to stdout in later versions).
fn json_report() -> Value {
    let dir = scratch_dir("json");
    let out = vulkaninfo(&["--json"], &dir);
    let text = match std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".json"))
    {
        Some(file) => std::fs::read_to_string(file.path()).unwrap(),
        None => String::from_utf8(out.stdout).unwrap(),
    };
    std::fs::remove_dir_all(dir).ok();
    serde_json::from_str(&text).expect("vulkaninfo --json output parses")
}

#[test]
fn json_report_matches_advertised_version_and_limits() {
    let json = json_report();
    let props = &json["capabilities"]["device"]["properties"]["VkPhysicalDeviceProperties"];
    let api = vulkan_ferrum::version::device_api_version();
    assert_eq!(props["apiVersion"].as_u64(), Some(u64::from(api)), "{props}");
    assert_eq!(props["vendorID"].as_u64(), Some(0x1002));
    assert_eq!(props["deviceID"].as_u64(), Some(0x73BF));

    // Limits as the driver declares them, as the loader delivers them to an application,
    // and as vulkaninfo printed them must all agree.
    let declared = navi21_limits();
    let h = Harness::plain();
    // SAFETY: a live physical device.
    let delivered =
        unsafe { h.instance.get_physical_device_properties(h.physical_device()) }.limits;
    let limits = &props["limits"];
    let checks: [(&str, u64, u64); 12] = [
        (
            "maxImageDimension2D",
            declared.max_image_dimension2_d.into(),
            delivered.max_image_dimension2_d.into(),
        ),
        (
            "maxUniformBufferRange",
            declared.max_uniform_buffer_range.into(),
            delivered.max_uniform_buffer_range.into(),
        ),
        (
            "maxStorageBufferRange",
            declared.max_storage_buffer_range.into(),
            delivered.max_storage_buffer_range.into(),
        ),
        (
            "maxPushConstantsSize",
            declared.max_push_constants_size.into(),
            delivered.max_push_constants_size.into(),
        ),
        (
            "maxBoundDescriptorSets",
            declared.max_bound_descriptor_sets.into(),
            delivered.max_bound_descriptor_sets.into(),
        ),
        (
            "maxComputeSharedMemorySize",
            declared.max_compute_shared_memory_size.into(),
            delivered.max_compute_shared_memory_size.into(),
        ),
        (
            "maxComputeWorkGroupInvocations",
            declared.max_compute_work_group_invocations.into(),
            delivered.max_compute_work_group_invocations.into(),
        ),
        ("maxViewports", declared.max_viewports.into(), delivered.max_viewports.into()),
        (
            "minMemoryMapAlignment",
            declared.min_memory_map_alignment as u64,
            delivered.min_memory_map_alignment as u64,
        ),
        ("nonCoherentAtomSize", declared.non_coherent_atom_size, delivered.non_coherent_atom_size),
        (
            "maxColorAttachments",
            declared.max_color_attachments.into(),
            delivered.max_color_attachments.into(),
        ),
        (
            "bufferImageGranularity",
            declared.buffer_image_granularity,
            delivered.buffer_image_granularity,
        ),
    ];
    for (name, declared, delivered) in checks {
        assert_eq!(declared, delivered, "{name}: loader delivered a different value");
        assert_eq!(limits[name].as_u64(), Some(declared), "{name} in vulkaninfo --json");
    }
    let wg = &limits["maxComputeWorkGroupSize"];
    assert_eq!(wg, &serde_json::json!(declared.max_compute_work_group_size));
}
