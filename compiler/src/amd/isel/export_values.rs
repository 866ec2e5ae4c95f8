//! The values a pixel shader's exports read, chosen at the end of the program.
//!
//! An output component stored only in the entry block (all lanes, once, before any control
//! flow) has one value for the whole program: the export reads that value where it already
//! is instead of the component's output register (whose copy then has no reader and leaves
//! with dead-code elimination). So a uniform colour from push constants feeds the export's
//! conversion straight from its SGPRs, and a constant colour costs nothing at run time: two
//! constants meant for one compressed (16-bit pair) export are packed here, exactly as the
//! packing instruction would pack them, and each distinct export value is moved into a VGPR
//! once (as ACO does).

use ferrum_isa::Opcode;

use super::build::{self, Src};
use super::io::SlotKey;
use super::Isel;
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::ops::{f16_to_f32, f32_to_f16};

/// The packing instruction `op` (a compressed colour export's conversion) applied to the
/// 32-bit patterns `a` (low half) and `b` (high half): the same results as the hardware's
/// (and the simulator's) instruction. Conversions of 32-bit floats: f16 rounds toward zero
/// (a finite value never becomes infinity; NaN stays NaN), norms clamp and round to nearest
/// even with NaN as 0; integers saturate to the 16-bit range. f32 denormal inputs give ±0
/// in every float conversion whether or not the float mode flushes them, so no mode matters.
pub fn fold_pack(op: Opcode, a: u32, b: u32) -> Option<u32> {
    let half: fn(u32) -> u16 = match op {
        Opcode::V_CVT_PKRTZ_F16_F32 => |x| {
            let v = f32::from_bits(x);
            let h = f32_to_f16(v);
            // Nearest rounding went away from zero (or overflowed): one step back.
            if v.is_finite() && f16_to_f32(h).abs() > v.abs() {
                h - 1
            } else {
                h
            }
        },
        Opcode::V_CVT_PKNORM_U16_F32 => |x| {
            let v = f32::from_bits(x);
            let c = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
            (c * 65535.0).round_ties_even() as u16
        },
        Opcode::V_CVT_PKNORM_I16_F32 => |x| {
            let v = f32::from_bits(x);
            let c = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
            (c * 32767.0).round_ties_even() as i16 as u16
        },
        Opcode::V_CVT_PK_U16_U32 => |x| x.min(0xffff) as u16,
        Opcode::V_CVT_PK_I16_I32 => |x| (x as i32).clamp(-0x8000, 0x7fff) as i16 as u16,
        _ => return None,
    };
    Some(u32::from(half(a)) | u32::from(half(b)) << 16)
}

impl Isel<'_> {
    /// What the export of component (`key`, `c`) reads: the value stored in the entry block
    /// when nothing stores it later, else its output register; `None` if never written.
    pub(super) fn export_src(&self, key: SlotKey, c: u8) -> Option<Src> {
        if let Some(&s) = self.gfx.entry_values.get(&(key, c)) {
            return Some(s);
        }
        self.gfx.outputs.get(&(key, c)).map(|&r| Src::R(r, RegClass::V))
    }

    /// Records a store of `s` to component (`key`, `c`): an entry-block value the export may
    /// read directly, unless the component is stored outside the entry block too, or `s` is
    /// an output register (a read-back, which later stores may change).
    pub(super) fn note_output_store(&mut self, key: SlotKey, c: u8, s: Src) {
        let output = matches!(s, Src::R(r, _) if self.gfx.outputs.values().any(|&o| o == r));
        if self.gfx.in_entry && !output && !self.gfx.stored_late.contains(&(key, c)) {
            self.gfx.entry_values.insert((key, c), s);
        } else {
            self.gfx.entry_values.remove(&(key, c));
            self.gfx.stored_late.insert((key, c));
        }
    }

    /// `s` in a VGPR for an export: a VGPR as it is, anything else moved into one, once per
    /// distinct value.
    pub(super) fn export_vgpr(&mut self, s: Src) -> RegRef {
        if let Src::R(r, RegClass::V) = s {
            return r;
        }
        if let Some(&(_, r)) = self.gfx.export_moves.iter().find(|(v, _)| *v == s) {
            return r;
        }
        let r = self.vreg(RegClass::V, 1);
        self.emit(build::vop1(Opcode::V_MOV_B32, r, s));
        self.gfx.export_moves.push((s, r));
        r
    }

    /// One compressed export register: `op` packing `a` (low) and `b` (high), folded when
    /// both are constants.
    pub(super) fn export_pair(&mut self, op: Opcode, a: Src, b: Src) -> RegRef {
        if let (Src::I(x), Src::I(y)) = (a, b) {
            if let Some(p) = fold_pack(op, x, y) {
                return self.export_vgpr(Src::I(p));
            }
        }
        let d = self.vreg(RegClass::V, 1);
        self.emit(build::vop3(op, Some(d), None, &[a, b], 0));
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAN: u32 = 0x7fc0_0000;
    const INF: u32 = 0x7f80_0000;
    const NEG_INF: u32 = 0xff80_0000;
    const DENORM: u32 = 0x0000_0001;
    const NEG_DENORM: u32 = 0x8000_0001;

    fn f(v: f32) -> u32 {
        v.to_bits()
    }

    #[test]
    fn half_pairs_round_toward_zero() {
        let p = |a, b| fold_pack(Opcode::V_CVT_PKRTZ_F16_F32, a, b).unwrap();
        assert_eq!(p(f(1.0), f(0.5)), 0x3800_3c00);
        // 65520 rounds to infinity to nearest; toward zero it is the largest finite half.
        assert_eq!(p(f(65520.0), f(-1e30)), 0xfbff_7bff);
        assert_eq!(p(INF, NEG_INF), 0xfc00_7c00);
        // NaN stays a (quiet) NaN.
        assert_eq!(p(NAN, 0xffc0_0001) & 0x7e00_7e00, 0x7e00_7e00);
        // 1 + 2^-11 + 2^-23 truncates to 1; -(1 + 2^-10) is exact.
        assert_eq!(p(0x3f80_1001, f(-(1.0 + 2f32.powi(-10)))), 0xbc01_3c00);
        // f32 denormals are ±0; 2^-24 is the smallest half denormal, 2^-25 truncates to 0.
        assert_eq!(p(DENORM, NEG_DENORM), 0x8000_0000);
        assert_eq!(p(f(2f32.powi(-24)), f(-3.0 * 2f32.powi(-25))), 0x8001_0001);
        assert_eq!(p(f(-0.0), f(0.0)), 0x0000_8000);
    }

    #[test]
    fn norm_pairs_clamp_and_round_to_nearest_even() {
        let u = |a, b| fold_pack(Opcode::V_CVT_PKNORM_U16_F32, a, b).unwrap();
        assert_eq!(u(f(1.0), f(0.0)), 0x0000_ffff);
        assert_eq!(u(f(-2.0), f(7.0)), 0xffff_0000);
        assert_eq!(u(NAN, INF), 0xffff_0000);
        assert_eq!(u(NEG_INF, DENORM), 0);
        // 0.5 * 65535 = 32767.5: ties to even; 0.25 * 65535 = 16383.75.
        assert_eq!(u(f(0.5), f(0.25)), 0x4000_8000);
        let s = |a, b| fold_pack(Opcode::V_CVT_PKNORM_I16_F32, a, b).unwrap();
        assert_eq!(s(f(-1.0), f(1.0)), 0x7fff_8001);
        assert_eq!(s(f(-5.0), NAN), 0x0000_8001);
        assert_eq!(s(NEG_INF, INF), 0x7fff_8001);
        assert_eq!(s(f(-0.0), NEG_DENORM), 0);
        // -0.5 * 32767 = -16383.5: ties to even (-16384).
        assert_eq!(s(f(-0.5), f(0.5)), 0x4000_c000);
    }

    #[test]
    fn integer_pairs_saturate() {
        let u = |a, b| fold_pack(Opcode::V_CVT_PK_U16_U32, a, b).unwrap();
        assert_eq!(u(0xffff, 0x1_0000), 0xffff_ffff);
        assert_eq!(u(u32::MAX, 0), 0x0000_ffff);
        assert_eq!(u(1, 0x1234), 0x1234_0001);
        let s = |a, b| fold_pack(Opcode::V_CVT_PK_I16_I32, a, b).unwrap();
        assert_eq!(s(0x7fff, 0x8000), 0x7fff_7fff);
        assert_eq!(s((-0x8000i32) as u32, (-0x8001i32) as u32), 0x8000_8000);
        assert_eq!(s(i32::MIN as u32, i32::MAX as u32), 0x7fff_8000);
        assert_eq!(s(u32::MAX, 0), 0x0000_ffff);
        assert_eq!(fold_pack(Opcode::V_MOV_B32, 0, 0), None);
    }
}
