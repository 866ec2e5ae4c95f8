//! VOP3P packed 16-bit math: each 32-bit VGPR holds two halves; OPSEL / OPSEL_HI choose which
//! source half feeds the low and the high result, NEG / NEG_HI negate float sources per half.

use ferrum_isa::{Opcode as O, Operand, Vop3p};

use super::wave::{f16_to_f32, f32_to_f16, fault, Wave, Wide, LANES, R};

fn half(x: u64, hi: bool) -> u16 {
    if hi {
        (x >> 16) as u16
    } else {
        x as u16
    }
}

pub fn exec(w: &mut Wave, i: &Vop3p) -> R<()> {
    let float = i.op.name().ends_with("_f16");
    let f = |x: u16| f16_to_f32(x);
    let fr = |x: f32| f32_to_f16(x);
    type Op3 = fn(u16, u16, u16) -> u16;
    let op: Op3 = match i.op {
        O::V_PK_ADD_F16 => |a, b, _| f32_to_f16(f16_to_f32(a) + f16_to_f32(b)),
        O::V_PK_MUL_F16 => |a, b, _| f32_to_f16(f16_to_f32(a) * f16_to_f32(b)),
        O::V_PK_FMA_F16 => |a, b, c| {
            f32_to_f16((f16_to_f32(a) as f64 * f16_to_f32(b) as f64 + f16_to_f32(c) as f64) as f32)
        },
        O::V_PK_MIN_F16 => |a, b, _| f32_to_f16(f16_to_f32(a).min(f16_to_f32(b))),
        O::V_PK_MAX_F16 => |a, b, _| f32_to_f16(f16_to_f32(a).max(f16_to_f32(b))),
        O::V_PK_ADD_U16 | O::V_PK_ADD_I16 => |a, b, _| a.wrapping_add(b),
        O::V_PK_SUB_U16 | O::V_PK_SUB_I16 => |a, b, _| a.wrapping_sub(b),
        O::V_PK_MUL_LO_U16 => |a, b, _| a.wrapping_mul(b),
        O::V_PK_MAD_U16 => |a, b, c| a.wrapping_mul(b).wrapping_add(c),
        O::V_PK_MAD_I16 => |a, b, c| a.wrapping_mul(b).wrapping_add(c),
        O::V_PK_LSHLREV_B16 => |a, b, _| b << (a & 15),
        O::V_PK_LSHRREV_B16 => |a, b, _| b >> (a & 15),
        O::V_PK_ASHRREV_I16 => |a, b, _| ((b as i16) >> (a & 15)) as u16,
        O::V_PK_MAX_U16 => |a, b, _| a.max(b),
        O::V_PK_MIN_U16 => |a, b, _| a.min(b),
        O::V_PK_MAX_I16 => |a, b, _| (a as i16).max(b as i16) as u16,
        O::V_PK_MIN_I16 => |a, b, _| (a as i16).min(b as i16) as u16,
        op => return fault(format!("unimplemented VOP3P {}", op.name())),
    };
    let mut src: [Wide; 3] = [[0; LANES]; 3];
    for (k, s) in src.iter_mut().enumerate() {
        let nsrc =
            if matches!(i.op, O::V_PK_FMA_F16 | O::V_PK_MAD_U16 | O::V_PK_MAD_I16) { 3 } else { 2 };
        if k >= nsrc {
            break;
        }
        *s = match i.src[k] {
            // Inline constants are 16-bit values used for both halves.
            Operand::Int(_) | Operand::Float(_) => {
                let v = w.vsrc(i.src[k], 16)?;
                v.map(|x| (x & 0xffff) | (x & 0xffff) << 16)
            }
            op => w.vsrc(op, 32)?,
        };
    }
    let neg = |x: u16, on: bool| if float && on { x ^ 0x8000 } else { x };
    let row: [u32; LANES] = std::array::from_fn(|l| {
        let pick = |k: usize, sel: u8, negs: u8| {
            neg(half(src[k][l], sel >> k & 1 != 0), negs >> k & 1 != 0)
        };
        let lo = op(pick(0, i.opsel, i.neg), pick(1, i.opsel, i.neg), pick(2, i.opsel, i.neg));
        let hi = op(
            pick(0, i.opsel_hi, i.neg_hi),
            pick(1, i.opsel_hi, i.neg_hi),
            pick(2, i.opsel_hi, i.neg_hi),
        );
        let clampf = |x: u16| if i.clamp && float { fr(f(x).clamp(0.0, 1.0)) } else { x };
        clampf(lo) as u32 | (clampf(hi) as u32) << 16
    });
    let exec = w.exec();
    w.vwrite(i.vdst as u32, exec, &row)
}
