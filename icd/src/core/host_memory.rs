//! Host memory for Vulkan objects: the application's `VkAllocationCallbacks`, or Rust's
//! allocator when it gives none.
//!
//! The storage of every object (the struct behind its handle) comes from here, with the
//! allocation scope its type implies (instance, device or object) and the type's alignment;
//! a failing callback becomes `VK_ERROR_OUT_OF_HOST_MEMORY`. As in Mesa's `vk_alloc2`, an
//! object created without callbacks uses its device's (or instance's), and it is freed with
//! the callbacks it was allocated from, which the spec requires the destroy call to match.
//!
//! Allocations an object makes internally (vectors, compiler data, the simulator's state) go
//! to Rust's allocator: routing them through the callbacks would need an allocator-aware
//! collection type everywhere, and Rust aborts instead of returning an error when such an
//! allocation fails. Ferrum never resizes an allocation made through the callbacks, so
//! `pfnReallocation` is not called.

use std::alloc::Layout;
use std::ffi::c_void;
use std::ptr::NonNull;

use ash::vk;

use crate::error::{VkError, VkResult};

/// Where an object's host memory comes from.
#[derive(Clone, Copy, Default)]
pub struct HostMemory {
    callbacks: Option<vk::AllocationCallbacks<'static>>,
}

// SAFETY: the callbacks are plain function pointers and an opaque user pointer; the spec
// lets the implementation call them from any thread that uses the objects (11.1, "the
// application must ensure the callbacks are thread-safe" for externally synchronized use).
unsafe impl Send for HostMemory {}
// SAFETY: as above; `HostMemory` is never mutated after creation.
unsafe impl Sync for HostMemory {}

impl std::fmt::Debug for HostMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.callbacks.is_some() {
            "HostMemory(callbacks)"
        } else {
            "HostMemory(system)"
        })
    }
}

impl HostMemory {
    /// Rust's global allocator.
    pub const SYSTEM: HostMemory = HostMemory { callbacks: None };

    /// The callbacks an entry point was given, or `parent` when `p_allocator` is null.
    ///
    /// # Safety
    /// A non-null `p_allocator` must point to valid callbacks that stay callable for as long
    /// as memory allocated from them lives (the spec's rule for `pAllocator`).
    pub unsafe fn from_ptr(p_allocator: *const vk::AllocationCallbacks<'_>, parent: Self) -> Self {
        // SAFETY: guaranteed by the caller.
        match unsafe { p_allocator.as_ref() } {
            Some(cb) => {
                let cb = vk::AllocationCallbacks {
                    p_user_data: cb.p_user_data,
                    pfn_allocation: cb.pfn_allocation,
                    pfn_reallocation: cb.pfn_reallocation,
                    pfn_free: cb.pfn_free,
                    pfn_internal_allocation: cb.pfn_internal_allocation,
                    pfn_internal_free: cb.pfn_internal_free,
                    _marker: std::marker::PhantomData,
                };
                HostMemory { callbacks: Some(cb) }
            }
            None => parent,
        }
    }

    pub fn is_system(&self) -> bool {
        self.callbacks.is_none()
    }

    /// Allocates `layout` bytes; `Err(OutOfHostMemory)` when the callback (or the system)
    /// refuses.
    pub fn alloc(&self, layout: Layout, scope: vk::SystemAllocationScope) -> VkResult<NonNull<u8>> {
        let ptr = match self.callbacks.as_ref() {
            None => {
                // SAFETY: every object layout has a non-zero size (it holds an ObjectBase).
                unsafe { std::alloc::alloc(layout) }
            }
            Some(cb) => {
                let alloc = cb.pfn_allocation.ok_or(VkError::InvalidUsage("null pfnAllocation"))?;
                // SAFETY: the application's callback, with the arguments the spec defines.
                unsafe { alloc(cb.p_user_data, layout.size(), layout.align(), scope) }.cast()
            }
        };
        let ptr = NonNull::new(ptr).ok_or(VkError::OutOfHostMemory)?;
        if ptr.as_ptr() as usize % layout.align() != 0 {
            // VUID-PFN_vkAllocationFunction: the returned memory must be aligned as asked.
            // SAFETY: freeing what was just allocated from the same source.
            unsafe { self.free(ptr, layout) };
            return Err(VkError::InvalidUsage("pfnAllocation returned misaligned memory"));
        }
        Ok(ptr)
    }

    /// Frees memory from [`HostMemory::alloc`].
    ///
    /// # Safety
    /// `ptr` must come from `alloc` of this `HostMemory` with the same `layout`, once.
    pub unsafe fn free(&self, ptr: NonNull<u8>, layout: Layout) {
        match self.callbacks.as_ref() {
            // SAFETY: allocated by the global allocator with this layout.
            None => unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) },
            Some(cb) => {
                if let Some(free) = cb.pfn_free {
                    // SAFETY: the application's callback on memory it allocated.
                    unsafe { free(cb.p_user_data, ptr.as_ptr().cast::<c_void>()) };
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// Callbacks that record live allocations and fail after `budget` successes, like the
    /// conformance suite's DeterministicFailAllocator.
    #[derive(Default)]
    pub struct Recorder {
        pub budget: AtomicUsize,
        pub live: Mutex<Vec<(usize, Layout, vk::SystemAllocationScope)>>,
        pub calls: AtomicUsize,
    }

    unsafe extern "system" fn rec_alloc(
        user: *mut c_void,
        size: usize,
        align: usize,
        scope: vk::SystemAllocationScope,
    ) -> *mut c_void {
        // SAFETY: the user pointer is the test's Recorder.
        let rec = unsafe { &*(user as *const Recorder) };
        rec.calls.fetch_add(1, Ordering::SeqCst);
        if rec
            .budget
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |b| b.checked_sub(1))
            .is_err()
        {
            return std::ptr::null_mut();
        }
        let layout = Layout::from_size_align(size, align).unwrap();
        // SAFETY: a non-zero size.
        let p = unsafe { std::alloc::alloc(layout) };
        rec.live.lock().unwrap().push((p as usize, layout, scope));
        p.cast()
    }

    unsafe extern "system" fn rec_free(user: *mut c_void, p: *mut c_void) {
        if p.is_null() {
            return;
        }
        // SAFETY: the user pointer is the test's Recorder.
        let rec = unsafe { &*(user as *const Recorder) };
        let mut live = rec.live.lock().unwrap();
        let i = live.iter().position(|&(q, _, _)| q == p as usize).expect("freeing unknown memory");
        let (_, layout, _) = live.swap_remove(i);
        // SAFETY: allocated above with this layout.
        unsafe { std::alloc::dealloc(p.cast(), layout) };
    }

    impl Recorder {
        pub fn with_budget(budget: usize) -> Box<Self> {
            Box::new(Recorder { budget: AtomicUsize::new(budget), ..Default::default() })
        }

        pub fn callbacks(&self) -> vk::AllocationCallbacks<'static> {
            vk::AllocationCallbacks {
                p_user_data: self as *const Self as *mut c_void,
                pfn_allocation: Some(rec_alloc),
                pfn_free: Some(rec_free),
                ..Default::default()
            }
        }

        pub fn live(&self) -> usize {
            self.live.lock().unwrap().len()
        }
    }

    #[test]
    fn callbacks_get_size_alignment_and_scope_and_failure_is_an_error() {
        let rec = Recorder::with_budget(1);
        let cb = rec.callbacks();
        // SAFETY: valid callbacks that outlive every allocation below.
        let host = unsafe { HostMemory::from_ptr(&cb, HostMemory::SYSTEM) };
        let layout = Layout::from_size_align(48, 16).unwrap();
        let p = host.alloc(layout, vk::SystemAllocationScope::DEVICE).unwrap();
        assert_eq!(p.as_ptr() as usize % 16, 0);
        assert_eq!(rec.live.lock().unwrap()[0].1, layout);
        assert_eq!(rec.live.lock().unwrap()[0].2, vk::SystemAllocationScope::DEVICE);
        let err = host.alloc(layout, vk::SystemAllocationScope::OBJECT).unwrap_err();
        assert!(matches!(err, VkError::OutOfHostMemory));
        // SAFETY: allocated above from `host` with `layout`.
        unsafe { host.free(p, layout) };
        assert_eq!(rec.live(), 0);
    }

    #[test]
    fn null_callbacks_fall_back_to_the_parent() {
        let rec = Recorder::with_budget(0);
        let cb = rec.callbacks();
        // SAFETY: valid callbacks.
        let parent = unsafe { HostMemory::from_ptr(&cb, HostMemory::SYSTEM) };
        // SAFETY: null is always accepted.
        let child = unsafe { HostMemory::from_ptr(std::ptr::null(), parent) };
        assert!(!child.is_system());
        // SAFETY: as above.
        assert!(unsafe { HostMemory::from_ptr(std::ptr::null(), HostMemory::SYSTEM) }.is_system());
    }
}
