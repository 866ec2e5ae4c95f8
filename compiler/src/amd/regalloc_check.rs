//! The register-allocation checker (after regalloc2's): a forward data-flow over physical
//! registers proving that every register read sees the virtual register its operand names,
//! on every path. Reads of a virtual register that is not written on every path to the read
//! (φ registers and mask accumulators, read before their first write on purpose) are exempt:
//! a must-be-defined analysis runs alongside and only fully defined reads are checked.

use super::error::BackendError;
use super::mir::{MFunc, RegClass};
use super::regalloc::Assignment;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    /// Not reached yet.
    Bottom,
    /// Reached, never written.
    Undef,
    /// Holds dword `.1` of virtual register `.0` (on some paths possibly undefined: `.2`).
    Val(u32, u8),
    /// Different values on different paths.
    Conflict,
}

fn merge(a: Cell, b: Cell) -> Cell {
    use Cell::*;
    match (a, b) {
        (Bottom, x) | (x, Bottom) => x,
        (Undef, Undef) => Undef,
        (Val(v, d), Undef) | (Undef, Val(v, d)) => Val(v, d),
        (Val(v, d), Val(w, e)) if v == w && d == e => Val(v, d),
        _ => Conflict,
    }
}

const S_BASE: usize = 0;
const V_BASE: usize = 128;
const CELLS: usize = V_BASE + 256;

fn cell_index(class: RegClass, r: u8) -> usize {
    match class {
        RegClass::S => S_BASE + r as usize,
        RegClass::V => V_BASE + r as usize,
    }
}

/// Checks the allocation of `mf` (before rewriting; operands still name virtual registers).
pub fn check(mf: &MFunc, a: &Assignment) -> Result<(), BackendError> {
    let nb = mf.blocks.len();
    let nv = mf.vregs.len();
    let mut entry = vec![vec![Cell::Bottom; CELLS]; nb];
    // Must-defined virtual registers at block entry (None = not reached yet).
    let mut defined: Vec<Option<Vec<bool>>> = vec![None; nb];
    entry[0] = vec![Cell::Undef; CELLS];
    let mut d0 = vec![false; nv];
    for (v, info) in mf.vregs.iter().enumerate() {
        if let (Some(f), true) = (info.fixed, a.reg[v] != u8::MAX) {
            d0[v] = true;
            for d in 0..info.size {
                entry[0][cell_index(info.class, f + d)] = Cell::Val(v as u32, d);
            }
        }
    }
    defined[0] = Some(d0);
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| mf.succs(b)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            if entry[b].iter().all(|c| *c == Cell::Bottom) {
                continue;
            }
            let mut st = entry[b].clone();
            let mut def = defined[b].clone().unwrap_or_else(|| vec![false; nv]);
            for (i, mi) in mf.blocks[b].insts.iter().enumerate() {
                for u in &mi.uses {
                    let v = u.reg.vreg.0 as usize;
                    if !def[v] {
                        continue;
                    }
                    let info = mf.vregs[v];
                    for d in 0..u.dwords {
                        let dw = u.reg.off + d;
                        let c = st[cell_index(info.class, a.reg[v].wrapping_add(dw))];
                        if !matches!(c, Cell::Val(x, y) if x as usize == v && y == dw)
                            && c != Cell::Undef
                        {
                            return Err(BackendError::RegallocCheck(format!(
                                "block {b} instruction {i} ({}): v{v}.{dw} reads {c:?}",
                                mi.inst.op().name()
                            )));
                        }
                    }
                }
                for d in &mi.defs {
                    let v = d.reg.vreg.0 as usize;
                    let info = mf.vregs[v];
                    if d.reg.off == 0 && d.dwords == info.size {
                        def[v] = true;
                    }
                    for k in 0..d.dwords {
                        let dw = d.reg.off + k;
                        st[cell_index(info.class, a.reg[v].wrapping_add(dw))] =
                            Cell::Val(v as u32, dw);
                    }
                }
            }
            for &s in &succs[b] {
                match &mut defined[s] {
                    slot @ None => {
                        *slot = Some(def.clone());
                        changed = true;
                    }
                    Some(d) => {
                        for (x, y) in d.iter_mut().zip(&def) {
                            if *x && !*y {
                                *x = false;
                                changed = true;
                            }
                        }
                    }
                }
                for (x, c) in entry[s].iter_mut().zip(&st) {
                    let m = merge(*x, *c);
                    if m != *x {
                        *x = m;
                        changed = true;
                    }
                }
            }
        }
    }
    Ok(())
}
