//! The GPU's queue: a thread that runs submitted jobs.
//!
//! Jobs are grouped per scheduling entity (context, IP, ring) like the kernel's GPU scheduler:
//! within an entity they run strictly in submission order; across entities, whichever head job
//! has all its dependencies signaled runs first, so a job waiting for a point that the CPU will
//! signal later does not block other contexts. One job executes at a time.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::thread::JoinHandle;

use ferrum_winsys::Errno;
use parking_lot::Mutex;

use super::fence::Fence;
use super::gem::GemObject;
use super::vm::AddressSpace;
use super::{FileState, SimContext};
use crate::compute::ComputeEngine;
use crate::cp::{CommandProcessor, Env};
use crate::error::GpuError;

/// One command submission.
pub(crate) struct Job {
    pub ctx: Arc<SimContext>,
    pub ctx_id: u32,
    pub ip: u32,
    pub ring: u32,
    pub seq: u64,
    /// (GPU address, size in dwords) of each IB, in order.
    pub ibs: Vec<(u64, u32)>,
    pub deps: Vec<Arc<Fence>>,
    pub fence: Arc<Fence>,
    /// Where the kernel writes the 64-bit sequence number on completion.
    pub user_fence: Option<(Arc<GemObject>, u64)>,
    pub space: Arc<AddressSpace>,
    /// Global submission order, set by [`Queue::push`].
    pub order: u64,
}

type EntityKey = (u32, u32, u32);

#[derive(Default)]
pub(crate) struct QueueState {
    entities: HashMap<EntityKey, VecDeque<Job>>,
    submitted: u64,
    shutdown: bool,
}

#[derive(Default)]
pub(crate) struct Queue {
    state: Mutex<QueueState>,
}

enum Next {
    Run(Box<Job>),
    /// Shutting down and nothing can make progress: cancel what is left.
    Cancel(Vec<Job>),
    Exit,
}

impl Queue {
    pub fn push(&self, mut job: Job) {
        let key = (job.ctx_id, job.ip, job.ring);
        let mut st = self.state.lock();
        st.submitted += 1;
        job.order = st.submitted;
        st.entities.entry(key).or_default().push_back(job);
    }

    pub fn shut_down(&self) {
        self.state.lock().shutdown = true;
    }

    /// Takes a runnable job if there is one.
    fn take(&self) -> Option<Next> {
        let mut st = self.state.lock();
        let ready = st
            .entities
            .iter()
            .filter(|(_, q)| q.front().is_some_and(|j| j.deps.iter().all(|d| d.is_signaled())))
            .map(|(k, _)| *k)
            .min_by_key(|k| st.entities[k].front().map(|j| j.order));
        if let Some(key) = ready {
            let queue = st.entities.get_mut(&key)?;
            let job = queue.pop_front()?;
            if queue.is_empty() {
                st.entities.remove(&key);
            }
            return Some(Next::Run(Box::new(job)));
        }
        if st.shutdown {
            let rest: Vec<Job> = st.entities.drain().flat_map(|(_, q)| q).collect();
            return Some(if rest.is_empty() { Next::Exit } else { Next::Cancel(rest) });
        }
        None
    }
}

/// Starts the queue thread of a device file.
pub(crate) fn spawn(file: Arc<FileState>) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("ferrum-sim-queue".into())
        .spawn(move || run(&file))
        .expect("spawning the simulator's queue thread")
}

fn run(file: &FileState) {
    let engine = &file.compute;
    let mut cps: HashMap<(u32, u32), CommandProcessor> = HashMap::new();
    loop {
        let mut next = None;
        file.notifier.wait_until(None, || {
            next = file.queue.take();
            next.is_some()
        });
        match next {
            Some(Next::Run(job)) => {
                let cp = cps.entry((job.ip, job.ring)).or_default();
                let run = std::panic::AssertUnwindSafe(|| execute(file, engine, cp, &job));
                if std::panic::catch_unwind(run).is_err() {
                    // A simulator bug must not take the process (or the queue) down with it:
                    // treat it like a GPU hang of this job.
                    log::error!(
                        "sim: internal error while executing context {}; context lost",
                        job.ctx_id
                    );
                    file.internal_errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    job.ctx.mark_guilty();
                    cps.remove(&(job.ip, job.ring));
                    job.fence.signal(Some(Errno::ETIME));
                }
            }
            Some(Next::Cancel(jobs)) => {
                for job in jobs {
                    job.fence.signal(Some(Errno::ECANCELED));
                }
            }
            Some(Next::Exit) | None => return,
        }
    }
}

fn execute(file: &FileState, engine: &ComputeEngine, cp: &mut CommandProcessor, job: &Job) {
    if job.ctx.is_guilty() {
        // Work queued behind a fault of its own context is dropped, as amdgpu does.
        job.fence.signal(Some(Errno::ECANCELED));
        return;
    }
    engine.invalidate_programs();
    let timestamp = || file.gpu_timestamp();
    let env = Env {
        space: &job.space,
        config: &file.config,
        compute: engine,
        gfx: &file.gfx,
        timestamp: &timestamp,
    };
    for &(va, size_dw) in &job.ibs {
        if let Err(err) = cp.run(&env, va, size_dw) {
            let hint = match &err {
                GpuError::VmFault(f) if file.vm.snapshot().lookup(f.addr).is_some() => {
                    " (the address is mapped, but its BO is not in the submission's BO list)"
                }
                _ => "",
            };
            log::error!(
                "sim: GPU fault in context {} (ip {}, ring {}, seq {}): {err}{hint}; context lost",
                job.ctx_id,
                job.ip,
                job.ring,
                job.seq
            );
            job.ctx.mark_guilty();
            job.fence.signal(Some(Errno::ETIME));
            return;
        }
    }
    if let Some((gem, offset)) = &job.user_fence {
        // SAFETY: the CS ioctl checked `offset + 8 <= gem.size`; the object is kept alive by
        // the `Arc`. The write is unaligned-safe.
        unsafe { gem.host_ptr().add(*offset as usize).cast::<u64>().write_unaligned(job.seq) };
    }
    job.fence.signal(None);
}
