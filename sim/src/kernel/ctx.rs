//! Contexts: reset bookkeeping (guilty/innocent) and per-ring submission sequence numbers.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::fence::Fence;

/// The fences of one ring of one context, indexed by sequence number.
#[derive(Debug, Default)]
struct RingFences {
    /// Sequence number of `fences[0]`.
    first: u64,
    fences: VecDeque<Arc<Fence>>,
}

/// One amdgpu context.
#[derive(Debug, Default)]
pub struct SimContext {
    guilty: AtomicBool,
    reset: AtomicBool,
    hangs: AtomicU32,
    /// Keyed by (ip_type, ring).
    rings: Mutex<HashMap<(u32, u32), RingFences>>,
}

/// Result of looking up a sequence number.
pub enum SeqLookup {
    /// Never submitted (EINVAL in amdgpu).
    Future,
    /// Long retired; treat as signaled.
    Retired,
    Pending(Arc<Fence>),
}

impl SimContext {
    pub fn is_guilty(&self) -> bool {
        self.guilty.load(Ordering::Acquire)
    }

    pub fn was_reset(&self) -> bool {
        self.reset.load(Ordering::Acquire)
    }

    pub fn hangs(&self) -> u32 {
        self.hangs.load(Ordering::Acquire)
    }

    /// Marks this context as the cause of a GPU fault/hang.
    pub fn mark_guilty(&self) {
        self.hangs.fetch_add(1, Ordering::AcqRel);
        self.reset.store(true, Ordering::Release);
        self.guilty.store(true, Ordering::Release);
    }

    /// Assigns the next sequence number on `(ip, ring)` to `fence`.
    pub fn push_fence(&self, ip: u32, ring: u32, fence: Arc<Fence>) -> u64 {
        let mut rings = self.rings.lock();
        let r = rings
            .entry((ip, ring))
            .or_insert_with(|| RingFences { first: 1, ..Default::default() });
        while r.fences.front().is_some_and(|f| f.is_signaled()) && r.fences.len() > 1 {
            r.fences.pop_front();
            r.first += 1;
        }
        r.fences.push_back(fence);
        r.first + r.fences.len() as u64 - 1
    }

    /// The fence of sequence number `seq` on `(ip, ring)`; `u64::MAX` means the latest.
    pub fn fence(&self, ip: u32, ring: u32, seq: u64) -> SeqLookup {
        let rings = self.rings.lock();
        let Some(r) = rings.get(&(ip, ring)) else {
            return if seq == 0 { SeqLookup::Retired } else { SeqLookup::Future };
        };
        let last = r.first + r.fences.len() as u64 - 1;
        let seq = if seq == u64::MAX { last } else { seq };
        if seq > last {
            SeqLookup::Future
        } else if seq < r.first {
            SeqLookup::Retired
        } else {
            SeqLookup::Pending(r.fences[(seq - r.first) as usize].clone())
        }
    }
}
