//! DRM_IOCTL_AMDGPU_CS and DRM_IOCTL_AMDGPU_WAIT_CS: parsing chunks into a job.

use std::collections::HashSet;
use std::sync::Arc;

use ferrum_winsys::{uapi, Errno};

use super::ctx::SeqLookup;
use super::fence::{amdgpu_deadline, Fence};
use super::gem::GemObject;
use super::queue::Job;
use super::uaccess::{read_array, read_one};
use super::FileState;

/// What the chunks of one submission ask for.
#[derive(Default)]
struct Parsed {
    ibs: Vec<uapi::DrmAmdgpuCsChunkIb>,
    deps: Vec<Arc<Fence>>,
    /// Syncobjs to signal: (handle, point); point 0 = binary.
    signals: Vec<(u32, u64)>,
    bo_handles: Option<Vec<u32>>,
    user_fence: Option<(Arc<GemObject>, u64)>,
}

impl FileState {
    pub(super) fn cs(&self, arg: &mut uapi::DrmAmdgpuCs) -> Result<i32, Errno> {
        let input = arg.input();
        let ctx = self.context(input.ctx_id)?;
        if ctx.is_guilty() {
            return Err(Errno::ECANCELED);
        }
        if input.bo_list_handle != 0 {
            // Kernel-side BO list objects (DRM_AMDGPU_BO_LIST) are not modelled; drivers pass
            // the list in a BO_HANDLES chunk.
            return Err(Errno::EINVAL);
        }
        // SAFETY: the caller vouches for `chunks` (num_chunks u64 pointers).
        let chunk_ptrs = unsafe { read_array::<u64>(input.chunks, input.num_chunks as usize) }?;
        let mut parsed = Parsed::default();
        for ptr in chunk_ptrs {
            // SAFETY: each pointer designates a drm_amdgpu_cs_chunk (ioctl contract).
            let chunk = unsafe { read_one::<uapi::DrmAmdgpuCsChunk>(ptr) }?;
            self.parse_chunk(&chunk, &mut parsed)?;
        }
        let first = *parsed.ibs.first().ok_or(Errno::EINVAL)?;
        let (ip, ring) = (first.ip_type, first.ring);
        if !matches!(ip, uapi::AMDGPU_HW_IP_GFX | uapi::AMDGPU_HW_IP_COMPUTE)
            || parsed.ibs.iter().any(|ib| (ib.ip_type, ib.ring, ib.ip_instance) != (ip, ring, 0))
            || ring >= if ip == uapi::AMDGPU_HW_IP_GFX { 1 } else { 4 }
        {
            return Err(Errno::EINVAL);
        }
        let mut ibs = Vec::with_capacity(parsed.ibs.len());
        for ib in &parsed.ibs {
            if ib.ib_bytes == 0 || ib.ib_bytes % 4 != 0 || ib.flags & uapi::AMDGPU_IB_FLAG_CE != 0 {
                return Err(Errno::EINVAL);
            }
            ibs.push((ib.va_start, ib.ib_bytes / 4));
        }
        let space = match &parsed.bo_handles {
            Some(handles) => {
                let listed: Vec<Arc<GemObject>> =
                    handles.iter().map(|&h| self.gem(h)).collect::<Result<_, _>>()?;
                let ptrs: HashSet<*const GemObject> = listed.iter().map(Arc::as_ptr).collect();
                Arc::new(self.vm.snapshot().filtered(|g| {
                    ptrs.contains(&Arc::as_ptr(g))
                        || g.flags & uapi::AMDGPU_GEM_CREATE_VM_ALWAYS_VALID != 0
                }))
            }
            None => Arc::new(
                self.vm
                    .snapshot()
                    .filtered(|g| g.flags & uapi::AMDGPU_GEM_CREATE_VM_ALWAYS_VALID != 0),
            ),
        };
        let signals: Vec<_> = parsed
            .signals
            .iter()
            .map(|&(h, p)| self.syncobj(h).map(|o| (o, p)))
            .collect::<Result<_, _>>()?;

        let fence = Fence::new(self.notifier.clone());
        let seq = ctx.push_fence(ip, ring, fence.clone());
        for (obj, point) in signals {
            if point == 0 {
                obj.replace(Some(fence.clone()));
            } else {
                obj.add_point(point, fence.clone());
            }
        }
        {
            let mut in_flight = self.in_flight.lock();
            in_flight.retain(|(f, _)| !f.is_signaled());
            in_flight.push((fence.clone(), space.clone()));
        }
        self.queue.push(Job {
            ctx,
            ctx_id: input.ctx_id,
            ip,
            ring,
            seq,
            ibs,
            deps: parsed.deps,
            fence,
            user_fence: parsed.user_fence,
            space,
            order: 0,
        });
        self.notifier.notify();
        arg.out = uapi::DrmAmdgpuCsOut { handle: seq };
        Ok(0)
    }

    fn parse_chunk(&self, chunk: &uapi::DrmAmdgpuCsChunk, out: &mut Parsed) -> Result<(), Errno> {
        let bytes = chunk.length_dw as usize * 4;
        let data = chunk.chunk_data;
        let count = |size: usize| bytes / size;
        // SAFETY (all reads below): `chunk_data` is valid for `length_dw` dwords (ioctl
        // contract); element counts are derived from that length.
        match chunk.chunk_id {
            uapi::AMDGPU_CHUNK_ID_IB => {
                if bytes < size_of::<uapi::DrmAmdgpuCsChunkIb>() {
                    return Err(Errno::EINVAL);
                }
                // SAFETY: see above.
                out.ibs.push(unsafe { read_one(data) }?);
            }
            uapi::AMDGPU_CHUNK_ID_FENCE => {
                if bytes < size_of::<uapi::DrmAmdgpuCsChunkFence>() {
                    return Err(Errno::EINVAL);
                }
                // SAFETY: see above.
                let f: uapi::DrmAmdgpuCsChunkFence = unsafe { read_one(data) }?;
                let gem = self.gem(f.handle)?;
                if u64::from(f.offset) % 8 != 0 || u64::from(f.offset) + 8 > gem.size {
                    return Err(Errno::EINVAL);
                }
                out.user_fence = Some((gem, u64::from(f.offset)));
            }
            uapi::AMDGPU_CHUNK_ID_DEPENDENCIES | uapi::AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES => {
                let n = count(size_of::<uapi::DrmAmdgpuCsChunkDep>());
                // SAFETY: see above.
                for dep in unsafe { read_array::<uapi::DrmAmdgpuCsChunkDep>(data, n) }? {
                    let ctx = self.context(dep.ctx_id)?;
                    match ctx.fence(dep.ip_type, dep.ring, dep.handle) {
                        SeqLookup::Future => return Err(Errno::EINVAL),
                        SeqLookup::Retired => {}
                        SeqLookup::Pending(f) => out.deps.push(f),
                    }
                }
            }
            uapi::AMDGPU_CHUNK_ID_SYNCOBJ_IN => {
                let n = count(size_of::<uapi::DrmAmdgpuCsChunkSem>());
                // SAFETY: see above.
                for sem in unsafe { read_array::<uapi::DrmAmdgpuCsChunkSem>(data, n) }? {
                    out.deps.push(self.syncobj_dependency(sem.handle, 0, false)?);
                }
            }
            uapi::AMDGPU_CHUNK_ID_SYNCOBJ_OUT => {
                let n = count(size_of::<uapi::DrmAmdgpuCsChunkSem>());
                // SAFETY: see above.
                for sem in unsafe { read_array::<uapi::DrmAmdgpuCsChunkSem>(data, n) }? {
                    out.signals.push((sem.handle, 0));
                }
            }
            uapi::AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT => {
                let n = count(size_of::<uapi::DrmAmdgpuCsChunkSyncobj>());
                // SAFETY: see above.
                for s in unsafe { read_array::<uapi::DrmAmdgpuCsChunkSyncobj>(data, n) }? {
                    let for_submit = s.flags & uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT != 0;
                    out.deps.push(self.syncobj_dependency(s.handle, s.point, for_submit)?);
                }
            }
            uapi::AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL => {
                let n = count(size_of::<uapi::DrmAmdgpuCsChunkSyncobj>());
                // SAFETY: see above.
                for s in unsafe { read_array::<uapi::DrmAmdgpuCsChunkSyncobj>(data, n) }? {
                    out.signals.push((s.handle, s.point));
                }
            }
            uapi::AMDGPU_CHUNK_ID_BO_HANDLES => {
                if bytes < size_of::<uapi::DrmAmdgpuBoListIn>() {
                    return Err(Errno::EINVAL);
                }
                // SAFETY: see above.
                let list: uapi::DrmAmdgpuBoListIn = unsafe { read_one(data) }?;
                let stride = list.bo_info_size as usize;
                if stride < size_of::<uapi::DrmAmdgpuBoListEntry>() {
                    return Err(Errno::EINVAL);
                }
                // Entries may be larger than we know; read them as raw bytes at `stride`.
                let n = list.bo_number as usize;
                let total = n.checked_mul(stride).ok_or(Errno::EINVAL)?;
                // SAFETY: `bo_info_ptr` is valid for `bo_number * bo_info_size` bytes.
                let raw = unsafe { read_array::<u8>(list.bo_info_ptr, total) }?;
                let handles = raw
                    .chunks_exact(stride)
                    .map(|e| u32::from_le_bytes([e[0], e[1], e[2], e[3]]))
                    .collect();
                out.bo_handles = Some(handles);
            }
            _ => return Err(Errno::EINVAL),
        }
        Ok(())
    }

    pub(super) fn wait_cs(&self, arg: &mut uapi::DrmAmdgpuWaitCs) -> Result<i32, Errno> {
        let input = arg.input();
        let ctx = self.context(input.ctx_id)?;
        let busy = match ctx.fence(input.ip_type, input.ring, input.handle) {
            SeqLookup::Future => return Err(Errno::EINVAL),
            SeqLookup::Retired => false,
            SeqLookup::Pending(f) => {
                if !f.wait(amdgpu_deadline(input.timeout)) {
                    true
                } else if let Some(err) = f.error() {
                    return Err(err);
                } else {
                    false
                }
            }
        };
        arg.out = uapi::DrmAmdgpuWaitCsOut { status: u64::from(busy) };
        Ok(0)
    }
}
