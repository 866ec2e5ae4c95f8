//! The register cache of a segment: architectural registers held in Cranelift values between
//! the places where the wave's memory copy must be exact.
//!
//! A *segment* is a run of native instructions that nothing else enters or leaves in the
//! middle: it starts at a jump-table entry (see `translate`) and ends before an interpreter
//! call, at a branch, or where the next instruction starts another segment. Inside it, a
//! register is loaded from the wave at its first use and kept as a value; writes stay in the
//! cache and are stored once when the segment ends ([`RegCache::flush`]). So an FMA chain
//! touches the wave's VGPR rows twice per loop iteration instead of twice per instruction.
//!
//! The instruction and lane counters are cached the same way and added to the context at the
//! same points, so a fault, the watchdog and the statistics see the interpreter's counts.

use std::collections::BTreeMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, BlockArg, ConstantData, InstBuilder, Type, Value};
use cranelift_frontend::FunctionBuilder;

use super::flushed::Set;
use super::run::Ctx;
use super::translate::{Env, FLAGS};
use crate::core::wave::EXEC_LO;

pub(super) const I32X4: Type = types::I32X4;
pub(super) const CHUNKS: usize = 8;
/// Bytes per VGPR row (32 lanes of 4 bytes).
const ROW: i32 = 128;

/// Eight chunks of four lanes.
pub(super) type Row = [Value; CHUNKS];

#[derive(Clone)]
struct VEntry {
    row: Row,
    dirty: bool,
    /// Every lane EXEC enables holds an f32 with denormals already flushed (the value came
    /// from a flushing float operation under the current EXEC).
    flushed: bool,
}

/// A register a loop keeps in host values across segment boundaries (see [`RegCache::enter`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Carried {
    V(u32),
    /// An SGPR by [`crate::core::wave::Wave::s`] index.
    S(usize),
    Scc,
}

/// The block parameter types that hold `carry`, in order (a VGPR row is eight vectors).
pub(super) fn param_types(carry: &[Carried]) -> Vec<Type> {
    let mut t = Vec::new();
    for c in carry {
        match c {
            Carried::V(_) => t.extend([I32X4; CHUNKS]),
            Carried::S(_) => t.push(types::I32),
            Carried::Scc => t.push(types::I8),
        }
    }
    t
}

/// Cached registers and counters of the segment being emitted.
#[derive(Default, Clone)]
pub(super) struct RegCache {
    v: BTreeMap<u32, VEntry>,
    /// SGPR index (as [`crate::core::wave::Wave::s`]) to value and dirty flag.
    s: BTreeMap<usize, (Value, bool)>,
    /// SCC as an i8 0/1, and dirty.
    scc: Option<(Value, bool)>,
    /// The EXEC value the lane masks were made from, and the masks.
    masks: Option<(Value, Row)>,
    /// Instructions entered since the counters were last added to the context.
    insts: i64,
    /// Lanes of those instructions: a sum so far and a run of `k` instructions under `exec`.
    lanes: Option<Value>,
    run: Option<(Value, i64)>,
    /// EXEC is known to enable every lane (tested at the segment start, and not written
    /// since): VGPR writes replace the whole row, with no blend.
    full: bool,
    /// VGPRs known to hold flushed f32 values at the segment start (see `super::flushed`),
    /// for rows loaded later; forgotten when EXEC is written.
    flushed_in: Set,
}

impl RegCache {
    /// Forgets everything (a new segment starts; the wave's memory copy is exact).
    pub fn clear(&mut self) {
        debug_assert!(self.insts == 0, "counters not flushed");
        *self = RegCache::default();
    }

    /// Starts a segment entered with the registers `carry` in the block parameters `params`.
    /// They count as written: the predecessor may not have stored them (the wave's memory
    /// copy is exact for every other register).
    /// `flushed`: the VGPRs known to hold flushed f32 values there.
    pub fn enter(&mut self, carry: &[Carried], params: &[Value], flushed: Set) {
        self.clear();
        self.flushed_in = flushed;
        let mut p = params.iter().copied();
        for c in carry {
            match *c {
                Carried::V(r) => {
                    let row = std::array::from_fn(|_| p.next().expect("a row's parameters"));
                    let flushed = self.flushed_in.contains(&r);
                    self.v.insert(r, VEntry { row, dirty: true, flushed });
                }
                Carried::S(r) => {
                    self.s.insert(r, (p.next().expect("an SGPR parameter"), true));
                }
                Carried::Scc => self.scc = Some((p.next().expect("the SCC parameter"), true)),
            }
        }
    }

    /// Marks EXEC as tested all ones (`full`) for the segment now starting.
    pub fn set_full(&mut self, full: bool) {
        self.full = full;
    }

    /// Prepares a jump to a segment entered with `carry`: adds the counts, stores the written
    /// registers the target does not take, and returns the arguments (cached values, or loads
    /// of the wave's copy, exact for registers not written here).
    pub fn jump_args(
        &mut self,
        b: &mut FunctionBuilder,
        env: &Env,
        carry: &[Carried],
    ) -> Vec<BlockArg> {
        self.flush_counts(b, env);
        for (r, e) in self.v.iter_mut().filter(|(_, e)| e.dirty) {
            if !carry.contains(&Carried::V(*r)) {
                store_row(b, env, *r, &e.row);
                e.dirty = false;
            }
        }
        for (r, (v, dirty)) in self.s.iter_mut().filter(|(_, (_, d))| *d) {
            if !carry.contains(&Carried::S(*r)) {
                b.ins().store(FLAGS, *v, env.s, 4 * *r as i32);
                *dirty = false;
            }
        }
        if let Some((v, true)) = self.scc {
            if !carry.contains(&Carried::Scc) {
                b.ins().store(FLAGS, v, env.scc, 0);
                self.scc = Some((v, false));
            }
        }
        let mut args = Vec::new();
        for c in carry {
            match *c {
                Carried::V(r) => args.extend(self.vget(b, env, r).0.map(BlockArg::Value)),
                Carried::S(r) => args.push(BlockArg::Value(self.sget(b, env, r))),
                Carried::Scc => args.push(BlockArg::Value(self.scc(b, env))),
            }
        }
        args
    }

    pub fn sget(&mut self, b: &mut FunctionBuilder, env: &Env, r: usize) -> Value {
        if let Some((v, _)) = self.s.get(&r) {
            return *v;
        }
        let v = b.ins().load(types::I32, FLAGS, env.s, 4 * r as i32);
        self.s.insert(r, (v, false));
        v
    }

    pub fn sset(&mut self, r: usize, v: Value) {
        if r == EXEC_LO {
            // Which lanes hold flushed floats was decided under the old EXEC.
            self.v.values_mut().for_each(|e| e.flushed = false);
            self.flushed_in.clear();
            self.full = false;
        }
        self.s.insert(r, (v, true));
    }

    pub fn exec(&mut self, b: &mut FunctionBuilder, env: &Env) -> Value {
        self.sget(b, env, EXEC_LO)
    }

    pub fn scc(&mut self, b: &mut FunctionBuilder, env: &Env) -> Value {
        if let Some((v, _)) = self.scc {
            return v;
        }
        let v = b.ins().load(types::I8, FLAGS, env.scc, 0);
        self.scc = Some((v, false));
        v
    }

    /// `bit` is an i8 0/1 (as icmp yields), the wave's `bool`.
    pub fn set_scc(&mut self, bit: Value) {
        self.scc = Some((bit, true));
    }

    /// A VGPR row, and whether its active lanes are known to be flushed.
    pub fn vget(&mut self, b: &mut FunctionBuilder, env: &Env, r: u32) -> (Row, bool) {
        if let Some(e) = self.v.get(&r) {
            return (e.row, e.flushed);
        }
        let row = std::array::from_fn(|c| {
            b.ins().load(I32X4, FLAGS, env.v, r as i32 * ROW + 16 * c as i32)
        });
        let flushed = self.flushed_in.contains(&r);
        self.v.insert(r, VEntry { row, dirty: true, flushed });
        (row, flushed)
    }

    /// Writes the lanes of `row` that EXEC enables (the others keep the register's value).
    pub fn vset(&mut self, b: &mut FunctionBuilder, env: &Env, r: u32, row: &Row, flushed: bool) {
        if self.full {
            self.v.insert(r, VEntry { row: *row, dirty: true, flushed });
            return;
        }
        let (old, _) = self.vget(b, env, r);
        let m = self.lane_masks(b, env);
        let row = std::array::from_fn(|c| b.ins().bitselect(m[c], row[c], old[c]));
        self.v.insert(r, VEntry { row, dirty: true, flushed });
    }

    /// Per chunk, all-ones lanes where EXEC is set.
    pub fn lane_masks(&mut self, b: &mut FunctionBuilder, env: &Env) -> Row {
        let exec = self.exec(b, env);
        match self.masks {
            Some((e, m)) if e == exec => m,
            _ => {
                let m = lane_mask(b, exec);
                self.masks = Some((exec, m));
                m
            }
        }
    }

    /// Counts one instruction entered under the current EXEC.
    pub fn count(&mut self, b: &mut FunctionBuilder, env: &Env) {
        self.insts += 1;
        let exec = self.exec(b, env);
        match &mut self.run {
            Some((e, k)) if *e == exec => *k += 1,
            _ => {
                self.close_run(b);
                self.run = Some((exec, 1));
            }
        }
    }

    fn close_run(&mut self, b: &mut FunctionBuilder) {
        let Some((exec, k)) = self.run.take() else { return };
        let pop = b.ins().popcnt(exec);
        let pop = b.ins().uextend(types::I64, pop);
        let n = if k == 1 { pop } else { b.ins().imul_imm(pop, k) };
        self.lanes = Some(match self.lanes {
            Some(l) => b.ins().iadd(l, n),
            None => n,
        });
    }

    /// Adds the cached counts to the context.
    pub fn flush_counts(&mut self, b: &mut FunctionBuilder, env: &Env) {
        self.close_run(b);
        if self.insts != 0 {
            add(b, env.ctx, std::mem::offset_of!(Ctx, insts), None, self.insts);
            self.insts = 0;
        }
        if let Some(l) = self.lanes.take() {
            add(b, env.ctx, std::mem::offset_of!(Ctx, lanes), Some(l), 0);
        }
    }

    /// Stores every written register and the counts; the cache stays valid (the code goes on
    /// to a branch or an exit, which start from the wave's memory copy).
    pub fn flush(&mut self, b: &mut FunctionBuilder, env: &Env) {
        self.flush_counts(b, env);
        for (r, e) in self.v.iter_mut().filter(|(_, e)| e.dirty) {
            store_row(b, env, *r, &e.row);
            e.dirty = false;
        }
        for (r, (v, dirty)) in self.s.iter_mut().filter(|(_, (_, d))| *d) {
            b.ins().store(FLAGS, *v, env.s, 4 * *r as i32);
            *dirty = false;
        }
        if let Some((v, true)) = self.scc {
            b.ins().store(FLAGS, v, env.scc, 0);
            self.scc = Some((v, false));
        }
    }
}

fn store_row(b: &mut FunctionBuilder, env: &Env, r: u32, row: &Row) {
    for (c, v) in row.iter().enumerate() {
        b.ins().store(FLAGS, *v, env.v, r as i32 * ROW + 16 * c as i32);
    }
}

/// `ctx.field += value` (a value, or the constant `k`).
fn add(b: &mut FunctionBuilder, ctx: Value, offset: usize, value: Option<Value>, k: i64) {
    let n = b.ins().load(types::I64, FLAGS, ctx, offset as i32);
    let n = match value {
        Some(v) => b.ins().iadd(n, v),
        None => b.ins().iadd_imm(n, k),
    };
    b.ins().store(FLAGS, n, ctx, offset as i32);
}

/// Per chunk, all-ones lanes where bit `lane` of `mask` is set.
pub(super) fn lane_mask(b: &mut FunctionBuilder, mask: Value) -> Row {
    let m = b.ins().splat(I32X4, mask);
    let z = b.ins().iconst(types::I32, 0);
    let zero = b.ins().splat(I32X4, z);
    std::array::from_fn(|c| {
        let bits: Vec<u8> = (0..4).flat_map(|l| (1u32 << (4 * c + l)).to_le_bytes()).collect();
        let k = b.func.dfg.constants.insert(ConstantData::from(bits));
        let k = b.ins().vconst(I32X4, k);
        let x = b.ins().band(m, k);
        b.ins().icmp(IntCC::NotEqual, x, zero)
    })
}

// Eight chunks of four 4-byte lanes are one wave32 row.
const _: () = assert!(CHUNKS * 4 * 4 == ROW as usize);
