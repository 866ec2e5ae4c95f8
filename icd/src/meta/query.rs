//! `vkCmdCopyQueryPoolResults` as a compute kernel: one invocation per query reads its slot
//! (layouts in [`crate::core::query`]), computes the results — the sum over the render
//! backends of end − begin for occlusion, end − begin of each requested counter for pipeline
//! statistics, the value for timestamps — and its availability, and writes what the flags
//! ask for (RADV resolves queries with compute shaders for the same reason: the CP cannot add).
//!
//! 64-bit arithmetic is done on 32-bit halves with explicit borrows and carries, so the kernel
//! needs nothing of the compiler's 64-bit lowering. The result flags are push constants, so one
//! kernel per query type serves every flag combination.

use ash::vk;
use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::ir::{AluOp, Shader, Value};
use ferrum_compiler::meta::KernelBuilder;

use super::Kernel;
use crate::cmd::copy::buffer_address;
use crate::cmd::query::CopyTarget;
use crate::cmd::stream::CmdStream;
use crate::core::query::{
    QueryKind, QueryPool, AVAILABILITY_OFFSET, OCCLUSION_RBS, STATS_AVAILABILITY, STATS_BLOCK,
    STATS_HW_INDEX,
};
use crate::descriptor::vsharp;
use crate::error::VkResult;

const GROUP: u32 = 64;

/// The slot layout a kernel reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    Timestamp,
    Occlusion,
    Statistics,
}

/// Push-constant flag bits (dword 1).
const WIDE: u32 = 1;
const WITH_AVAILABILITY: u32 = 2;
const PARTIAL: u32 = 4;

/// A 64-bit value as (low, high) 32-bit halves.
type Pair = (Value, Value);

fn slot_bytes(l: Layout) -> u32 {
    let kind = match l {
        Layout::Timestamp => QueryKind::Timestamp,
        Layout::Occlusion => QueryKind::Occlusion,
        Layout::Statistics => {
            QueryKind::PipelineStatistics(vk::QueryPipelineStatisticFlags::empty())
        }
    };
    kind.slot_bytes() as u32
}

/// `a - b` on (lo, hi) halves.
fn sub64(k: &mut KernelBuilder, a: Pair, b: Pair) -> Pair {
    let lo = k.op(AluOp::Isub, &[a.0, b.0]);
    let borrow = k.cmp(AluOp::Ult, a.0, b.0);
    let borrow = k.alu(AluOp::B2i, 32, 1, &[borrow]);
    let hi = k.op(AluOp::Isub, &[a.1, b.1]);
    (lo, k.op(AluOp::Isub, &[hi, borrow]))
}

/// `a + b` on (lo, hi) halves.
fn add64(k: &mut KernelBuilder, a: Pair, b: Pair) -> Pair {
    let lo = k.op(AluOp::Iadd, &[a.0, b.0]);
    let carry = k.cmp(AluOp::Ult, lo, b.0);
    let carry = k.alu(AluOp::B2i, 32, 1, &[carry]);
    let hi = k.op(AluOp::Iadd, &[a.1, b.1]);
    (lo, k.op(AluOp::Iadd, &[hi, carry]))
}

/// The 64-bit word at `base + at` of the source buffer.
fn load64(k: &mut KernelBuilder, src: Value, base: Value, at: u32) -> Pair {
    let off = k.imm(at);
    let off = k.op(AluOp::Iadd, &[base, off]);
    let v = k.buffer_load(src, off, 2);
    (k.component(v, 0), k.component(v, 1))
}

/// Whether the dword at `base + at` is non-zero.
fn flag_set(k: &mut KernelBuilder, src: Value, base: Value, at: u32) -> Value {
    let off = k.imm(at);
    let off = k.op(AluOp::Iadd, &[base, off]);
    let v = k.buffer_load(src, off, 1);
    let zero = k.imm(0);
    k.cmp(AluOp::Ine, v, zero)
}

/// Occlusion: (available, sum over RBs of end − begin without the valid bits).
fn occlusion(k: &mut KernelBuilder, src: Value, base: Value) -> (Value, Pair) {
    let zero = k.imm(0);
    let count_mask = k.imm(0x7fff_ffff);
    let valid_bit = k.imm(1 << 31);
    let mut sum = (zero, zero);
    let mut valid = valid_bit;
    for rb in 0..OCCLUSION_RBS as u32 {
        let off = k.imm(16 * rb);
        let off = k.op(AluOp::Iadd, &[base, off]);
        let w = k.buffer_load(src, off, 4);
        let c: Vec<Value> = (0..4).map(|i| k.component(w, i)).collect();
        valid = k.op(AluOp::Iand, &[valid, c[1]]);
        valid = k.op(AluOp::Iand, &[valid, c[3]]);
        let begin_hi = k.op(AluOp::Iand, &[c[1], count_mask]);
        let end_hi = k.op(AluOp::Iand, &[c[3], count_mask]);
        let d = sub64(k, (c[2], end_hi), (c[0], begin_hi));
        sum = add64(k, sum, d);
    }
    let available = k.cmp(AluOp::Ine, valid, zero);
    (available, sum)
}

/// Writes result `index` (a value or the availability) of the query at `out`.
fn put(k: &mut KernelBuilder, dst: Value, out: Value, flags: Value, index: Value, v: Pair) {
    let four = k.imm(4);
    let wide_bit = k.imm(WIDE);
    let wide = k.op(AluOp::Iand, &[flags, wide_bit]);
    let zero = k.imm(0);
    let wide = k.cmp(AluOp::Ine, wide, zero);
    let eight = k.imm(8);
    let item = k.alu(AluOp::Bcsel, 32, 1, &[wide, eight, four]);
    let at = k.op(AluOp::Imul, &[index, item]);
    let at = k.op(AluOp::Iadd, &[out, at]);
    k.buffer_store(dst, at, v.0);
    k.if_then(wide, |k| {
        let at4 = k.op(AluOp::Iadd, &[at, four]);
        k.buffer_store(dst, at4, v.1);
    });
}

/// Push constants (dwords): 0 query count, 1 flags (WIDE, WITH_AVAILABILITY, PARTIAL),
/// 2 destination stride, 3 the pool's statistics mask. Binding 0: the first query's slot
/// onwards (storage buffer V#, byte 0); binding 1: the destination from its offset (byte 16).
pub(super) fn kernel(l: Layout) -> (Shader, ResourceLayout) {
    let mut k = KernelBuilder::new("ferrum_meta_query", [GROUP, 1, 1]);
    let g = k.global_id();
    let i = k.component(g, 0);
    let pc = k.push_constants(0, 4);
    let (count, flags, stride, mask) =
        (k.component(pc, 0), k.component(pc, 1), k.component(pc, 2), k.component(pc, 3));
    let inside = k.cmp(AluOp::Ult, i, count);
    k.if_then(inside, |k| {
        let src = k.descriptor(0, 0, None);
        let dst = k.descriptor(0, 1, None);
        let slot = k.imm(slot_bytes(l));
        let base = k.op(AluOp::Imul, &[i, slot]);
        let out = k.op(AluOp::Imul, &[i, stride]);
        let zero = k.imm(0);
        let partial_bit = k.imm(PARTIAL);
        let partial = k.op(AluOp::Iand, &[flags, partial_bit]);
        let partial = k.cmp(AluOp::Ine, partial, zero);
        let (available, values) = match l {
            Layout::Timestamp => {
                let a = flag_set(k, src, base, AVAILABILITY_OFFSET as u32);
                (a, vec![(None, load64(k, src, base, 0))])
            }
            Layout::Occlusion => {
                let (a, sum) = occlusion(k, src, base);
                (a, vec![(None, sum)])
            }
            Layout::Statistics => {
                let a = flag_set(k, src, base, STATS_AVAILABILITY as u32);
                let v = (0..STATS_HW_INDEX.len() as u32)
                    .map(|bit| {
                        let hw = 8 * STATS_HW_INDEX[bit as usize];
                        let begin = load64(k, src, base, hw);
                        let end = load64(k, src, base, STATS_BLOCK as u32 + hw);
                        (Some(bit), sub64(k, end, begin))
                    })
                    .collect();
                (a, v)
            }
        };
        // Unavailable results are written only with PARTIAL, as 0 (an intermediate value).
        let write = k.alu(AluOp::Ior, 1, 1, &[available, partial]);
        k.if_then(write, |k| {
            for (bit, v) in &values {
                let lo = k.alu(AluOp::Bcsel, 32, 1, &[available, v.0, zero]);
                let hi = k.alu(AluOp::Bcsel, 32, 1, &[available, v.1, zero]);
                match bit {
                    None => put(k, dst, out, flags, zero, (lo, hi)),
                    Some(bit) => {
                        // The counter's place among the requested ones: the set bits below it.
                        let below = k.imm((1 << bit) - 1);
                        let below = k.op(AluOp::Iand, &[mask, below]);
                        let index = k.op(AluOp::BitCount, &[below]);
                        let one = k.imm(1);
                        let b = k.imm(*bit);
                        let on = k.op(AluOp::Ushr, &[mask, b]);
                        let on = k.op(AluOp::Iand, &[on, one]);
                        let on = k.cmp(AluOp::Ine, on, zero);
                        k.if_then(on, |k| put(k, dst, out, flags, index, (lo, hi)));
                    }
                }
            }
        });
        let avail_bit = k.imm(WITH_AVAILABILITY);
        let with_avail = k.op(AluOp::Iand, &[flags, avail_bit]);
        let with_avail = k.cmp(AluOp::Ine, with_avail, zero);
        k.if_then(with_avail, |k| {
            let n = match l {
                Layout::Statistics => k.op(AluOp::BitCount, &[mask]),
                _ => k.imm(1),
            };
            let a = k.alu(AluOp::B2i, 32, 1, &[available]);
            put(k, dst, out, flags, n, (a, zero));
        });
    });
    let mut layout = ResourceLayout::default();
    let b = |offset| BindingLayout { kind: DescriptorKind::StorageBuffer, offset, array_size: 1 };
    layout.bindings.insert((0, 0), b(0));
    layout.bindings.insert((0, 1), b(16));
    (k.finish(), layout)
}

/// Records the copy of queries `first..first + count` (checked by the caller).
pub fn copy_results(
    s: &mut CmdStream,
    pool: &QueryPool,
    first: u32,
    count: u32,
    t: &CopyTarget<'_>,
) -> VkResult<()> {
    let (layout, mask) = match pool.kind {
        QueryKind::Timestamp => (Layout::Timestamp, 0),
        QueryKind::Occlusion => (Layout::Occlusion, 0),
        QueryKind::PipelineStatistics(f) => (Layout::Statistics, f.as_raw()),
    };
    let src_va = pool.slot_va(first);
    let src_bytes = pool.kind.slot_bytes() * u64::from(count);
    let dst_va = buffer_address(t.dst, t.offset)?;
    let mut set = vsharp::buffer(src_va, src_bytes).to_vec();
    set.extend(vsharp::buffer(dst_va, t.dst.size - t.offset));
    let f = t.flags;
    let bit = |flag, bit: u32| if f.contains(flag) { bit } else { 0 };
    let flags = bit(vk::QueryResultFlags::TYPE_64, WIDE)
        | bit(vk::QueryResultFlags::WITH_AVAILABILITY, WITH_AVAILABILITY)
        | bit(vk::QueryResultFlags::PARTIAL, PARTIAL);
    let stride = u32::try_from(t.stride).map_err(|_| {
        crate::error::VkError::FeatureNotPresent("query copy stride >= 4 GiB".into())
    })?;
    let push = [count, flags, stride, mask];
    super::begin(s)?;
    super::run(s, Kernel::Query(layout), &set, &push, [count.div_ceil(GROUP), 1, 1])?;
    super::end(s)
}
