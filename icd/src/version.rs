//! The versions Ferrum reports, in one place.
//!
//! The device API version is honest: the highest version whose core commands, required
//! features and required limits are all implemented. For 1.1 that is every 1.1 command under
//! its core name (`entry::table`, test `core_1_1`), the multiview feature, the subgroup
//! properties of what the compiler implements (BASIC among them, in compute), and the promoted
//! extensions' rules without enabling them. 1.2 is not reported: its required features include
//! separateDepthStencilLayouts and subgroupBroadcastDynamicId, and its shaders may be SPIR-V
//! 1.4 and 1.5, none of which is done (imagelessFramebuffer and shaderSubgroupExtendedTypes
//! are, through their extensions). The instance version is 1.1:
//! every instance-level command of 1.1 (the `...2` queries, device groups, external capability
//! queries) is implemented.

use ash::vk;

pub fn device_api_version() -> u32 {
    vk::make_api_version(0, 1, 1, vk::HEADER_VERSION)
}

pub fn instance_api_version() -> u32 {
    vk::make_api_version(0, 1, 1, vk::HEADER_VERSION)
}

/// The crate version in Vulkan's version encoding.
pub fn driver_version() -> u32 {
    let part = |s: &str| s.parse::<u32>().unwrap_or(0);
    vk::make_api_version(
        0,
        part(env!("CARGO_PKG_VERSION_MAJOR")),
        part(env!("CARGO_PKG_VERSION_MINOR")),
        part(env!("CARGO_PKG_VERSION_PATCH")),
    )
}
