//! Vulkan 1.0 graphics and sparse commands that Ferrum does not implement yet.
//!
//! Every core command must be reachable through `vkGetDeviceProcAddr` (an application or the
//! conformance suite that finds NULL calls it anyway and crashes). Until the graphics path
//! exists, these entry points keep the contract for the uses that can be valid today and
//! refuse the rest loudly:
//!
//! - the line width below is valid only at 1.0 (wideLines is not supported), which is what
//!   the draw path (`crate::gfx`) draws, so it changes nothing observable and is accepted;
//! - sparse binding is not advertised (no queue family has `SPARSE_BINDING`), so
//!   `vkQueueBindSparse` has no valid use; images created without sparse flags have no sparse
//!   requirements.
//!
//! This file is meant to shrink to nothing as the graphics path lands.

use ash::vk;

use super::obj;
use crate::cmd::CommandBuffer;
use crate::entry::{guard, guard_void};
use crate::error::VkError;

/// Logs and returns the error for a command whose feature does not exist yet.
fn absent(what: &'static str) -> VkError {
    VkError::NotImplemented(what)
}

/// Accepts a state-setting command that nothing can consume yet (see the module docs).
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn accept_state(name: &'static str, cb: vk::CommandBuffer) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        unsafe { obj::<CommandBuffer>(cb)? };
        log::trace!("{name}: no graphics pipeline can consume this state yet");
        Ok(())
    })
}

pub unsafe extern "system" fn queue_bind_sparse(
    _queue: vk::Queue,
    _count: u32,
    _p_info: *const vk::BindSparseInfo<'_>,
    _fence: vk::Fence,
) -> vk::Result {
    guard("vkQueueBindSparse", || Err(absent("sparse binding (no queue has SPARSE_BINDING)")))
}

/// Generates `vkCmd*` entry points that only hand the command buffer to a policy function.
macro_rules! cmd_entries {
    ($policy:ident: $($f:ident $name:literal ($($arg:ident: $ty:ty),*);)*) => {$(
        pub unsafe extern "system" fn $f(cb: vk::CommandBuffer, $(_: $ty),*) {
            // SAFETY: the application passes a live command buffer (valid usage).
            unsafe { $policy($name, cb) }
        }
    )*};
}

cmd_entries! { accept_state:
    cmd_set_line_width "vkCmdSetLineWidth" (w: f32);
}
