//! Reference semantics of subgroup operations over one group of lanes that execute an
//! operation together (the active lanes of a wave at that point).
//!
//! Folds run in ascending lane order. Integer results do not depend on the order; float
//! sums and products do, so the backend (which combines lanes in a tree) matches the
//! interpreter only where the inputs make the order irrelevant (exactly representable partial
//! results), which is what the corpus uses.

use super::InterpError;
use crate::ir::{ops, AluOp, SubgroupOp};

/// One active lane: its id in the wave and its source components.
pub struct Lane {
    /// Lane id (0..32).
    pub id: u32,
    /// Source values, one `Vec` of components per source.
    pub srcs: Vec<Vec<u64>>,
}

/// The identity element of a reduction on `bits`-bit components.
pub fn identity(op: AluOp, bits: u8) -> Result<u64, InterpError> {
    let m = ops::mask(bits);
    let float_one = |b: u8| match b {
        16 => 0x3c00,
        32 => 0x3f80_0000,
        _ => 0x3ff0_0000_0000_0000,
    };
    let inf = |b: u8| match b {
        16 => 0x7c00u64,
        32 => 0x7f80_0000,
        _ => 0x7ff0_0000_0000_0000,
    };
    Ok(match op {
        AluOp::Iadd | AluOp::Fadd | AluOp::Ior | AluOp::Ixor | AluOp::Umax => 0,
        AluOp::Imul => 1,
        AluOp::Fmul => float_one(bits),
        AluOp::Iand | AluOp::Umin => m,
        AluOp::Imin => m >> 1,
        AluOp::Imax => (m >> 1) ^ m,
        AluOp::Fmin => inf(bits),
        AluOp::Fmax => inf(bits) | (1 << (bits - 1)),
        other => {
            return Err(InterpError::Invalid(format!(
                "{} is not a subgroup reduction",
                other.name()
            )))
        }
    })
}

fn combine(op: AluOp, bits: u8, a: &[u64], b: &[u64]) -> Result<Vec<u64>, InterpError> {
    if bits == 1 {
        // Booleans fold as 0/1 bit patterns with the logical ops.
        let r = a.iter().zip(b).map(|(x, y)| match op {
            AluOp::Iand => x & y,
            AluOp::Ior => x | y,
            _ => x ^ y,
        });
        return Ok(r.collect());
    }
    let n = a.len() as u8;
    ops::eval(op, bits, n, &[ops::Src { bits, comps: a }, ops::Src { bits, comps: b }])
        .map_err(|e| InterpError::Invalid(e.to_string()))
}

fn fold<'a>(
    op: AluOp,
    bits: u8,
    comps: usize,
    vals: impl Iterator<Item = &'a Vec<u64>>,
) -> Result<Vec<u64>, InterpError> {
    let id = if bits == 1 { u64::from(op == AluOp::Iand) } else { identity(op, bits)? };
    let mut acc = vec![id; comps];
    for v in vals {
        acc = combine(op, bits, &acc, v)?;
    }
    Ok(acc)
}

/// Results per lane (in the order of `lanes`) of `op`; `bits`/`comps` describe the first
/// source (the result for data-moving ops).
pub fn eval(
    op: SubgroupOp,
    bits: u8,
    comps: usize,
    lanes: &[Lane],
) -> Result<Vec<Vec<u64>>, InterpError> {
    let src = |l: &Lane, i: usize| -> Result<Vec<u64>, InterpError> {
        l.srcs.get(i).cloned().ok_or_else(|| InterpError::Invalid("subgroup op arity".into()))
    };
    let lane_of = |id: u64| lanes.iter().find(|l| u64::from(l.id) == id);
    // Reading an inactive or out-of-range lane is undefined; we return zeros.
    let read = |id: u64| lane_of(id).map_or(Ok(vec![0; comps]), |l| src(l, 0));
    let all = |f: &dyn Fn(&Lane) -> Result<Vec<u64>, InterpError>| lanes.iter().map(f).collect();
    let first = lanes.iter().min_by_key(|l| l.id).map(|l| l.id).unwrap_or(0);
    let uniform = |v: Vec<u64>| Ok(vec![v; lanes.len()]);
    match op {
        SubgroupOp::Elect => all(&|l| Ok(vec![u64::from(l.id == first)])),
        SubgroupOp::All | SubgroupOp::Any => {
            let t = lanes.iter().filter(|l| l.srcs[0][0] & 1 == 1).count();
            let r = if op == SubgroupOp::All { t == lanes.len() } else { t > 0 };
            uniform(vec![u64::from(r)])
        }
        SubgroupOp::AllEqual => {
            let v = read(u64::from(first))?;
            let eq = lanes.iter().all(|l| l.srcs[0] == v);
            uniform(vec![u64::from(eq)])
        }
        SubgroupOp::Ballot => {
            let m = lanes.iter().filter(|l| l.srcs[0][0] & 1 == 1).fold(0, |m, l| m | 1 << l.id);
            uniform(vec![m, 0, 0, 0])
        }
        SubgroupOp::BroadcastFirst => uniform(read(u64::from(first))?),
        SubgroupOp::Broadcast | SubgroupOp::Shuffle => all(&|l| read(src(l, 1)?[0] & 0xffff_ffff)),
        SubgroupOp::ShuffleXor => all(&|l| read(u64::from(l.id) ^ (src(l, 1)?[0] & 0xffff_ffff))),
        SubgroupOp::ShuffleUp => {
            all(&|l| read(u64::from(l.id).wrapping_sub(src(l, 1)?[0] & 0xffff_ffff)))
        }
        SubgroupOp::ShuffleDown => all(&|l| read(u64::from(l.id) + (src(l, 1)?[0] & 0xffff_ffff))),
        SubgroupOp::QuadBroadcast => all(&|l| read(u64::from(l.id & !3) | (src(l, 1)?[0] & 3))),
        SubgroupOp::QuadSwap(k) => all(&|l| read(u64::from(l.id ^ u32::from(k)))),
        SubgroupOp::Derivative { y, fine } => all(&|l| {
            // The two quad lanes whose difference this lane takes (see `SubgroupOp`).
            let (axis, other) = if y { (2, 1) } else { (1, 2) };
            let base = l.id & !3 | if fine { l.id & other } else { 0 };
            let hi = read(u64::from(base | axis))?;
            let lo = read(u64::from(base))?;
            combine(AluOp::Fsub, bits, &hi, &lo)
        }),
        SubgroupOp::Reduce(a) => uniform(fold(a, bits, comps, lanes.iter().map(|l| &l.srcs[0]))?),
        SubgroupOp::ClusteredReduce(a, n) => all(&|l| {
            let base = l.id & !(u32::from(n) - 1);
            let mut members: Vec<&Lane> =
                lanes.iter().filter(|o| o.id & !(u32::from(n) - 1) == base).collect();
            members.sort_by_key(|o| o.id);
            fold(a, bits, comps, members.iter().map(|o| &o.srcs[0]))
        }),
        SubgroupOp::InclusiveScan(a) | SubgroupOp::ExclusiveScan(a) => all(&|l| {
            let incl = matches!(op, SubgroupOp::InclusiveScan(_));
            let mut members: Vec<&Lane> =
                lanes.iter().filter(|o| o.id < l.id || incl && o.id == l.id).collect();
            members.sort_by_key(|o| o.id);
            fold(a, bits, comps, members.iter().map(|o| &o.srcs[0]))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(ids: &[u32], f: impl Fn(u32) -> u64) -> Vec<Lane> {
        ids.iter().map(|&id| Lane { id, srcs: vec![vec![f(id)], vec![1]] }).collect()
    }

    #[test]
    fn scans_skip_inactive_lanes() {
        // Lanes 1, 2 and 5 active with values 10, 20, 50.
        let l = lanes(&[1, 2, 5], |id| u64::from(id) * 10);
        let incl = eval(SubgroupOp::InclusiveScan(AluOp::Iadd), 32, 1, &l).unwrap();
        assert_eq!(incl, vec![vec![10], vec![30], vec![80]]);
        let excl = eval(SubgroupOp::ExclusiveScan(AluOp::Iadd), 32, 1, &l).unwrap();
        assert_eq!(excl, vec![vec![0], vec![10], vec![30]]);
        let min = eval(SubgroupOp::Reduce(AluOp::Imin), 32, 1, &l).unwrap();
        assert_eq!(min[2], vec![10]);
        let excl_min = eval(SubgroupOp::ExclusiveScan(AluOp::Imin), 32, 1, &l).unwrap();
        assert_eq!(excl_min[0], vec![0x7fff_ffff]);
    }

    #[test]
    fn ballot_elect_and_shuffles() {
        let l = lanes(&[3, 4, 7, 8], |id| u64::from(id % 2));
        assert_eq!(eval(SubgroupOp::Ballot, 1, 1, &l).unwrap()[0], vec![0b1000_1000, 0, 0, 0]);
        let e = eval(SubgroupOp::Elect, 1, 1, &l).unwrap();
        assert_eq!(e, vec![vec![1], vec![0], vec![0], vec![0]]);
        // Values id * 10; the second source (lane, mask or delta) is 1. Inactive sources give 0.
        let l = lanes(&[3, 4, 7, 8, 9], |id| u64::from(id) * 10);
        let x = eval(SubgroupOp::ShuffleXor, 32, 1, &l).unwrap();
        assert_eq!(x, vec![vec![0], vec![0], vec![0], vec![90], vec![80]]);
        let d = eval(SubgroupOp::ShuffleDown, 32, 1, &l).unwrap();
        assert_eq!(d, vec![vec![40], vec![0], vec![80], vec![90], vec![0]]);
        let u = eval(SubgroupOp::ShuffleUp, 32, 1, &l).unwrap();
        assert_eq!(u, vec![vec![0], vec![30], vec![0], vec![70], vec![80]]);
        let q = eval(SubgroupOp::QuadSwap(3), 32, 1, &l).unwrap();
        assert_eq!(q, vec![vec![0], vec![70], vec![40], vec![0], vec![0]]);
        let l = lanes(&[3, 4, 7, 8], |id| u64::from(id % 2));
        let c = eval(SubgroupOp::ClusteredReduce(AluOp::Iadd, 4), 32, 1, &l).unwrap();
        assert_eq!(c, vec![vec![1], vec![1], vec![1], vec![0]]);
    }

    #[test]
    fn derivatives_take_the_quad_lanes() {
        // Quad 1 (lanes 4..7) holds 1, 3, 7, 15 as f32: lane bit 0 is x, bit 1 is y.
        let v = [1.0f32, 3.0, 7.0, 15.0];
        let l = lanes(&[4, 5, 6, 7], |id| u64::from(v[id as usize - 4].to_bits()));
        let d = |y, fine| -> Vec<f32> {
            let r = eval(SubgroupOp::Derivative { y, fine }, 32, 1, &l).unwrap();
            r.iter().map(|c| f32::from_bits(c[0] as u32)).collect()
        };
        assert_eq!(d(false, false), [2.0; 4]);
        assert_eq!(d(false, true), [2.0, 2.0, 8.0, 8.0]);
        assert_eq!(d(true, false), [6.0; 4]);
        assert_eq!(d(true, true), [6.0, 12.0, 6.0, 12.0]);
    }
}
