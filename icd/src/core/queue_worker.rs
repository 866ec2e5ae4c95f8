//! A queue's submission thread, for batches that wait on timeline points nobody has submitted
//! yet (wait-before-signal). It keeps the queue's order: while it holds jobs, every new batch
//! of the queue goes through it too.

use std::collections::VecDeque;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use crate::core::queue::{Job, Ring};

/// How often a waiting thread checks for shutdown.
const POLL: Duration = Duration::from_millis(50);

#[derive(Default)]
struct State {
    jobs: VecDeque<Job>,
    /// A job taken from `jobs` and not yet submitted.
    in_hand: bool,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

pub struct Worker {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn start(ring: Arc<Ring>) -> Worker {
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("ferrum-submit".into())
            .spawn(move || run(&ring, &s))
            .expect("spawning the queue submission thread");
        Worker { shared, thread: Some(thread) }
    }

    pub fn push(&self, job: Job) {
        self.shared.state.lock().jobs.push_back(job);
        self.shared.changed.notify_all();
    }

    /// Whether jobs are queued or being submitted.
    pub fn busy(&self) -> bool {
        let st = self.shared.state.lock();
        !st.jobs.is_empty() || st.in_hand
    }

    /// Blocks until every queued job has been handed to the kernel (or dropped by loss).
    pub fn drain(&self) {
        let mut st = self.shared.state.lock();
        while !st.jobs.is_empty() || st.in_hand {
            self.shared.changed.wait(&mut st);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.shared.state.lock().shutdown = true;
        self.shared.changed.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(ring: &Ring, shared: &Shared) {
    loop {
        let job = {
            let mut st = shared.state.lock();
            loop {
                if st.shutdown {
                    return;
                }
                if let Some(job) = st.jobs.pop_front() {
                    st.in_hand = true;
                    break job;
                }
                shared.changed.wait(&mut st);
            }
        };
        let result = loop {
            if shared.state.lock().shutdown || ring.shared.is_lost() {
                break Ok(false);
            }
            match ring.waits_available(&job, Some(POLL)) {
                Ok(true) => break ring.submit(&job).map(|()| true),
                Ok(false) => continue,
                Err(e) => break Err(e),
            }
        };
        if let Err(e) = result {
            ring.shared.mark_lost(&format!("deferred submission failed: {e}"));
        }
        let mut st = shared.state.lock();
        st.in_hand = false;
        if ring.shared.is_lost() {
            st.jobs.clear();
        }
        drop(st);
        shared.changed.notify_all();
    }
}
