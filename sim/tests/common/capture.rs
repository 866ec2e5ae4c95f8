//! The simulator's error log lines (its fault and hang reports), captured so that a test can
//! compare what each engine reported.

use std::sync::{Mutex, MutexGuard, Once};

static LINES: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Error
    }
    fn log(&self, r: &log::Record) {
        if r.level() <= log::Level::Error {
            LINES.lock().unwrap().push(r.args().to_string());
        }
    }
    fn flush(&self) {}
}

/// Makes the capture the process's logger. Every test of a binary that reads the lines calls
/// it before it makes a device: tests run in parallel, and a logger installed by anyone else
/// first would keep the reports from ever reaching the capture.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        log::set_logger(&Capture).expect("no logger before the first device of this binary");
        log::set_max_level(log::LevelFilter::Error);
    });
}

/// Forgets the lines captured so far.
pub fn clear() {
    LINES.lock().unwrap().clear();
}

/// The lines captured since the last [`clear`] or [`take`], removing them.
pub fn take() -> Vec<String> {
    std::mem::take(&mut *LINES.lock().unwrap())
}

/// One test at a time among those of a binary that read the reports: the simulator logs
/// from its own threads, so the lines of two tests faulting at once would mix. Hold the
/// guard for the whole test.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}
