//! `VK_KHR_device_group` commands.
//!
//! Ferrum never links GPUs: every physical device is a group of one, so device masks can only
//! name device 0 and there is no peer memory. What the extension still brings to a single GPU
//! is `vkCmdDispatchBase`, which the hardware runs natively from `COMPUTE_START_X/Y/Z`.

use ash::vk;

use super::{array, obj, output};
use crate::api::compute::record;
use crate::cmd::dispatch::{self, Groups};
use crate::core::chain;
use crate::core::device::Device;
use crate::entry::guard_void;
use crate::error::{VkError, VkResult};

/// The only valid device mask in a group of one.
pub const SINGLE_DEVICE_MASK: u32 = 1;

pub unsafe extern "system" fn get_device_group_peer_memory_features(
    device: vk::Device,
    _heap_index: u32,
    _local_device_index: u32,
    _remote_device_index: u32,
    p_peer_memory_features: *mut vk::PeerMemoryFeatureFlags,
) {
    guard_void("vkGetDeviceGroupPeerMemoryFeatures", || {
        // SAFETY: a live handle and a writable output pointer (valid usage).
        unsafe { obj::<Device>(device)? };
        // SAFETY: as above.
        let out = unsafe { output(p_peer_memory_features)? };
        // A group of one has no peer to access memory of.
        *out = vk::PeerMemoryFeatureFlags::empty();
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_set_device_mask(cb: vk::CommandBuffer, device_mask: u32) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdSetDeviceMask", cb, |_, _, _| {
            // VUID-vkCmdSetDeviceMask-deviceMask-00108/00110: non-zero, naming only devices
            // of the group. Commands then run on device 0 exactly as before.
            if device_mask != SINGLE_DEVICE_MASK {
                return Err(VkError::InvalidUsage("device mask names a device outside the group"));
            }
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_dispatch_base(
    cb: vk::CommandBuffer,
    base_x: u32,
    base_y: u32,
    base_z: u32,
    x: u32,
    y: u32,
    z: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdDispatchBase", cb, |cb, s, st| {
            let end = [base_x.checked_add(x), base_y.checked_add(y), base_z.checked_add(z)];
            if end.contains(&None) {
                return Err(VkError::InvalidUsage("dispatch base plus group count overflows"));
            }
            dispatch::dispatch(s, st, cb.ip, Groups::Direct([x, y, z]), [base_x, base_y, base_z])
        })
    }
}

/// VUID-VkMemoryAllocateFlagsInfo-deviceMask-00675: a `DEVICE_MASK` allocation names
/// devices of the group; the memory lives on device 0 either way.
///
/// # Safety
/// `p_next` must be the chain of a valid `VkMemoryAllocateInfo`.
pub unsafe fn check_allocate_flags(p_next: *const std::ffi::c_void) -> VkResult<()> {
    // SAFETY: forwarded to the caller.
    let flags = unsafe { chain::find_in::<vk::MemoryAllocateFlagsInfo<'_>>(p_next) };
    match flags {
        Some(f)
            if f.flags.contains(vk::MemoryAllocateFlags::DEVICE_MASK)
                && f.device_mask != SINGLE_DEVICE_MASK =>
        {
            Err(VkError::InvalidUsage("allocation device mask names a device outside the group"))
        }
        _ => Ok(()),
    }
}

/// `VkDeviceGroupSubmitInfo` may only name device 0: semaphore device indices are 0 and
/// command buffer masks are 1 (VUID-VkDeviceGroupSubmitInfo-pCommandBufferDeviceMasks-00086,
/// -pWaitSemaphoreDeviceIndices-00082, -pSignalSemaphoreDeviceIndices-00083).
///
/// # Safety
/// `p_next` must be the chain of a valid `VkSubmitInfo`.
pub unsafe fn check_submit(p_next: *const std::ffi::c_void) -> VkResult<()> {
    // SAFETY: forwarded to the caller.
    let Some(g) = (unsafe { chain::find_in::<vk::DeviceGroupSubmitInfo<'_>>(p_next) }) else {
        return Ok(());
    };
    let waits = array(g.p_wait_semaphore_device_indices, g.wait_semaphore_count);
    let signals = array(g.p_signal_semaphore_device_indices, g.signal_semaphore_count);
    let masks = array(g.p_command_buffer_device_masks, g.command_buffer_count);
    if waits.iter().chain(signals).any(|&i| i != 0)
        || masks.iter().any(|&m| m != SINGLE_DEVICE_MASK)
    {
        return Err(VkError::InvalidUsage("device-group submit names a device outside the group"));
    }
    Ok(())
}

/// VUID-VkDeviceGroupCommandBufferBeginInfo-deviceMask-00106/00107: the initial device mask
/// of a command buffer is non-zero and names only devices of the group.
///
/// # Safety
/// `p_next` must be the chain of a valid `VkCommandBufferBeginInfo`.
pub unsafe fn check_begin(p_next: *const std::ffi::c_void) -> VkResult<()> {
    // SAFETY: forwarded to the caller.
    let info = unsafe { chain::find_in::<vk::DeviceGroupCommandBufferBeginInfo<'_>>(p_next) };
    match info {
        Some(i) if i.device_mask != SINGLE_DEVICE_MASK => {
            Err(VkError::InvalidUsage("initial device mask names a device outside the group"))
        }
        _ => Ok(()),
    }
}
