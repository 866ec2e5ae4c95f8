//! A swizzle equation (one row per address bit within a block, selecting the x, y, z and
//! sample bits whose XOR gives it; see [`super::surface`]) turned into lookup tables.
//!
//! Evaluating the rows costs a parity per address bit (sixteen of them in a 64 KiB block),
//! for every texel the texture unit reads and every pixel the back end writes. The equation
//! is linear over GF(2), so the address bits are instead the XOR of one table entry per
//! 4-bit group of the coordinates the equation reads (four or five groups for a 2D surface).
//! The equations are the static tables of [`super::swizzle_table`]; each is compiled once
//! per process and kept.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Coordinates packed as the rows select them: x, y, z and the sample in 16-bit fields.
pub fn pack(x: u32, y: u32, z: u32, sample: u32) -> u64 {
    let field = |v: u32, at: u32| u64::from(v & 0xffff) << at;
    field(x, 0) | field(y, 16) | field(z, 32) | field(sample, 48)
}

/// One equation's tables: for each 4-bit group of the packed coordinates that some row
/// reads, its shift and the address bits each of the group's 16 values sets.
#[derive(Debug, PartialEq, Eq)]
pub struct Equation {
    groups: Vec<(u32, [u32; 16])>,
}

impl Equation {
    /// The tables of `rows` (an equation of the static tables), compiled on first use.
    pub fn of(rows: &[u64]) -> &'static Equation {
        type Cache = Mutex<HashMap<Vec<u64>, &'static Equation>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let mut cache = CACHE.get_or_init(Cache::default).lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = cache.get(rows) {
            return e;
        }
        // Kept for the process: one entry per equation of the static tables.
        let e: &'static Equation = Box::leak(Box::new(Equation::compile(rows)));
        cache.insert(rows.to_vec(), e);
        e
    }

    fn compile(rows: &[u64]) -> Equation {
        let groups = (0..16u32)
            .map(|g| 4 * g)
            .filter(|&shift| rows.iter().any(|r| r >> shift & 0xf != 0))
            .map(|shift| {
                let table = std::array::from_fn(|value| {
                    let bits = (value as u64) << shift;
                    let set = |(i, r): (usize, &u64)| ((bits & r).count_ones() & 1) << i;
                    rows.iter().enumerate().map(set).fold(0, |a, b| a | b)
                });
                (shift, table)
            })
            .collect();
        Equation { groups }
    }

    /// The address bits within the block for `coords` ([`pack`]).
    pub fn eval(&self, coords: u64) -> u32 {
        let at = |&(shift, ref t): &(u32, [u32; 16])| t[(coords >> shift & 0xf) as usize];
        self.groups.iter().map(at).fold(0, |a, b| a ^ b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables against the rows evaluated directly, on every static equation.
    #[test]
    fn tables_match_the_rows() {
        let mut r = fastrand::Rng::with_seed(0xe9);
        use super::super::swizzle_table as t;
        let tables: [(&[u64], usize); 6] = [
            (t::S256.as_flattened(), 8),
            (t::D4K_X.as_flattened(), 12),
            (t::S64K_T.as_flattened(), 16),
            (t::R64K_X8.as_flattened(), 16),
            (t::Z64K_X4.as_flattened(), 16),
            (t::D64K.as_flattened(), 16),
        ];
        for (all, n) in tables {
            for rows in all.chunks(n) {
                let e = Equation::of(rows);
                for _ in 0..500 {
                    let c = pack(r.u32(..), r.u32(..), r.u32(..), r.u32(..8));
                    let want = rows
                        .iter()
                        .enumerate()
                        .fold(0u32, |a, (i, row)| a | ((c & row).count_ones() & 1) << i);
                    assert_eq!(e.eval(c), want, "{rows:x?} at {c:#x}");
                }
            }
        }
    }
}
