//! Immediates on 16-bit operands, chosen the way LLVM's assembler chooses them.
//!
//! A 16-bit source reads only the low half of a literal, and the inline constants mean
//! 16-bit values there: the integers -16..=64 are their 16-bit two's-complement patterns, and
//! on half-precision float operands the float constants are the f16 encodings of ±0.5, ±1,
//! ±2, ±4 and 1/(2π) (0x3118). So a literal `0x3800` on `v_add_f16` and the inline `0.5` are
//! the same operand, and `llvm-mc` assembles the printed literal into the inline form. To keep
//! listings reassembling to the same words, producers fold such literals with
//! [`Inst::fold_half_immediates`]. Which operands are 16 bits wide, and which of those take
//! float constants, comes from the tables (`accept::HALF` with or without `accept::FLOAT`,
//! swept from LLVM), not from opcode names.

use crate::inst::Inst;
use crate::operand::{FloatConst, Operand};
use crate::tables::{accept, Field};

/// The f16 bit patterns of the inline float constants.
const HALF_FLOATS: [(u16, FloatConst); 9] = [
    (0x3800, FloatConst::Half),
    (0xb800, FloatConst::NegHalf),
    (0x3c00, FloatConst::One),
    (0xbc00, FloatConst::NegOne),
    (0x4000, FloatConst::Two),
    (0xc000, FloatConst::NegTwo),
    (0x4400, FloatConst::Four),
    (0xc400, FloatConst::NegFour),
    (0x3118, FloatConst::InvTwoPi),
];

/// The f16 bit pattern an inline float constant has on a half-precision operand.
pub fn half_float_bits(c: FloatConst) -> u16 {
    HALF_FLOATS.iter().find(|(_, f)| *f == c).map_or(0, |(b, _)| *b)
}

/// The operand for the 16-bit value `v` on a 16-bit source: an inline integer when `v` is one
/// of -16..=64 as a 16-bit integer, an inline float when `float` (the operand is f16) and `v`
/// is one of their f16 patterns, else a literal.
pub fn half_operand(v: u16, float: bool) -> Operand {
    let i = v as i16;
    if (-16..=64).contains(&i) {
        return Operand::Int(i as i8);
    }
    if float {
        if let Some((_, c)) = HALF_FLOATS.iter().find(|(b, _)| *b == v) {
            return Operand::Float(*c);
        }
    }
    Operand::Literal(u32::from(v))
}

impl Inst {
    /// Replaces literals on 16-bit sources by the inline constant with the same low half where
    /// one exists (see the module docs); other operands, and VOP3 sources whose op_sel bit
    /// picks the high half, are left alone. Returns true if anything changed.
    pub fn fold_half_immediates(&mut self) -> bool {
        let Some(form) = self.form() else { return false };
        let high = if let Inst::Vop3(i) = self { i.opsel } else { 0 };
        let fields: &mut [(Field, &mut Operand)] = &mut match self {
            Inst::Vop1(i) if i.ext == crate::Ext::None => vec![(Field::Src0, &mut i.src0)],
            Inst::Vop2(i) if i.ext == crate::Ext::None => vec![(Field::Src0, &mut i.src0)],
            Inst::Vopc(i) if i.ext == crate::Ext::None => vec![(Field::Src0, &mut i.src0)],
            Inst::Vop3(i) => {
                let [a, b, c] = &mut i.src;
                vec![(Field::Src0, a), (Field::Src1, b), (Field::Src2, c)]
            }
            _ => return false,
        };
        let mut changed = false;
        for (k, (field, op)) in fields.iter_mut().enumerate() {
            let Operand::Literal(x) = **op else { continue };
            if high >> k & 1 != 0 {
                continue;
            }
            let Some(od) = form.operand(*field) else { continue };
            if od.accept & accept::HALF == 0 {
                continue;
            }
            let folded = half_operand(x as u16, od.accept & accept::FLOAT != 0);
            if folded != **op {
                **op = folded;
                changed = true;
            }
        }
        changed
    }
}
