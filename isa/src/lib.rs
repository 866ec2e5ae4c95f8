//! RDNA2 (gfx1030) instruction set: tables, encoder, decoder and disassembler.
//!
//! * [`tables`]: one generated table per encoding family (the facts, swept from LLVM 14's
//!   disassembler by `isa/gen/sweep.py` and checked in; no run-time LLVM dependency).
//! * [`Inst`]: the typed instruction, one plain struct per family, cheap to match on.
//! * [`encode`] / [`decode`]: words <-> [`Inst`]; `Display` prints LLVM syntax.
//! * [`query`]: branch / memory / wait-counter / implicit-register questions.
//!
//! Families complete (tables, encode, decode, text verified against llvm-mc): SOP1, SOP2,
//! SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3 (incl. VOP3b), VOP3P, DS, MUBUF, MTBUF,
//! FLAT, GLOBAL, SCRATCH. Not yet: MIMG, EXP, VINTRP, DPP8/DPP16, SDWA (decoding them returns
//! a [`DecodeError`]).

mod decode;
mod display;
mod encode;
mod error;
mod ext;
pub mod imm;
mod inst;
mod listing;
mod mimg;
mod opcode;
mod operand;
pub mod query;
pub mod tables;
mod validate;

pub use decode::decode;
pub use encode::{encode, Words};
pub use error::{DecodeError, EncodeError};
pub use ext::dpp_ctrl_valid;
pub use inst::*;
pub use listing::{listing, Entry, Listing};
pub use opcode::Opcode;
pub use operand::{FloatConst, Operand, OperandDisplay, Special};
