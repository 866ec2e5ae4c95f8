//! The simulated amdgpu kernel driver: one [`SimKernel`] is one open device file.
//!
//! `ioctl` decodes the real request numbers and argument structs (from `ferrum_winsys::uapi`)
//! and implements amdgpu's semantics: GEM objects in host memory, a per-file GPU VM, contexts,
//! command submission onto a queue thread, and DRM syncobjs. Errors are the errno values the
//! real kernel returns for the same mistakes.

mod cs;
mod ctx;
mod export;
mod fence;
mod gem;
mod gem_ioctl;
mod info;
mod queue;
mod syncobj;
mod uaccess;
mod vm;

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use ferrum_winsys::{uapi, Errno, Kernel};
use parking_lot::Mutex;

pub use ctx::SimContext;
pub use fence::{Fence, Notifier};
pub use gem::{GemObject, MemoryAccounting, PAGE_SIZE};
#[cfg(test)]
pub(crate) use vm::Vm;
pub use vm::{Access, AddressSpace, Translator, VmFault, VmMapping, VA_MASK};

use crate::chip::Chip;
use crate::SimConfig;

/// GEM handles and CPU mappings of one file.
#[derive(Debug, Default)]
struct GemTable {
    next_handle: u32,
    handles: HashMap<u32, Arc<GemObject>>,
    by_offset: HashMap<u64, Arc<GemObject>>,
    /// Live CPU mappings: host address -> (object, number of mmaps at that address).
    cpu_maps: HashMap<usize, (Arc<GemObject>, usize)>,
}

/// Everything behind one device file.
pub(crate) struct FileState {
    pub(crate) config: SimConfig,
    pub(crate) chip: Chip,
    pub(crate) created: Instant,
    pub(crate) accounting: Arc<MemoryAccounting>,
    pub(crate) notifier: Arc<Notifier>,
    gems: Mutex<GemTable>,
    pub(crate) vm: vm::Vm,
    ctxs: Mutex<(u32, HashMap<u32, Arc<SimContext>>)>,
    /// Submitted jobs not yet known to be retired: their fence and VM snapshot.
    in_flight: Mutex<Vec<(Arc<Fence>, Arc<AddressSpace>)>>,
    syncobjs: Mutex<syncobj::SyncobjTable>,
    queue: queue::Queue,
    /// The shader engines (program cache, statistics); used by the queue thread.
    pub(crate) compute: crate::compute::ComputeEngine,
    /// The graphics units (the back end the front end feeds); used by the queue thread.
    pub(crate) gfx: crate::gfx::GraphicsEngine,
    /// Panics caught in the queue thread (simulator bugs); tests assert it stays 0.
    pub(crate) internal_errors: std::sync::atomic::AtomicU64,
}

/// The simulated GPU behind the [`Kernel`] trait.
pub struct SimKernel {
    file: Arc<FileState>,
    queue_thread: Option<JoinHandle<()>>,
}

impl SimKernel {
    /// Replaces the graphics back end that receives this device's setup primitives.
    pub fn set_graphics_backend(&self, backend: Box<dyn crate::gfx::Rasterizer>) {
        self.file.gfx.set_backend(backend);
    }

    pub fn new(config: SimConfig) -> SimKernel {
        let chip = config.chip.clone();
        let file = Arc::new(FileState {
            chip: chip.clone(),
            created: Instant::now(),
            accounting: Arc::default(),
            notifier: export::global_notifier(),
            gems: Mutex::new(GemTable { next_handle: 1, ..Default::default() }),
            vm: vm::Vm::new(chip),
            ctxs: Mutex::new((1, HashMap::new())),
            in_flight: Mutex::default(),
            syncobjs: Mutex::default(),
            queue: queue::Queue::default(),
            compute: Default::default(),
            gfx: Default::default(),
            internal_errors: Default::default(),
            config,
        });
        let queue_thread = Some(queue::spawn(file.clone()));
        SimKernel { file, queue_thread }
    }

    /// Work the shader core has done so far: (wave instructions, lane operations). Lane
    /// operations count the active lanes of every executed instruction.
    pub fn shader_stats(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let s = &self.file.compute.stats;
        (s.wave_instructions.load(Relaxed), s.lane_operations.load(Relaxed))
    }

    /// Translated-code statistics: (dispatches run on translated code, instructions of their
    /// programs emitted as host code, instructions left to the interpreter), summed per
    /// dispatch.
    pub fn jit_stats(&self) -> (u64, u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let s = &self.file.compute.stats;
        (
            s.translated_dispatches.load(Relaxed),
            s.native_instructions.load(Relaxed),
            s.helper_instructions.load(Relaxed),
        )
    }

    /// Instructions translated code has handed to the interpreter as it ran.
    pub fn jit_helper_calls(&self) -> u64 {
        self.file.compute.stats.helper_calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many jobs ended because the simulator itself failed (a bug, reported as a hang).
    pub fn internal_errors(&self) -> u64 {
        self.file.internal_errors.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The GPU's current view of memory (for tests and debugging tools).
    pub fn address_space(&self) -> Arc<AddressSpace> {
        self.file.vm.snapshot()
    }

    fn dispatch(&self, request: u64, arg: *mut c_void) -> Result<i32, Errno> {
        let f = &*self.file;
        // SAFETY: (every arm) the Kernel::ioctl contract says `arg` points to the argument type
        // that `request` names; the request numbers below encode exactly these types.
        unsafe {
            match request {
                uapi::DRM_IOCTL_VERSION => f.version(typed(arg)?),
                uapi::DRM_IOCTL_GET_CAP => f.get_cap(typed(arg)?),
                uapi::DRM_IOCTL_GEM_CLOSE => f.gem_close(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_INFO => f.info(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_GEM_CREATE => f.gem_create(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_GEM_MMAP => f.gem_mmap(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_GEM_VA => f.gem_va(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_GEM_WAIT_IDLE => f.gem_wait_idle(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_CTX => f.ctx(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_CS => f.cs(typed(arg)?),
                uapi::DRM_IOCTL_AMDGPU_WAIT_CS => f.wait_cs(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_CREATE => f.syncobj_create(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_DESTROY => f.syncobj_destroy(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_WAIT => f.syncobj_wait(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT => f.syncobj_timeline_wait(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_RESET => f.syncobj_reset(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_SIGNAL => f.syncobj_signal(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL => f.syncobj_timeline_signal(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_QUERY => f.syncobj_query(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_TRANSFER => f.syncobj_transfer(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD => f.syncobj_handle_to_fd(typed(arg)?),
                uapi::DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE => f.syncobj_fd_to_handle(typed(arg)?),
                _ => Err(Errno::ENOTTY),
            }
        }
    }
}

/// The ioctl argument as a typed reference.
///
/// # Safety
/// `arg` must be null or point to a valid, exclusively borrowed `T`.
unsafe fn typed<'a, T>(arg: *mut c_void) -> Result<&'a mut T, Errno> {
    // SAFETY: per the function contract.
    unsafe { arg.cast::<T>().as_mut() }.ok_or(Errno::EFAULT)
}

impl Drop for SimKernel {
    fn drop(&mut self) {
        // Closing the file: queued work still runs (or is cancelled if it can never become
        // ready), then the queue thread exits.
        self.file.queue.shut_down();
        self.file.notifier.notify();
        if let Some(thread) = self.queue_thread.take() {
            if thread.join().is_err() {
                log::error!("sim: the queue thread panicked");
            }
        }
    }
}

impl Kernel for SimKernel {
    unsafe fn ioctl(&self, request: u64, arg: *mut c_void) -> Result<i32, Errno> {
        let result = self.dispatch(request, arg);
        if let Err(errno) = result {
            log::debug!("sim ioctl {:#x} (nr {:#x}) -> {errno}", request, uapi::ioctl_nr(request));
        }
        result
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<*mut u8, Errno> {
        self.file.mmap(offset, len)
    }

    unsafe fn munmap(&self, ptr: *mut u8, len: usize) -> Result<(), Errno> {
        self.file.munmap(ptr, len)
    }

    fn describe(&self) -> String {
        format!("sim {}", self.file.chip.name)
    }
}

impl FileState {
    fn ctx(&self, arg: &mut uapi::DrmAmdgpuCtx) -> Result<i32, Errno> {
        let input = arg.input();
        match input.op {
            uapi::AMDGPU_CTX_OP_ALLOC_CTX => {
                if input.priority > uapi::AMDGPU_CTX_PRIORITY_VERY_HIGH
                    || input.priority < uapi::AMDGPU_CTX_PRIORITY_UNSET
                {
                    return Err(Errno::EINVAL);
                }
                let mut ctxs = self.ctxs.lock();
                let id = ctxs.0;
                ctxs.0 += 1;
                ctxs.1.insert(id, Arc::default());
                arg.out.alloc = uapi::DrmAmdgpuCtxOutAlloc { ctx_id: id, _pad: 0 };
                Ok(0)
            }
            uapi::AMDGPU_CTX_OP_FREE_CTX => {
                self.ctxs.lock().1.remove(&input.ctx_id).map(|_| 0).ok_or(Errno::EINVAL)
            }
            uapi::AMDGPU_CTX_OP_QUERY_STATE | uapi::AMDGPU_CTX_OP_QUERY_STATE2 => {
                let ctx = self.context(input.ctx_id)?;
                let state = if input.op == uapi::AMDGPU_CTX_OP_QUERY_STATE {
                    let reset_status = match (ctx.was_reset(), ctx.is_guilty()) {
                        (_, true) => uapi::AMDGPU_CTX_GUILTY_RESET,
                        (true, false) => uapi::AMDGPU_CTX_INNOCENT_RESET,
                        _ => uapi::AMDGPU_CTX_NO_RESET,
                    };
                    uapi::DrmAmdgpuCtxOutState { flags: 0, hangs: ctx.hangs(), reset_status }
                } else {
                    let mut flags = 0;
                    if ctx.was_reset() {
                        flags |= uapi::AMDGPU_CTX_QUERY2_FLAGS_RESET;
                    }
                    if ctx.is_guilty() {
                        flags |= uapi::AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
                    }
                    uapi::DrmAmdgpuCtxOutState { flags, hangs: 0, reset_status: 0 }
                };
                arg.out.state = state;
                Ok(0)
            }
            _ => Err(Errno::EINVAL),
        }
    }

    pub(crate) fn context(&self, id: u32) -> Result<Arc<SimContext>, Errno> {
        self.ctxs.lock().1.get(&id).cloned().ok_or(Errno::EINVAL)
    }
}

impl FileState {
    /// Whether unfinished GPU work may still access `gem`: any submitted, unsignaled job whose
    /// VM snapshot maps it.
    fn gem_busy(&self, gem: &Arc<GemObject>) -> bool {
        self.in_flight
            .lock()
            .iter()
            .any(|(fence, space)| !fence.is_signaled() && space.references(gem))
    }
}
