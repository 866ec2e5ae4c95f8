//! The fast path of untyped loads and stores ([`super::vmem_fast`]) against the exact
//! per-lane path on random accesses: near and across mapping ends, into unmapped and
//! read-only pages, unaligned, overlapping, under random EXEC. Registers, pending loads,
//! memory and fault reports must all be identical.

use std::sync::Arc;

use super::*;
use crate::core::address;
use crate::kernel::{GemObject, MemoryAccounting, Vm, PAGE_SIZE};
use fastrand::Rng;
use ferrum_winsys::uapi::{AMDGPU_VM_PAGE_READABLE as RD, AMDGPU_VM_PAGE_WRITEABLE as WR};

/// Two adjacent read-write mappings `[0, 3)` pages, a hole at page 3, a read-only page 4.
struct Memory {
    vm: Vm,
    gems: Vec<Arc<GemObject>>,
    base: u64,
}

impl Memory {
    fn new() -> Memory {
        let vm = Vm::new(crate::NAVI21);
        let acct = Arc::new(MemoryAccounting::default());
        let base = crate::NAVI21.va_start + 0x10_0000;
        let mut gems = Vec::new();
        for (page, pages, flags) in [(0, 2, RD | WR), (2, 1, RD | WR), (4, 1, RD)] {
            let gem = Arc::new(GemObject::new(pages * PAGE_SIZE, 4, 0, 0, acct.clone()).unwrap());
            vm.map(gem.clone(), base + page * PAGE_SIZE, 0, pages * PAGE_SIZE, flags).unwrap();
            gems.push(gem);
        }
        Memory { vm, gems, base }
    }

    /// Fills every mapping with a pattern that differs per byte.
    fn reset(&self) {
        for (g, gem) in self.gems.iter().enumerate() {
            // SAFETY: the object's own allocation, of `size` bytes; nothing else uses it now.
            let bytes =
                unsafe { std::slice::from_raw_parts_mut(gem.host_ptr(), gem.size as usize) };
            for (k, b) in bytes.iter_mut().enumerate() {
                *b = (k as u8).wrapping_mul(31).wrapping_add(g as u8 * 97);
            }
        }
    }

    fn contents(&self) -> Vec<u8> {
        self.gems
            .iter()
            // SAFETY: as in `reset`, read only.
            .flat_map(|g| unsafe { std::slice::from_raw_parts(g.host_ptr(), g.size as usize) })
            .copied()
            .collect()
    }
}

const KINDS: [Kind; 12] = [
    Kind::Load { bytes: 1, signed: true },
    Kind::Load { bytes: 1, signed: false },
    Kind::Load { bytes: 2, signed: true },
    Kind::Load { bytes: 2, signed: false },
    Kind::Load { bytes: 4, signed: false },
    Kind::Load { bytes: 8, signed: false },
    Kind::Load { bytes: 16, signed: false },
    Kind::Store { bytes: 1 },
    Kind::Store { bytes: 2 },
    Kind::Store { bytes: 4 },
    Kind::Store { bytes: 12 },
    Kind::Store { bytes: 16 },
];

/// Lane addresses: a contiguous run (the common case), a run with a stride, or scattered
/// lanes, starting anywhere from just before the first mapping to the read-only page's end.
fn lane_addresses(r: &mut Rng, base: u64, bytes: u32) -> [u64; LANES] {
    let page = PAGE_SIZE;
    let near = [0, 2 * page, 3 * page, 4 * page, 5 * page];
    let edge = near[r.u64(..near.len() as u64) as usize];
    let start = (base + edge).wrapping_sub(r.u64(..96)) & !u64::from(r.u64(..2) as u32 * 3);
    let stride = match r.u64(..4) {
        0 => 0,
        1 => u64::from(bytes) + 4 * r.u64(..3),
        _ => u64::from(bytes),
    };
    if r.u64(..5) == 0 {
        return std::array::from_fn(|_| base + r.u64(..5 * page + 64));
    }
    std::array::from_fn(|l| start + l as u64 * stride)
}

fn exec_mask(r: &mut Rng) -> u32 {
    match r.u64(..6) {
        0 => u32::MAX,
        1 => 0,
        2 => 1 << r.u64(..32),
        3 => 0x8000_0001,
        _ => r.u64(..) as u32,
    }
}

/// One access on both paths from the same state: (registers, pending loads, memory, result).
#[test]
fn fast_path_matches_the_exact_path() {
    let memory = Memory::new();
    let space = memory.vm.snapshot();
    let mem = Mem { space: &space, timestamp: &|| 0 };
    let mut r = Rng::with_seed(0x5eed_f00d_1234_5678);
    let (mut fast, mut faults) = (0, 0);
    for trial in 0..4000 {
        let kind = KINDS[r.u64(..KINDS.len() as u64) as usize];
        let bytes = match kind {
            Kind::Load { bytes, .. } | Kind::Store { bytes } => bytes,
            _ => unreachable!(),
        };
        let exec = exec_mask(&mut r);
        let at = lane_addresses(&mut r, memory.base, bytes);
        let addrs: Addrs = std::array::from_fn(|l| address::linear_dwords(at[l], bytes));
        let init: Vec<[u32; LANES]> =
            (0..12).map(|_| std::array::from_fn(|_| r.u64(..) as u32)).collect();
        let vdata = 2 + r.u64(..6) as u32;
        let dd = bytes.div_ceil(4);
        let mut outcomes = Vec::new();
        for use_fast in [false, true] {
            memory.reset();
            let mut w = Wave::new(12, true);
            w.v.clone_from(&init);
            let took = match use_fast {
                true => {
                    let span = |bytes| Span::gather(exec, bytes, |l| Some(at[l]));
                    try_fast(&mut w, &mem, kind, exec, vdata, span)
                }
                false => Ok(false),
            };
            let result = match took {
                Ok(true) => Ok(()),
                Ok(false) => access(&mut w, &mem, kind, &addrs, exec, vdata, dd, false),
                Err(ref e) => Err(e.clone()),
            };
            fast += u32::from(matches!(took, Ok(true)));
            faults += u32::from(use_fast && result.is_err());
            let pending = w.pending_count();
            outcomes.push((w.v, pending, memory.contents(), format!("{result:?}")));
        }
        let [exact, quick] = [&outcomes[0], &outcomes[1]];
        let what = format!("trial {trial}: {kind:?} exec {exec:#x} lanes at {:#x}..", at[0]);
        assert_eq!(exact.3, quick.3, "{what}: result");
        assert!(exact.0 == quick.0, "{what}: registers differ");
        assert_eq!(exact.1, quick.1, "{what}: pending loads");
        assert!(exact.2 == quick.2, "{what}: memory differs");
    }
    // Neither path may be vacuous: both must have run often, and faults been compared.
    assert!(fast > 500 && fast < 3500, "{fast} of 4000 accesses took the fast path");
    assert!(faults > 100, "only {faults} faulting accesses");
}

/// A V# over `[base, base + records)` (stride 0, raw buffer) with the given OOB_SELECT, and
/// sometimes SWIZZLE_ENABLE or ADD_TID_ENABLE (which the decoded path leaves to the exact
/// one).
fn random_vsharp(r: &mut Rng, base: u64, records: u32) -> [u32; 4] {
    let stride = match r.u64(..4) {
        0 => 4 + 4 * r.u64(..4) as u32,
        _ => 0,
    };
    let swizzle = u32::from(r.u64(..8) == 0) << 31;
    let add_tid = u32::from(r.u64(..8) == 0) << 23;
    let oob = match r.u64(..4) {
        0 => r.u64(..3) as u32,
        _ => 3,
    };
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | stride << 16 | swizzle,
        records,
        1 << 24 | add_tid | oob << 28 | 3 << 21,
    ]
}

/// [`BufferOp::run`] (the decoded instruction, through [`Span::offsets`] and the dense block
/// copies) against the exact per-lane path, from V#s in SGPRs, VGPR offsets, `soffset` and
/// the instruction offset: consecutive lanes (dense), gaps, scattered, ranges cut by
/// NUM_RECORDS, mapping ends, read-only pages.
#[test]
fn decoded_buffer_ops_match_the_exact_path() {
    use crate::core::mem_op::BufferOp;
    use ferrum_isa::{Operand, Special};
    let memory = Memory::new();
    let space = memory.vm.snapshot();
    let mem = Mem { space: &space, timestamp: &|| 0 };
    let mut r = Rng::with_seed(0xdec0_ded0_0b0f_f5e7);
    let (mut dense, mut fast, mut faults) = (0, 0, 0);
    for trial in 0..4000 {
        let kind = KINDS[r.u64(..KINDS.len() as u64) as usize];
        let bytes = match kind {
            Kind::Load { bytes, .. } | Kind::Store { bytes } => bytes,
            _ => unreachable!(),
        };
        // Every lane half of the time: dense spans need it.
        let exec = if r.bool() { u32::MAX } else { exec_mask(&mut r) };
        let page = PAGE_SIZE;
        let start = [0, page, 2 * page + 0x800, 4 * page - 8][r.usize(..4)];
        let base = memory.base + start;
        let records = match r.u64(..4) {
            0 => u32::MAX,
            1 => r.u32(..0x1000),
            _ => (5 * page - start) as u32,
        };
        let vsharp = random_vsharp(&mut r, base, records);
        let soffset = [0, 4, 12, 0x40][r.usize(..4)];
        let offset = [0, 4, 8, 0xffc][r.usize(..4)] as u16;
        let first = r.u32(..0x1800) & !(r.u32(..2) * 3);
        let step = [bytes, bytes, bytes, bytes + 4, 0][r.usize(..5)];
        let mut row: [u32; LANES] = std::array::from_fn(|l| first + l as u32 * step);
        let moved = r.u64(..6) == 0;
        if moved {
            row[r.usize(..LANES)] = r.u32(..0x5000);
        }
        let op = BufferOp {
            store: matches!(kind, Kind::Store { .. }),
            bytes,
            signed: matches!(kind, Kind::Load { signed: true, .. }),
            offen: true,
            vaddr: 1,
            vdata: 2 + r.u64(..6) as u8,
            srsrc: 8,
            soffset: match soffset {
                0 => Operand::Special(Special::Null),
                _ => Operand::Sgpr(12),
            },
            offset,
        };
        let init: Vec<[u32; LANES]> =
            (0..12).map(|_| std::array::from_fn(|_| r.u64(..) as u32)).collect();
        let mut outcomes = Vec::new();
        let mut took = false;
        for decoded in [false, true] {
            memory.reset();
            let mut w = Wave::new(12, true);
            w.v.clone_from(&init);
            w.v[1] = row;
            w.s[8..12].copy_from_slice(&vsharp);
            w.s[12] = soffset;
            w.set_exec(exec);
            let exact = |w: &mut Wave| {
                let vs = Vsharp::parse(&vsharp);
                let index = [0; LANES];
                let offsets = std::array::from_fn(|l| u64::from(offset) + u64::from(row[l]));
                let addrs = vs.addresses(u64::from(soffset), &index, &offsets, bytes)?;
                access(w, &mem, kind, &addrs, exec, u32::from(op.vdata), bytes.div_ceil(4), false)
            };
            let result = match decoded {
                false => exact(&mut w),
                true => match op.run(&mut w, &mem) {
                    Ok(true) => {
                        took = true;
                        Ok(())
                    }
                    Ok(false) => exact(&mut w),
                    Err(e) => Err(e),
                },
            };
            faults += u32::from(decoded && result.is_err());
            let pending = w.pending_count();
            outcomes.push((w.v, pending, memory.contents(), format!("{result:?}")));
        }
        fast += u32::from(took);
        let consecutive = !moved && step == bytes && bytes % 4 == 0;
        dense += u32::from(took && exec == u32::MAX && consecutive);
        let [exact, quick] = [&outcomes[0], &outcomes[1]];
        let what = format!("trial {trial}: {op:?} exec {exec:#x} V# {vsharp:x?} row {row:x?}");
        assert_eq!(exact.3, quick.3, "{what}: result");
        assert!(exact.0 == quick.0, "{what}: registers differ");
        assert_eq!(exact.1, quick.1, "{what}: pending loads");
        assert!(exact.2 == quick.2, "{what}: memory differs");
    }
    assert!(fast > 800 && fast < 3500, "{fast} of 4000 accesses took the decoded path");
    assert!(dense > 150, "only {dense} dense accesses");
    assert!(faults > 100, "only {faults} faulting accesses");
}
