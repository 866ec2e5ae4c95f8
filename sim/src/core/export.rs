//! EXP: the values a wave sends to the fixed-function blocks, captured for them.
//!
//! The export targets are those of the EXP encoding: MRT0..7 = 0..7, MRTZ = 8, NULL = 9,
//! POS0..3 = 12..15, PRIM = 20, PARAM0..31 = 32..63. Each export records its source registers
//! as they were when it issued (with `compr`, two registers each packing two 16-bit values)
//! and the EXEC mask, which for the last pixel-shader export with VM set is the valid-pixel
//! mask (discarded pixels have their bit clear).

use ferrum_isa::Exp;

use super::wave::{fault, Lanes, Wave, LANES, R};

/// One executed export.
#[derive(Debug, Clone)]
pub struct Export {
    pub target: u8,
    /// Enabled slots (bits 0..3).
    pub en: u8,
    pub compr: bool,
    pub done: bool,
    pub vm: bool,
    pub exec: u32,
    /// Slot values (with `compr`, only the first two are meaningful).
    pub data: [Lanes; 4],
}

pub fn exec(w: &mut Wave, e: &Exp) -> R<()> {
    if !matches!(e.target, 0..=9 | 12..=15 | 20 | 32..=63) {
        return fault(format!("export target {} does not exist", e.target));
    }
    let mut data = [[0u32; LANES]; 4];
    let regs = if e.compr { 2 } else { 4 };
    for (slot, d) in data.iter_mut().enumerate().take(regs) {
        let enabled = if e.compr { e.en >> (2 * slot) & 3 != 0 } else { e.en >> slot & 1 != 0 };
        if enabled {
            *d = *w.vrow(e.src[slot] as u32)?;
        }
    }
    let exec = w.exec();
    w.exports.push(Export {
        target: e.target,
        en: e.en,
        compr: e.compr,
        done: e.done,
        vm: e.vm,
        exec,
        data,
    });
    Ok(())
}
