//! Translated programs, cached by the code they were made from.
//!
//! The program cache ([`crate::core::program::ProgramCache`]) is dropped at every submission
//! and at every instruction-cache invalidation; translating again each time would cost more
//! than many dispatches run. So translations are keyed by entry address, by what the
//! translation assumed about the dispatch ([`Key`]), and by content: an entry holds a copy of
//! the code words it was made from and is reused only while GPU memory still holds exactly
//! those words. Rewriting the code at the same address therefore yields a new translation.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use cranelift_jit::JITModule;
use parking_lot::Mutex;

use super::run::Ctx;
use crate::core::program::Program;

/// Entries kept before the cache is emptied (a bound on host memory, not a tuning knob).
const MAX_ENTRIES: usize = 512;

/// What a translation depends on besides the code words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// VGPRs allocated (native code is only emitted for registers inside the allocation).
    pub vgprs: u32,
    /// The MODE register at wave start (f32 denormal flushing and rounding).
    pub mode: u32,
}

/// The signature of a translated program: context, entry index; returns a status.
pub(super) type Entry = unsafe extern "C" fn(*mut Ctx, u32) -> u32;

/// One translated program.
pub struct Code {
    pub(super) func: Entry,
    pub(super) base: u64,
    /// Entry index by dword offset from `base` (`u32::MAX`: not the start of a translated
    /// instruction).
    pub(super) entries: Vec<u32>,
    /// Instructions emitted as host code and as interpreter calls (for tests and logs).
    pub native: usize,
    pub helper: usize,
    module: Mutex<Option<JITModule>>,
}

// SAFETY: the module is only touched again by `Drop`; the function it holds is plain code
// that reads its state through the context argument.
unsafe impl Send for Code {}
// SAFETY: as above; calling the function concurrently is safe, each call has its own context.
unsafe impl Sync for Code {}

impl Code {
    pub(super) fn new(
        func: Entry,
        base: u64,
        entries: Vec<u32>,
        counts: (usize, usize),
        module: JITModule,
    ) -> Code {
        Code {
            func,
            base,
            entries,
            native: counts.0,
            helper: counts.1,
            module: Mutex::new(Some(module)),
        }
    }

    /// The entry index of the instruction at `pc`, if translated.
    pub(super) fn entry(&self, pc: u64) -> Option<u32> {
        let off = pc.wrapping_sub(self.base);
        if off % 4 != 0 {
            return None;
        }
        self.entries.get((off / 4) as usize).copied().filter(|&e| e != u32::MAX)
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.module.get_mut().take() {
            // SAFETY: `Code` is the only owner of the function; no call can be in flight
            // while it is being dropped.
            unsafe { m.free_memory() };
        }
    }
}

struct Cached {
    span: Range<usize>,
    words: Vec<u32>,
    code: Option<Arc<Code>>,
}

/// Translations by entry address, key and content.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<(u64, Key), Vec<Cached>>>,
}

impl Cache {
    /// The translation of `program` for `key`, translating on first use; `None` when the
    /// program needs the interpreter.
    pub fn get(&self, program: &Program, key: Key) -> Option<Arc<Code>> {
        let words = program.words();
        {
            let map = self.entries.lock();
            if let Some(list) = map.get(&(program.base, key)) {
                for c in list {
                    if words.get(c.span.clone()) == Some(&c.words[..]) {
                        return c.code.clone();
                    }
                }
            }
        }
        let (span, code) = super::translate::translate(program, key);
        let code = code.map(Arc::new);
        let mut map = self.entries.lock();
        if map.values().map(Vec::len).sum::<usize>() >= MAX_ENTRIES {
            map.clear();
        }
        let snapshot = words.get(span.clone()).map(<[u32]>::to_vec).unwrap_or_default();
        map.entry((program.base, key)).or_default().push(Cached {
            span,
            words: snapshot,
            code: code.clone(),
        });
        code
    }
}
