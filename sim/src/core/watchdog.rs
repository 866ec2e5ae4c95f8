//! Hang detection for waves, shared by the interpreter and translated code.
//!
//! A wave may execute [`SimConfig::wave_budget`](crate::SimConfig::wave_budget) instructions.
//! The count is exact in both engines (the interpreter counts each step; translated code
//! counts each instruction as it enters it), and both look at it at the same points: after
//! every taken branch or jump. Only a jump can make a wave run forever — straight-line code
//! ends — so a runaway wave is always caught, and both engines stop it at the same PC with the
//! same count: whether a shader "hangs" no longer depends on how loaded the host is.
//!
//! The wall clock stays as a last resort (huge but finite work), looked at every
//! [`CLOCK_STRIDE`] instructions at the same jump checks.
//!
//! Headroom, measured with the per-job debug line below: the heaviest waves of the memory
//! pipeline-barrier conformance cases at 1 MiB (which took minutes and used to lose the device
//! on a busy host) run under 2^20 instructions; the default budget is 2^32.

use std::time::Instant;

use super::wave::{Fault, Wave};
use super::Exec;

/// Instructions between two looks at the wall clock (a few milliseconds of interpretation).
pub(crate) const CLOCK_STRIDE: u64 = 1 << 20;

impl Exec<'_> {
    /// The instruction count, within a run that has executed `count` instructions so far, past
    /// which the next taken jump must call [`Exec::check_in`]: the end of the wave's budget or
    /// the next look at the clock, whichever comes first.
    pub(crate) fn next_check(&self, w: &Wave, count: u64) -> u64 {
        let left = self.budget.saturating_sub(w.executed);
        left.min(count + CLOCK_STRIDE)
    }

    /// A jump taken after the run's `count`-th instruction, past the last [`Exec::next_check`]
    /// limit: a fault when the wave has spent its budget (or the job its time), else the next
    /// limit.
    pub(crate) fn check_in(&self, w: &Wave, count: u64) -> Result<u64, Fault> {
        let total = w.executed + count;
        if total > self.budget {
            return Err(Fault::Shader(format!(
                "watchdog: wave {} still running at pc {:#x} after {total} instructions",
                w.wave_id, w.pc
            )));
        }
        if Instant::now() > self.deadline {
            return Err(Fault::Shader(format!(
                "watchdog: wave {} still running at pc {:#x} when the job's time ran out",
                w.wave_id, w.pc
            )));
        }
        Ok(self.next_check(w, count))
    }

    /// Records the instructions of a wave that ended (or the most of several): the heaviest
    /// wave of the job and of the device.
    pub(crate) fn record_end(&self, executed: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        // A plain load first: the maximum rarely grows, and a read leaves the line shared.
        if self.heaviest.load(Relaxed) < executed {
            self.heaviest.fetch_max(executed, Relaxed);
        }
        if self.stats.heaviest_wave.load(Relaxed) < executed {
            self.stats.heaviest_wave.fetch_max(executed, Relaxed);
        }
    }

    /// Logs the job's heaviest wave, so that the budget's headroom can be read off a run:
    /// at debug level when it came within a factor 2^12 of the budget, else at trace level
    /// (`FERRUM_LOG=ferrum_sim::core::watchdog=trace`).
    pub fn log_heaviest(&self, what: &str) {
        let n = self.heaviest.load(std::sync::atomic::Ordering::Relaxed);
        let level = if n >= self.budget >> 12 { log::Level::Debug } else { log::Level::Trace };
        log::log!(level, "{what} at {:#x}: heaviest wave ran {n} instructions", self.program.base);
    }
}
