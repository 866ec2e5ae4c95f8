//! The versions Ferrum reports, in one place.
//!
//! The device API version is honest: the highest version whose core commands and required
//! features are all implemented. Device-level Vulkan 1.0 is itself incomplete (no images,
//! command buffers or pipelines yet), so 1.0 is reported as the floor the loader needs. The
//! instance version is 1.1: every instance-level command of 1.1 (the `...2` queries, device
//! groups, external capability queries) is implemented.

use ash::vk;

pub fn device_api_version() -> u32 {
    vk::make_api_version(0, 1, 0, vk::HEADER_VERSION)
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
