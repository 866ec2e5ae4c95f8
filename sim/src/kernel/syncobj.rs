//! DRM sync objects, binary and timeline, and their ioctls.
//!
//! A syncobj holds a list of `(point, fence)` links in point order, like the kernel's
//! dma_fence_chain: a binary syncobj has at most one link at point 0. "Point p is signaled"
//! means the first link at or after p, and every link before it, are signaled.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use ferrum_winsys::{uapi, Errno};
use parking_lot::Mutex;

use super::fence::{syncobj_deadline, Fence, Notifier};
use super::uaccess::{read_array, write_array};
use super::FileState;

#[derive(Debug, Default)]
pub struct Syncobj {
    links: Mutex<Vec<(u64, Arc<Fence>)>>,
}

impl Syncobj {
    /// Replaces the content by one fence (binary signal, CS out-fence, transfer to point 0).
    pub fn replace(&self, fence: Option<Arc<Fence>>) {
        *self.links.lock() = fence.map(|f| vec![(0, f)]).unwrap_or_default();
    }

    /// Adds a timeline point backed by `fence`.
    pub fn add_point(&self, point: u64, fence: Arc<Fence>) {
        let mut links = self.links.lock();
        let at = links.partition_point(|(p, _)| *p <= point);
        if at < links.len() {
            log::warn!(
                "syncobj point {point} added below the last point {}",
                links[links.len() - 1].0
            );
        }
        links.insert(at, (point, fence));
    }

    /// The fence standing for `point` (0 = the whole current content), or `None` if that point
    /// has not been submitted yet.
    pub fn fence_for(&self, notifier: &Arc<Notifier>, point: u64) -> Option<Arc<Fence>> {
        let links = self.links.lock();
        let last = if point == 0 {
            // Point 0 means the object's whole current content.
            links.len().checked_sub(1)?
        } else {
            links.iter().position(|(p, _)| *p >= point)?
        };
        let parts = links[..=last].iter().map(|(_, f)| f.clone()).collect();
        Some(Fence::all(notifier.clone(), parts))
    }

    /// Highest point such that it and every earlier point are signaled (0 for binary).
    pub fn signaled_point(&self) -> u64 {
        let links = self.links.lock();
        let mut value = 0;
        for (p, f) in links.iter() {
            if !f.is_signaled() {
                break;
            }
            value = *p;
        }
        value
    }

    /// The last point submitted.
    pub fn last_point(&self) -> u64 {
        self.links.lock().last().map_or(0, |(p, _)| *p)
    }
}

#[derive(Debug, Default)]
pub(super) struct SyncobjTable {
    next: u32,
    objects: HashMap<u32, Arc<Syncobj>>,
}

/// One element of a wait: which object and point, and what counts as done.
struct Waiter {
    obj: Arc<Syncobj>,
    point: u64,
}

impl FileState {
    pub(crate) fn syncobj(&self, handle: u32) -> Result<Arc<Syncobj>, Errno> {
        self.syncobjs.lock().objects.get(&handle).cloned().ok_or(Errno::ENOENT)
    }

    fn syncobjs_of(&self, handles: &[u32]) -> Result<Vec<Arc<Syncobj>>, Errno> {
        handles.iter().map(|&h| self.syncobj(h)).collect()
    }

    pub(super) fn syncobj_create(&self, arg: &mut uapi::DrmSyncobjCreate) -> Result<i32, Errno> {
        if arg.flags & !uapi::DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
            return Err(Errno::EINVAL);
        }
        let obj = Syncobj::default();
        if arg.flags & uapi::DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
            obj.replace(Some(Fence::signaled(self.notifier.clone())));
        }
        arg.handle = self.insert_syncobj(Arc::new(obj));
        Ok(0)
    }

    /// Gives `obj` a new handle in this file.
    pub(super) fn insert_syncobj(&self, obj: Arc<Syncobj>) -> u32 {
        let mut table = self.syncobjs.lock();
        table.next += 1;
        let handle = table.next;
        table.objects.insert(handle, obj);
        handle
    }

    pub(super) fn syncobj_destroy(&self, arg: &mut uapi::DrmSyncobjDestroy) -> Result<i32, Errno> {
        self.syncobjs.lock().objects.remove(&arg.handle).map(|_| 0).ok_or(Errno::EINVAL)
    }

    pub(super) fn syncobj_reset(&self, arg: &mut uapi::DrmSyncobjArray) -> Result<i32, Errno> {
        // SAFETY: the caller vouches for `handles` (ioctl contract).
        let handles = unsafe { read_array::<u32>(arg.handles, arg.count_handles as usize) }?;
        for obj in self.syncobjs_of(&handles)? {
            obj.replace(None);
        }
        self.notifier.notify();
        Ok(0)
    }

    pub(super) fn syncobj_signal(&self, arg: &mut uapi::DrmSyncobjArray) -> Result<i32, Errno> {
        // SAFETY: the caller vouches for `handles`.
        let handles = unsafe { read_array::<u32>(arg.handles, arg.count_handles as usize) }?;
        for obj in self.syncobjs_of(&handles)? {
            obj.replace(Some(Fence::signaled(self.notifier.clone())));
        }
        self.notifier.notify();
        Ok(0)
    }

    pub(super) fn syncobj_timeline_signal(
        &self,
        arg: &mut uapi::DrmSyncobjTimelineArray,
    ) -> Result<i32, Errno> {
        let n = arg.count_handles as usize;
        // SAFETY: the caller vouches for `handles` and `points`.
        let (handles, points) =
            unsafe { (read_array::<u32>(arg.handles, n)?, read_array::<u64>(arg.points, n)?) };
        for (obj, point) in self.syncobjs_of(&handles)?.into_iter().zip(points) {
            let stub = Fence::signaled(self.notifier.clone());
            if point == 0 {
                obj.replace(Some(stub));
            } else {
                obj.add_point(point, stub);
            }
        }
        self.notifier.notify();
        Ok(0)
    }

    pub(super) fn syncobj_query(
        &self,
        arg: &mut uapi::DrmSyncobjTimelineArray,
    ) -> Result<i32, Errno> {
        let n = arg.count_handles as usize;
        // SAFETY: the caller vouches for `handles`.
        let handles = unsafe { read_array::<u32>(arg.handles, n) }?;
        let last = arg.flags & uapi::DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED != 0;
        let values: Vec<u64> = self
            .syncobjs_of(&handles)?
            .iter()
            .map(|o| if last { o.last_point() } else { o.signaled_point() })
            .collect();
        // SAFETY: the caller vouches for `points` (one u64 per handle).
        unsafe { write_array(arg.points, &values) }?;
        Ok(0)
    }

    pub(super) fn syncobj_transfer(
        &self,
        arg: &mut uapi::DrmSyncobjTransfer,
    ) -> Result<i32, Errno> {
        let src = self.syncobj(arg.src_handle)?;
        let dst = self.syncobj(arg.dst_handle)?;
        let fence = src.fence_for(&self.notifier, arg.src_point).ok_or(Errno::EINVAL)?;
        if arg.dst_point == 0 {
            dst.replace(Some(fence));
        } else {
            dst.add_point(arg.dst_point, fence);
        }
        self.notifier.notify();
        Ok(0)
    }

    pub(super) fn syncobj_wait(&self, arg: &mut uapi::DrmSyncobjWait) -> Result<i32, Errno> {
        let n = arg.count_handles as usize;
        // SAFETY: the caller vouches for `handles`.
        let handles = unsafe { read_array::<u32>(arg.handles, n) }?;
        let first = self.wait_points(&handles, &vec![0; n], arg.flags, arg.timeout_nsec)?;
        arg.first_signaled = first;
        Ok(0)
    }

    pub(super) fn syncobj_timeline_wait(
        &self,
        arg: &mut uapi::DrmSyncobjTimelineWait,
    ) -> Result<i32, Errno> {
        let n = arg.count_handles as usize;
        // SAFETY: the caller vouches for `handles` and `points`.
        let (handles, points) =
            unsafe { (read_array::<u32>(arg.handles, n)?, read_array::<u64>(arg.points, n)?) };
        let first = self.wait_points(&handles, &points, arg.flags, arg.timeout_nsec)?;
        arg.first_signaled = first;
        Ok(0)
    }

    /// The common wait: returns the index of the first signaled entry (for wait-any).
    fn wait_points(
        &self,
        handles: &[u32],
        points: &[u64],
        flags: u32,
        timeout: i64,
    ) -> Result<u32, Errno> {
        let valid = uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL
            | uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT
            | uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
        if flags & !valid != 0 || handles.is_empty() {
            return Err(Errno::EINVAL);
        }
        let wait_all = flags & uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL != 0;
        let for_submit = flags & uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT != 0;
        let available_only = flags & uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE != 0;
        let waiters: Vec<Waiter> = self
            .syncobjs_of(handles)?
            .into_iter()
            .zip(points)
            .map(|(obj, &point)| Waiter { obj, point })
            .collect();
        // Without WAIT_FOR_SUBMIT every point must already have a fence.
        if !for_submit && waiters.iter().any(|w| w.obj.fence_for(&self.notifier, w.point).is_none())
        {
            return Err(Errno::EINVAL);
        }
        let done = |w: &Waiter| match w.obj.fence_for(&self.notifier, w.point) {
            None => false,
            Some(_) if available_only => true,
            Some(f) => f.is_signaled(),
        };
        let deadline: Option<Instant> = syncobj_deadline(timeout);
        let mut first = 0u32;
        let ok = self.notifier.wait_until(deadline, || {
            if wait_all {
                waiters.iter().all(done)
            } else if let Some(i) = waiters.iter().position(done) {
                first = i as u32;
                true
            } else {
                false
            }
        });
        if ok {
            Ok(first)
        } else {
            Err(Errno::ETIME)
        }
    }

    /// The fence a command submission waits on for `(handle, point)`; with `wait_for_submit`,
    /// blocks (up to 10 s, as amdgpu does) until the point has been submitted.
    pub(super) fn syncobj_dependency(
        &self,
        handle: u32,
        point: u64,
        wait_for_submit: bool,
    ) -> Result<Arc<Fence>, Errno> {
        let obj = self.syncobj(handle)?;
        if let Some(f) = obj.fence_for(&self.notifier, point) {
            return Ok(f);
        }
        if !wait_for_submit {
            return Err(Errno::EINVAL);
        }
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        self.notifier.wait_until(Some(deadline), || obj.fence_for(&self.notifier, point).is_some());
        obj.fence_for(&self.notifier, point).ok_or(Errno::ETIME)
    }
}
