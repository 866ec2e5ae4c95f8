//! Command submission: one CS ioctl with IB, BO list, fence and syncobj chunks.

use std::time::Duration;

use crate::bo::Bo;
use crate::ctx::Context;
use crate::error::{Error, LostReason, Result};
use crate::kernel::Errno;
use crate::syncobj::SyncPoint;
use crate::uapi;

/// The hardware queue type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ip {
    Gfx,
    Compute,
}

impl Ip {
    pub fn raw(self) -> u32 {
        match self {
            Ip::Gfx => uapi::AMDGPU_HW_IP_GFX,
            Ip::Compute => uapi::AMDGPU_HW_IP_COMPUTE,
        }
    }
}

/// One indirect buffer of PM4 in GPU memory.
#[derive(Debug, Clone, Copy)]
pub struct Ib {
    pub va: u64,
    pub size_dw: u32,
    /// `AMDGPU_IB_FLAG_*`.
    pub flags: u32,
}

/// A submitted job, for waiting on or depending on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsFence {
    pub ctx_id: u32,
    pub ip: Ip,
    pub ring: u32,
    pub seq: u64,
}

/// Everything one submission carries.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    pub ip: Ip,
    pub ring: u32,
    pub ibs: &'a [Ib],
    /// Handles of every BO the GPU touches (except `VM_ALWAYS_VALID` ones).
    pub bo_handles: &'a [u32],
    /// Syncobj points to wait for (point 0 = binary); unsubmitted points are waited for.
    pub waits: &'a [SyncPoint<'a>],
    /// Syncobj points to signal on completion.
    pub signals: &'a [SyncPoint<'a>],
    /// Earlier submissions to wait for.
    pub after: &'a [CsFence],
    /// BO and byte offset where the kernel writes the 64-bit sequence number on completion.
    pub user_fence: Option<(&'a Bo, u32)>,
}

impl<'a> Submission<'a> {
    /// A submission of `ibs` with nothing else attached.
    pub fn new(ip: Ip, ibs: &'a [Ib], bo_handles: &'a [u32]) -> Self {
        Submission {
            ip,
            ring: 0,
            ibs,
            bo_handles,
            waits: &[],
            signals: &[],
            after: &[],
            user_fence: None,
        }
    }
}

fn chunk<T>(id: u32, data: &[T]) -> uapi::DrmAmdgpuCsChunk {
    uapi::DrmAmdgpuCsChunk {
        chunk_id: id,
        length_dw: (core::mem::size_of_val(data) / 4) as u32,
        chunk_data: data.as_ptr() as u64,
    }
}

impl Context {
    /// Why this context is lost, after the kernel refused or failed its work.
    fn lost_reason(&self) -> LostReason {
        self.query_state().ok().and_then(|s| s.lost()).unwrap_or(LostReason::Unknown)
    }

    fn submit_error(&self, op: &'static str, errno: Errno) -> Error {
        match errno {
            Errno::ECANCELED | Errno::ENODATA | Errno::ETIME => {
                Error::ContextLost(self.lost_reason())
            }
            _ => Error::ioctl(op, errno),
        }
    }

    /// Submits work; returns the fence of the job.
    pub fn submit(&self, s: &Submission<'_>) -> Result<CsFence> {
        if s.ibs.is_empty() {
            return Err(Error::InvalidArgument("a submission needs at least one IB"));
        }
        let dev = self.device();
        let timeline = dev.info().has_timeline_syncobj;
        if !timeline && s.waits.iter().chain(s.signals).any(|p| p.point != 0) {
            return Err(Error::InvalidArgument("timeline points need DRM_CAP_SYNCOBJ_TIMELINE"));
        }
        let data = ChunkData::new(s);
        let chunks = data.chunks(timeline);
        let chunk_ptrs: Vec<u64> = chunks.iter().map(|c| c as *const _ as u64).collect();
        let mut arg = uapi::DrmAmdgpuCs::new(uapi::DrmAmdgpuCsIn {
            ctx_id: self.id(),
            bo_list_handle: 0,
            num_chunks: chunk_ptrs.len() as u32,
            flags: 0,
            chunks: chunk_ptrs.as_ptr() as u64,
        });
        // SAFETY: every pointer in the argument (chunk array, chunks, chunk data, BO entries)
        // refers to `chunk_ptrs`, `chunks` or `data`, which outlive the call, with lengths as
        // stated.
        unsafe { dev.ioctl(uapi::DRM_IOCTL_AMDGPU_CS, &mut arg) }
            .map_err(|e| self.submit_error("AMDGPU_CS", e))?;
        Ok(CsFence { ctx_id: self.id(), ip: s.ip, ring: s.ring, seq: arg.out().handle })
    }

    /// Waits for a submission of this context. `Ok(true)` when it completed, `Ok(false)` at
    /// the timeout, `Err(ContextLost)` if it (or an earlier fault) lost the context.
    pub fn wait(&self, fence: CsFence, timeout: Option<Duration>) -> Result<bool> {
        let mut arg = uapi::DrmAmdgpuWaitCs::new(uapi::DrmAmdgpuWaitCsIn {
            handle: fence.seq,
            timeout: crate::time::deadline_ns(timeout) as u64,
            ip_type: fence.ip.raw(),
            ip_instance: 0,
            ring: fence.ring,
            ctx_id: fence.ctx_id,
        });
        // SAFETY: wait_cs carries no user pointers.
        unsafe { self.device().ioctl(uapi::DRM_IOCTL_AMDGPU_WAIT_CS, &mut arg) }
            .map_err(|e| self.submit_error("AMDGPU_WAIT_CS", e))?;
        Ok(arg.out().status == 0)
    }
}

/// The chunk payloads of one CS ioctl, owned so that the pointers in the chunks stay valid.
struct ChunkData {
    ibs: Vec<uapi::DrmAmdgpuCsChunkIb>,
    /// Referenced by `bo_list[0].bo_info_ptr`.
    _entries: Vec<uapi::DrmAmdgpuBoListEntry>,
    bo_list: [uapi::DrmAmdgpuBoListIn; 1],
    fence: Option<[uapi::DrmAmdgpuCsChunkFence; 1]>,
    deps: Vec<uapi::DrmAmdgpuCsChunkDep>,
    waits: Vec<uapi::DrmAmdgpuCsChunkSyncobj>,
    signals: Vec<uapi::DrmAmdgpuCsChunkSyncobj>,
    sems_in: Vec<uapi::DrmAmdgpuCsChunkSem>,
    sems_out: Vec<uapi::DrmAmdgpuCsChunkSem>,
}

impl ChunkData {
    fn new(s: &Submission<'_>) -> ChunkData {
        let ibs = s
            .ibs
            .iter()
            .map(|ib| uapi::DrmAmdgpuCsChunkIb {
                flags: ib.flags,
                va_start: ib.va,
                ib_bytes: ib.size_dw * 4,
                ip_type: s.ip.raw(),
                ring: s.ring,
                ..Default::default()
            })
            .collect();
        let entries: Vec<_> = s
            .bo_handles
            .iter()
            .map(|&h| uapi::DrmAmdgpuBoListEntry { bo_handle: h, bo_priority: 0 })
            .collect();
        // operation = list_handle = ~0: the list is given inline, not as a kernel object.
        let bo_list = [uapi::DrmAmdgpuBoListIn {
            operation: u32::MAX,
            list_handle: u32::MAX,
            bo_number: entries.len() as u32,
            bo_info_size: core::mem::size_of::<uapi::DrmAmdgpuBoListEntry>() as u32,
            bo_info_ptr: entries.as_ptr() as u64,
        }];
        let syncobj = |p: &SyncPoint<'_>, flags| uapi::DrmAmdgpuCsChunkSyncobj {
            handle: p.syncobj.handle(),
            flags,
            point: p.point,
        };
        let sem = |p: &SyncPoint<'_>| uapi::DrmAmdgpuCsChunkSem { handle: p.syncobj.handle() };
        ChunkData {
            ibs,
            _entries: entries,
            bo_list,
            fence: s
                .user_fence
                .map(|(bo, offset)| [uapi::DrmAmdgpuCsChunkFence { handle: bo.handle(), offset }]),
            deps: s
                .after
                .iter()
                .map(|f| uapi::DrmAmdgpuCsChunkDep {
                    ip_type: f.ip.raw(),
                    ip_instance: 0,
                    ring: f.ring,
                    ctx_id: f.ctx_id,
                    handle: f.seq,
                })
                .collect(),
            // Unsubmitted points are waited for, as Vulkan's wait-before-signal requires.
            waits: s
                .waits
                .iter()
                .map(|p| syncobj(p, uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
                .collect(),
            signals: s.signals.iter().map(|p| syncobj(p, 0)).collect(),
            sems_in: s.waits.iter().map(sem).collect(),
            sems_out: s.signals.iter().map(sem).collect(),
        }
    }

    /// The chunk headers, pointing into `self`. Timeline chunks carry binary syncobjs too
    /// (point 0), as RADV does when the kernel supports them.
    fn chunks(&self, timeline: bool) -> Vec<uapi::DrmAmdgpuCsChunk> {
        let mut chunks: Vec<_> = self
            .ibs
            .iter()
            .map(|ib| chunk(uapi::AMDGPU_CHUNK_ID_IB, core::slice::from_ref(ib)))
            .collect();
        chunks.push(chunk(uapi::AMDGPU_CHUNK_ID_BO_HANDLES, &self.bo_list));
        if let Some(f) = &self.fence {
            chunks.push(chunk(uapi::AMDGPU_CHUNK_ID_FENCE, f));
        }
        let mut optional = |id, c: uapi::DrmAmdgpuCsChunk| {
            if c.length_dw > 0 {
                chunks.push(uapi::DrmAmdgpuCsChunk { chunk_id: id, ..c });
            }
        };
        optional(uapi::AMDGPU_CHUNK_ID_DEPENDENCIES, chunk(0, &self.deps));
        if timeline {
            optional(uapi::AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT, chunk(0, &self.waits));
            optional(uapi::AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL, chunk(0, &self.signals));
        } else {
            optional(uapi::AMDGPU_CHUNK_ID_SYNCOBJ_IN, chunk(0, &self.sems_in));
            optional(uapi::AMDGPU_CHUNK_ID_SYNCOBJ_OUT, chunk(0, &self.sems_out));
        }
        chunks
    }
}
