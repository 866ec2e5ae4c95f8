//! The base every Vulkan object starts with, and handle <-> object conversion.
//!
//! A handle is the address of a boxed object. Every object is `#[repr(C)]` with an
//! [`ObjectBase`] as its first field: the first word is the loader's dispatch slot (the loader
//! requires it in dispatchable objects; non-dispatchable ones carry it too so that all objects
//! share one layout), the second is a type tag. Handle casts check the tag in debug builds,
//! which turns a handle passed to the wrong command into an immediate, caught panic instead of
//! silent memory corruption.
//!
//! An object's storage comes from the host memory its creation names (the application's
//! `VkAllocationCallbacks`, see [`HostMemory`]): [`VkObject::into_handle_in`] places it there
//! and records the source in the base, and [`VkObject::take_handle`] gives it back there. A new
//! object type honours `pAllocator` by being created through `into_handle_in`.

use std::alloc::Layout;
use std::ptr::NonNull;

use ash::vk::{self, Handle};

use crate::core::host_memory::HostMemory;
use crate::error::VkResult;

/// What the loader expects in the dispatch slot of a freshly created dispatchable object
/// (`ICD_LOADER_MAGIC` in the loader's `vk_icd.h`).
pub const ICD_LOADER_MAGIC: usize = 0x01CD_C0DE;

/// The header at offset 0 of every Ferrum Vulkan object.
#[repr(C)]
#[derive(Debug)]
pub struct ObjectBase {
    /// Owned by the loader after creation: it stores its dispatch table pointer here.
    loader_data: usize,
    tag: vk::ObjectType,
    /// Where the object's own storage came from (set when it gets its handle).
    host: HostMemory,
}

impl ObjectBase {
    pub fn new(tag: vk::ObjectType) -> Self {
        ObjectBase { loader_data: ICD_LOADER_MAGIC, tag, host: HostMemory::SYSTEM }
    }

    /// The host memory the object lives in; its children default to it.
    pub fn host(&self) -> HostMemory {
        self.host
    }

    pub fn tag(&self) -> vk::ObjectType {
        self.tag
    }

    pub fn loader_data(&self) -> usize {
        self.loader_data
    }
}

/// A Rust type that backs a Vulkan handle type.
///
/// # Safety
/// The implementing type must be `#[repr(C)]` with an [`ObjectBase`] as its first field, and
/// `base()` must return that field.
pub unsafe trait VkObject: Sized {
    const TYPE: vk::ObjectType;
    type Handle: Handle + Copy;

    fn base(&self) -> &ObjectBase;
    fn base_mut(&mut self) -> &mut ObjectBase;

    /// Moves the object to Rust's heap and returns its handle.
    fn into_handle(self: Box<Self>) -> Self::Handle {
        debug_assert_eq!(self.base().tag, Self::TYPE);
        Self::Handle::from_raw(Box::into_raw(self) as u64)
    }

    /// Moves the object into memory from `host` (with the allocation scope of its type) and
    /// returns its handle; `Err(OutOfHostMemory)` drops the object, releasing what it holds.
    fn into_handle_in(mut self, host: HostMemory) -> VkResult<Self::Handle> {
        debug_assert_eq!(self.base().tag, Self::TYPE);
        let ptr = host.alloc(Layout::new::<Self>(), scope_of(Self::TYPE))?.cast::<Self>();
        self.base_mut().host = host;
        // SAFETY: fresh memory with the size and alignment of `Self`.
        unsafe { ptr.as_ptr().write(self) };
        Ok(Self::Handle::from_raw(ptr.as_ptr() as u64))
    }

    /// Borrows the object behind a handle; `None` for a null handle.
    ///
    /// # Safety
    /// `handle` must be null or a live handle returned by `into_handle` of this type, and the
    /// object must outlive the returned reference (the application's duty under Vulkan's
    /// object lifetime rules).
    unsafe fn from_handle<'a>(handle: Self::Handle) -> Option<&'a Self> {
        let ptr = handle.as_raw() as usize as *const Self;
        if ptr.is_null() {
            return None;
        }
        // SAFETY: every Ferrum object starts with an ObjectBase; the caller guarantees a live
        // object, and the tag is checked before a reference of the claimed type is made.
        unsafe { check_tag::<Self>(ptr.cast()) };
        // SAFETY: the caller guarantees a live object of this type.
        Some(unsafe { &*ptr })
    }

    /// Takes ownership back from a handle (for destruction, when the result drops); `None`
    /// for a null handle.
    ///
    /// # Safety
    /// As for [`VkObject::from_handle`], and no reference to the object may be used afterwards.
    unsafe fn take_handle(handle: Self::Handle) -> Option<Owned<Self>> {
        let ptr = NonNull::new(handle.as_raw() as usize as *mut Self)?;
        // SAFETY: as in `from_handle`; checked before ownership is taken, so a wrong handle
        // type panics without freeing anything.
        unsafe { check_tag::<Self>(ptr.as_ptr().cast()) };
        Some(Owned(ptr))
    }
}

/// The allocation scope of an object's own storage (Vulkan 11.1: instances and devices use
/// their own scopes, everything else `OBJECT`).
fn scope_of(ty: vk::ObjectType) -> vk::SystemAllocationScope {
    match ty {
        vk::ObjectType::INSTANCE => vk::SystemAllocationScope::INSTANCE,
        vk::ObjectType::DEVICE => vk::SystemAllocationScope::DEVICE,
        _ => vk::SystemAllocationScope::OBJECT,
    }
}

/// An object taken back from its handle; dropping it destroys the object and frees its
/// storage where it came from.
pub struct Owned<T: VkObject>(NonNull<T>);

impl<T: VkObject> std::ops::Deref for Owned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: a live object owned by this value.
        unsafe { self.0.as_ref() }
    }
}

impl<T: VkObject> std::ops::DerefMut for Owned<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: a live object owned exclusively by this value.
        unsafe { self.0.as_mut() }
    }
}

impl<T: VkObject> Drop for Owned<T> {
    fn drop(&mut self) {
        let host = self.base().host;
        // SAFETY: the object is live and owned here; it is dropped once, then its storage is
        // freed where `into_handle` (Rust's heap, like a Box) or `into_handle_in` put it.
        unsafe {
            std::ptr::drop_in_place(self.0.as_ptr());
            host.free(self.0.cast(), Layout::new::<T>());
        }
    }
}

/// Debug builds: panics (caught at the entry point) if the object at `ptr` is not a `T`.
///
/// # Safety
/// `ptr` must point to a live Ferrum object (any type).
unsafe fn check_tag<T: VkObject>(ptr: *const ObjectBase) {
    if cfg!(debug_assertions) {
        // SAFETY: every Ferrum object begins with an ObjectBase.
        let tag = unsafe { (*ptr).tag };
        assert_eq!(
            tag,
            T::TYPE,
            "handle of type {tag:?} passed where a {:?} was expected",
            T::TYPE
        );
    }
}

/// Implements [`VkObject`] for a `#[repr(C)]` struct whose first field is `base: ObjectBase`.
macro_rules! vk_object {
    ($ty:ty, $handle:ty, $tag:expr) => {
        // SAFETY: the macro is only used on `#[repr(C)]` types with `base` as first field.
        unsafe impl $crate::core::object::VkObject for $ty {
            const TYPE: ash::vk::ObjectType = $tag;
            type Handle = $handle;
            fn base(&self) -> &$crate::core::object::ObjectBase {
                &self.base
            }
            fn base_mut(&mut self) -> &mut $crate::core::object::ObjectBase {
                &mut self.base
            }
        }
    };
}
pub(crate) use vk_object;

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Probe {
        base: ObjectBase,
        value: u32,
    }
    vk_object!(Probe, vk::Device, vk::ObjectType::DEVICE);

    #[test]
    fn handle_round_trip_keeps_magic_first() {
        let h = Box::new(Probe { base: ObjectBase::new(Probe::TYPE), value: 5 }).into_handle();
        // SAFETY: the loader reads the first word of a dispatchable object like this.
        let first = unsafe { *(h.as_raw() as usize as *const usize) };
        assert_eq!(first, ICD_LOADER_MAGIC);
        // SAFETY: `h` is live and of type Probe.
        assert_eq!(unsafe { Probe::from_handle(h) }.map(|p| p.value), Some(5));
        // SAFETY: as above; destroyed exactly once.
        assert!(unsafe { Probe::take_handle(h) }.is_some());
        // SAFETY: null is always accepted.
        assert!(unsafe { Probe::from_handle(vk::Device::null()) }.is_none());
    }

    #[test]
    fn objects_live_in_the_callbacks_memory_and_go_back_there() {
        use crate::core::host_memory::tests::Recorder;
        let rec = Recorder::with_budget(1);
        let cb = rec.callbacks();
        // SAFETY: valid callbacks that outlive the objects below.
        let host = unsafe { HostMemory::from_ptr(&cb, HostMemory::SYSTEM) };
        let probe = || Probe { base: ObjectBase::new(Probe::TYPE), value: 9 };
        let h = probe().into_handle_in(host).unwrap();
        let live = rec.live.lock().unwrap().clone();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].0 as u64, h.as_raw());
        assert_eq!(live[0].1, Layout::new::<Probe>());
        assert_eq!(live[0].2, vk::SystemAllocationScope::DEVICE);
        // The budget is spent: the next object is refused and nothing leaks.
        assert!(probe().into_handle_in(host).is_err());
        // SAFETY: `h` is live and destroyed once.
        let owned = unsafe { Probe::take_handle(h) }.unwrap();
        assert_eq!(owned.value, 9);
        drop(owned);
        assert_eq!(rec.live(), 0);
    }
}
