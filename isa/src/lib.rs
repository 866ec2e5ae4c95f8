//! RDNA2 (gfx1030) instruction set: tables, encoder, decoder and disassembler.
//!
//! * [`tables`]: one generated table per encoding family — every opcode LLVM 14 accepts for
//!   gfx1030, with its printed operands, their widths in dwords, the operand classes each
//!   source accepts, modifiers, implicit EXEC/VCC/SCC/M0 use, DPP/SDWA support and MIMG
//!   address counts. The facts were swept from `llvm-mc` by `isa/gen/sweep.py` and are checked
//!   in; nothing here calls LLVM at run time.
//! * [`Inst`]: the typed instruction, one plain struct per family with public fields, so a
//!   simulator can decode a program once and `match` on it, and a compiler can build it with
//!   struct literals. [`Opcode`] is one id per instruction name whatever the encoding
//!   (`v_add_f32` is the same opcode in VOP2, VOP3, DPP and SDWA form).
//! * [`encode`] / [`decode`] / `Display` (LLVM syntax that `llvm-mc` assembles back to the
//!   same words), [`listing`] for walking a buffer, [`Inst::validate`] for operand classes,
//!   constructors such as [`Vop3::new`] with the usual defaults, and
//!   [`Inst::fold_half_immediates`] for choosing 16-bit immediates the way the assembler does
//!   (so that listings reassemble to the same words).
//! * [`query`]: branch / memory / wait counters / implicit registers / latency class;
//!   [`Inst::reg_accesses`] and [`Inst::dwords`] for the registers each operand covers.
//!
//! The tests check all of it against LLVM 14's `llvm-mc`: every form in both directions
//! (`tests/llvm_roundtrip.rs`), the symbolic immediates exhaustively
//! (`tests/llvm_immediates.rs`), and random words in every family, so that nothing LLVM
//! decodes is missing here (`tests/llvm_fuzz.rs`).
//!
//! ```
//! use ferrum_isa::{decode, encode, Ext, Inst, Opcode, Operand, Sop2, Vop2};
//!
//! let add = Inst::Sop2(Sop2 {
//!     op: Opcode::S_ADD_U32,
//!     sdst: Operand::Sgpr(4),
//!     ssrc0: Operand::Sgpr(1),
//!     ssrc1: Operand::Int(7),
//! });
//! let words = encode(&add).unwrap();
//! assert_eq!(decode(&words).unwrap(), (add, 1));
//! assert_eq!(add.to_string(), "s_add_u32 s4, s1, 7");
//! assert!(add.writes_scc());
//!
//! let fmul = Inst::Vop2(Vop2 {
//!     op: Opcode::V_MUL_F32,
//!     vdst: 0,
//!     src0: Operand::Literal(0x3fc00000),
//!     vsrc1: 1,
//!     k: 0,
//!     ext: Ext::None,
//! });
//! assert_eq!(encode(&fmul).unwrap().len(), 2); // the literal follows
//! assert_eq!(fmul.to_string(), "v_mul_f32_e32 v0, 0x3fc00000, v1");
//! ```
//!
//! Families complete (tables, encode, decode, text; every opcode checked against llvm-mc in
//! `tests/llvm_roundtrip.rs`): SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3
//! (including VOP3b and the `v_interp_*` VOP3 forms), VOP3P, VINTRP, DS, MUBUF, MTBUF, MIMG
//! (NSA, A16, D16, and the `image_bvh*_intersect_ray` forms), FLAT, GLOBAL, SCRATCH, EXP, and
//! DPP16/DPP8/SDWA on VOP1/VOP2/VOPC. A VOP3 literal on a 64-bit operand is kept as the one
//! dword the hardware reads; interpreting it (high half for f64) is the consumer's business.

mod construct;
mod decode;
mod display;
mod encode;
mod error;
mod ext;
mod half;
pub mod imm;
mod inst;
mod listing;
mod mimg;
mod opcode;
mod operand;
pub mod query;
mod regs;
pub mod tables;
mod validate;

pub use decode::decode;
pub use encode::{encode, Words};
pub use error::{DecodeError, EncodeError};
pub use ext::dpp_ctrl_valid;
pub use half::{half_float_bits, half_operand};
pub use inst::*;
pub use listing::{listing, Entry, Listing};
pub use opcode::Opcode;
pub use operand::{FloatConst, Operand, OperandDisplay, Special};
pub use regs::RegAccess;
