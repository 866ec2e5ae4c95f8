//! The two-call idiom for returning arrays (`pCount` + optional `pProperties`).

use ash::vk;

use super::output;
use crate::error::VkResult;

/// Reports `len` items: their count when `out` is null, otherwise writes up to `*count` of them
/// with `write(slot, index)` and returns `VK_INCOMPLETE` if not all fit.
///
/// # Safety
/// `count` must be a valid pointer; a non-null `out` must hold `*count` writable `T`s.
pub unsafe fn write_with<T>(
    count: *mut u32,
    out: *mut T,
    len: usize,
    mut write: impl FnMut(&mut T, usize),
) -> VkResult<vk::Result> {
    // SAFETY: forwarded to the caller.
    let count = unsafe { output(count)? };
    if out.is_null() {
        *count = len as u32;
        return Ok(vk::Result::SUCCESS);
    }
    let n = (*count as usize).min(len);
    for i in 0..n {
        // SAFETY: `out` has room for `*count >= n` elements.
        write(unsafe { &mut *out.add(i) }, i);
    }
    *count = n as u32;
    Ok(if n < len { vk::Result::INCOMPLETE } else { vk::Result::SUCCESS })
}

/// [`write_with`] for plain values.
///
/// # Safety
/// As for [`write_with`].
pub unsafe fn write_all<T: Copy>(
    count: *mut u32,
    out: *mut T,
    items: &[T],
) -> VkResult<vk::Result> {
    // SAFETY: forwarded to the caller.
    unsafe { write_with(count, out, items.len(), |slot, i| *slot = items[i]) }
}

/// Extension properties for a list of `(name, spec version)`.
pub fn extension_properties(list: &[(&std::ffi::CStr, u32)]) -> Vec<vk::ExtensionProperties> {
    list.iter()
        .map(|(name, version)| {
            let mut p = vk::ExtensionProperties { spec_version: *version, ..Default::default() };
            for (dst, &b) in p.extension_name.iter_mut().zip(name.to_bytes()) {
                *dst = b as std::ffi::c_char;
            }
            p
        })
        .collect()
}
