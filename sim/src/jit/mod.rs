//! The shader core's translator: RDNA2 wave code to host machine code with Cranelift.
//!
//! A program is translated whole, once per distinct code content (see [`Cache`]), into one
//! host function `fn(ctx, entry) -> status`. Every RDNA2 instruction becomes a Cranelift
//! block, so the function can be entered at any instruction (after a barrier, a watchdog
//! check or a jump the translator did not resolve) through one jump table.
//!
//! Architectural state stays where the interpreter keeps it: the [`Wave`]'s SGPR array,
//! VGPR rows and SCC. Translated code reads and writes those through raw pointers, one wave's
//! 32 lanes as eight 4-lane host vectors, EXEC applied as a per-lane blend on every write.
//! Within a run of native instructions (a segment, see `regcache`) registers are held in host
//! values, and a loop made only of native instructions keeps them across its back edge (see
//! `loops`); every way out to the interpreter stores them first, which is what lets any
//! instruction hand over to the interpreter and back:
//!
//! - **native** instructions (the hot integer and f32 VALU and SALU operations, branches)
//!   are emitted as host code. Whether an instruction is native is decided at translation
//!   from its operands: registers inside the allocation, no modifiers, the float mode known.
//! - the frequent memory instructions (untyped buffer loads and stores, scalar loads, LDS
//!   reads and writes) call `mem_helper` with the instruction decoded at translation and
//!   packed into one word ([`crate::core::mem_op`]): the interpreter's implementation of the
//!   access without its lookup, decode and dispatch; anything off that path (a fault, a
//!   swizzled buffer, lanes out of range) goes to the interpreter as below.
//! - everything else (other memory, transcendental and 16/64-bit arithmetic, image
//!   sampling, exports and attribute interpolation of the graphics stages) calls
//!   [`step_helper`], which runs the
//!   interpreter's own implementation of that one instruction on the wave. Memory accesses,
//!   VM faults and LDS bounds therefore behave identically by construction.
//!
//! Strict mode stays exact: the interpreter tracks outstanding loads in the wave, and the
//! helper mirrors the registers they will write into the context as bit masks. A native
//! instruction whose operands (known at translation) overlap those masks runs through the
//! interpreter instead, which performs the missing-`s_waitcnt` check; one whose operands do
//! not is exactly the case where that check passes, so it stays native (a loop need not wait
//! for an unrelated load issued before it). `s_waitcnt` goes to the interpreter while any
//! load is outstanding.
//! The watchdog: every taken branch decrements a budget; at zero the function returns and
//! the caller looks at the clock, as the interpreter does every [`WATCHDOG_STRIDE`] steps.
//!
//! Compute dispatches and the graphics stages (VS, PS) all run through [`crate::core::Exec::run`];
//! programs the translator refuses (too long) run on the interpreter, logged once per program.
//!
//! [`WATCHDOG_STRIDE`]: crate::core::WATCHDOG_STRIDE

mod cache;
mod emit_salu;
mod emit_valu;
mod flushed;
mod loops;
mod regcache;
mod run;
mod translate;

pub use cache::{Cache, Code, Key};
pub use run::run_wave;

/// Which engine runs shader code (`FERRUM_SIM=interp|jit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The interpreter only.
    Interp,
    /// Translated code wherever the whole program is supported, the interpreter otherwise.
    #[default]
    Jit,
}

impl Engine {
    /// `FERRUM_SIM`, or the JIT when unset; other values are ignored with a warning.
    pub fn from_env() -> Engine {
        match std::env::var("FERRUM_SIM").as_deref() {
            Ok("interp") => Engine::Interp,
            Ok("jit") | Err(_) => Engine::Jit,
            Ok(other) => {
                log::warn!("ignoring FERRUM_SIM={other:?} (interp or jit)");
                Engine::Jit
            }
        }
    }
}
