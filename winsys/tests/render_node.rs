//! The real-kernel path on a machine without an AMD GPU: enumeration and opening fail cleanly.

use std::path::Path;

use ferrum_winsys::{enumerate_amdgpu, Device, Error};

#[test]
fn enumeration_only_returns_amdgpu_nodes() {
    for path in enumerate_amdgpu() {
        // Any node listed must really be driven by amdgpu and open as a device.
        assert!(path.file_name().unwrap().to_str().unwrap().starts_with("renderD"));
        Device::open_render_node(&path).expect("an enumerated node opens");
    }
}

#[test]
fn opening_something_else_is_an_error_not_a_panic() {
    match Device::open_render_node(Path::new("/nonexistent/renderD128")) {
        Err(Error::Open { .. }) => {}
        other => panic!("expected an open error, got {other:?}"),
    }
    // A character device that is not a DRM node rejects DRM_IOCTL_VERSION.
    match Device::open_render_node(Path::new("/dev/null")) {
        Err(Error::Ioctl { op, .. }) => assert_eq!(op, "DRM_IOCTL_VERSION"),
        other => panic!("expected an ioctl error, got {other:?}"),
    }
}
