//! Walking `pNext` chains.
//!
//! Input chains are read-only and may contain structures Ferrum does not know (the spec lets
//! implementations skip those); output chains are written in place, one known structure at a
//! time, keeping the application's `sType`/`pNext` links untouched.

use std::ffi::c_void;

use ash::vk::{self, TaggedStructure};

/// Iterates over the structures of an input chain.
///
/// # Safety
/// `p_next` must be null or the head of a valid Vulkan structure chain that outlives the
/// iteration.
pub unsafe fn iter_in(
    p_next: *const c_void,
) -> impl Iterator<Item = *const vk::BaseInStructure<'static>> {
    let mut cur = p_next as *const vk::BaseInStructure<'static>;
    std::iter::from_fn(move || {
        if cur.is_null() {
            return None;
        }
        let item = cur;
        // SAFETY: the caller guarantees every link of the chain is a valid structure.
        cur = unsafe { (*cur).p_next };
        Some(item)
    })
}

/// Iterates over the structures of an output chain.
///
/// # Safety
/// As for [`iter_in`]; the structures must also be writable.
pub unsafe fn iter_out(
    p_next: *mut c_void,
) -> impl Iterator<Item = *mut vk::BaseOutStructure<'static>> {
    let mut cur = p_next as *mut vk::BaseOutStructure<'static>;
    std::iter::from_fn(move || {
        if cur.is_null() {
            return None;
        }
        let item = cur;
        // SAFETY: the caller guarantees every link of the chain is a valid structure.
        cur = unsafe { (*cur).p_next };
        Some(item)
    })
}

/// The first structure of type `T` in an input chain.
///
/// # Safety
/// As for [`iter_in`].
pub unsafe fn find_in<'a, T: TaggedStructure>(p_next: *const c_void) -> Option<&'a T> {
    // SAFETY: forwarded to the caller; a matching sType identifies the structure's type.
    unsafe { iter_in(p_next) }
        .find(|&s| unsafe { (*s).s_type } == T::STRUCTURE_TYPE)
        .map(|s| unsafe { &*(s as *const T) })
}

/// Overwrites the body of an output structure with `value`, keeping its `sType` and `pNext`.
///
/// # Safety
/// `dst` must point to a writable structure of type `T` (its `sType` says so).
pub unsafe fn write_body<T: TaggedStructure + Copy>(
    dst: *mut vk::BaseOutStructure<'static>,
    value: T,
) {
    let dst = dst as *mut T;
    // SAFETY: the caller guarantees `dst` is a `T`; the header is restored right after.
    unsafe {
        let next = (*(dst as *mut vk::BaseOutStructure<'static>)).p_next;
        dst.write(value);
        let hdr = dst as *mut vk::BaseOutStructure<'static>;
        (*hdr).s_type = T::STRUCTURE_TYPE;
        (*hdr).p_next = next;
    }
}

/// A slice from a Vulkan array pointer and count (empty for a zero count or a null pointer).
///
/// # Safety
/// A non-null `ptr` must point to `count` valid elements that outlive the slice.
pub unsafe fn raw_slice<'a, T>(ptr: *const T, count: u32) -> &'a [T] {
    if count == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: forwarded to the caller.
    unsafe { std::slice::from_raw_parts(ptr, count as usize) }
}
