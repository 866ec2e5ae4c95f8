//! Vector ALU: VOP1, VOP2, VOPC and VOP3 normalised into one form, sources read per lane with
//! the VOP3 input modifiers applied, the operation evaluated for the active lanes, and the
//! result written back with output modifiers (clamp, omod) and the exec mask.
//!
//! The DPP16/DPP8/SDWA extensions of the 32-bit encodings ride along in [`Valu::ext`]: DPP
//! shuffles the raw src0 row before modifiers and narrows the lanes written, SDWA selects
//! source fields before the operation and places the result into a destination field after it
//! (see [`super::dpp`]).

use ferrum_isa::tables::{Field, Form};
use ferrum_isa::{Ext, Inst, Opcode, Operand, Special};

use super::dpp;
use super::movrel;
use super::valu_ops::{self, Out};
use super::wave::{fault, Wave, Wide, LANES, R, VCC_LO};

/// Element type of an operation's sources, from its mnemonic's last type suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    B32,
    I64,
    U64,
    B64,
    Other,
}

impl Ty {
    pub fn bits(self) -> u32 {
        match self {
            Ty::F16 | Ty::I16 | Ty::U16 => 16,
            Ty::F64 | Ty::I64 | Ty::U64 | Ty::B64 => 64,
            _ => 32,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }

    fn parse(t: &str) -> Option<Ty> {
        Some(match t {
            "f16" => Ty::F16,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "i16" => Ty::I16,
            "u16" | "b16" => Ty::U16,
            "i32" => Ty::I32,
            "u32" => Ty::U32,
            "b32" => Ty::B32,
            "i64" => Ty::I64,
            "u64" => Ty::U64,
            "b64" => Ty::B64,
            _ => return None,
        })
    }
}

/// A VALU instruction in the one shape all its encodings map to.
#[derive(Debug, Clone, Copy)]
pub struct Valu {
    pub op: Opcode,
    pub vdst: Operand,
    /// Carry-out / compare destination (VOP3b, VOP3 compares); `None` = VCC (e32 forms).
    pub sdst: Option<Operand>,
    pub src: [Operand; 3],
    pub bits: [u32; 3],
    pub dst_bits: u32,
    pub abs: u8,
    pub neg: u8,
    pub opsel: u8,
    pub clamp: bool,
    pub omod: u8,
    pub vop3: bool,
    pub src_ty: Ty,
    /// Result element type (for output modifiers).
    pub dst_ty: Ty,
    /// `v_cmpx*`: the compare result goes to EXEC.
    pub to_exec: bool,
    /// For `v_cmp*`: the condition and the compared type.
    pub cmp: Option<(valu_ops::Cond, Ty)>,
    /// DPP/SDWA extension of a VOP1/VOP2/VOPC encoding.
    pub ext: Ext,
}

fn width(form: &Form, field: Field) -> u32 {
    form.dwords(field) as u32 * 32
}

/// Source element type: the last type token of the mnemonic (`v_cvt_f32_u32` reads u32).
pub fn src_type(name: &str) -> Ty {
    name.rsplit('_').find_map(Ty::parse).unwrap_or(Ty::Other)
}

impl Valu {
    /// `None` for instructions that are not VALU.
    pub fn from_inst(inst: &Inst, form: &Form) -> Option<Valu> {
        let ext = match inst {
            Inst::Vop1(i) => i.ext,
            Inst::Vop2(i) => i.ext,
            Inst::Vopc(i) => i.ext,
            _ => Ext::None,
        };
        let name = inst.op().name();
        let ty = src_type(name);
        let dty = dst_type(name);
        let packed = name.contains("_pk") || name.contains("pack");
        let narrow = |t: Ty, w: u32| if t.bits() == 16 && w == 32 && !packed { 16 } else { w };
        let elem = |field: Field| narrow(ty, width(form, field));
        let base = |op, vdst, src: [Operand; 3]| Valu {
            op,
            vdst,
            sdst: None,
            src,
            bits: [elem(Field::Src0), elem(Field::Src1).max(elem(Field::Vsrc1)), elem(Field::Src2)],
            dst_bits: narrow(dty, width(form, Field::Vdst)),
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
            vop3: false,
            src_ty: ty,
            dst_ty: dty,
            to_exec: name.starts_with("v_cmpx"),
            cmp: None,
            ext,
        };
        Some(match inst {
            Inst::Vop1(i) => base(i.op, i.vdst, [i.src0, Operand::UNUSED, Operand::UNUSED]),
            Inst::Vop2(i) => {
                let mut v = base(
                    i.op,
                    Operand::Vgpr(i.vdst),
                    [i.src0, Operand::Vgpr(i.vsrc1), Operand::UNUSED],
                );
                match i.op {
                    // D = S0 * K + S1 and D = S0 * S1 + K.
                    Opcode::V_FMAMK_F32 | Opcode::V_FMAMK_F16 => {
                        v.src = [i.src0, Operand::Literal(i.k), Operand::Vgpr(i.vsrc1)];
                        v.bits[2] = v.bits[0];
                    }
                    Opcode::V_FMAAK_F32 | Opcode::V_FMAAK_F16 => {
                        v.src[2] = Operand::Literal(i.k);
                        v.bits[2] = v.bits[0];
                    }
                    // VOP2 carry-in forms read VCC as the third source.
                    Opcode::V_CNDMASK_B32
                    | Opcode::V_ADD_CO_CI_U32
                    | Opcode::V_SUB_CO_CI_U32
                    | Opcode::V_SUBREV_CO_CI_U32 => {
                        v.src[2] = Operand::Special(Special::VccLo);
                        v.bits[2] = 32;
                    }
                    _ => {}
                }
                v
            }
            Inst::Vopc(i) => {
                base(i.op, Operand::UNUSED, [i.src0, Operand::Vgpr(i.vsrc1), Operand::UNUSED])
            }
            Inst::Vop3(i) => {
                let mut v = base(i.op, i.vdst, i.src);
                v.vop3 = true;
                v.abs = i.abs;
                v.neg = i.neg;
                v.opsel = i.opsel;
                v.clamp = i.clamp;
                v.omod = i.omod;
                let is_cmp = name.starts_with("v_cmp");
                if form.operand(Field::Sdst).is_some() {
                    v.sdst = Some(i.sdst);
                } else if is_cmp {
                    v.sdst = Some(i.vdst);
                }
                v
            }
            _ => return None,
        })
        .map(|mut v: Valu| {
            apply_ext_modifiers(&mut v);
            if matches!(v.op, Opcode::V_FMAC_F32 | Opcode::V_FMAC_F16 | Opcode::V_FMAC_LEGACY_F32) {
                v.src[2] = v.vdst;
                v.bits[2] = v.dst_bits;
            }
            v.cmp = valu_ops::compare_kind(name);
            v
        })
    }
}

/// Moves the extension's source modifiers and output modifiers into the common fields.
fn apply_ext_modifiers(v: &mut Valu) {
    match v.ext {
        Ext::Dpp16(d) => {
            v.abs = d.abs;
            v.neg = d.neg;
        }
        Ext::Sdwa(s) => {
            v.abs = s.abs;
            v.neg = s.neg;
            v.clamp = s.clamp;
            v.omod = s.omod;
            if s.src1_scalar {
                if let Operand::Vgpr(code) = v.src[1] {
                    v.src[1] = Operand::from_code(code as u16, None).unwrap_or(v.src[1]);
                }
            }
            if v.cmp.is_some() || v.op.name().starts_with("v_cmp") {
                v.sdst = s.sdst;
            }
        }
        Ext::None | Ext::Dpp8(_) => {}
    }
}

impl Wave {
    /// Reads source `k` as raw bits (16-bit operands read their whole register, so that opsel
    /// can pick either half).
    fn valu_src_raw(&self, v: &Valu, k: usize, x: &mut Wide) -> R<()> {
        let bits = v.bits[k].max(16);
        if bits == 16 {
            if let Operand::Float(_) = v.src[k] {
                // On a 16-bit operand a float constant is its f16 encoding (0.5 is 0x3800),
                // not the low half of the f32 one; both halves see it, as in VOP3P.
                self.vsrc_into(v.src[k], 16, x)?;
                x.iter_mut().for_each(|e| *e |= *e << 16);
                return Ok(());
            }
        }
        self.vsrc_into(v.src[k], if bits == 16 { 32 } else { bits }, x)
    }
}

/// Applies SDWA selects, opsel and abs/neg to source `k` read by [`Wave::valu_src_raw`].
fn modify_src(v: &Valu, k: usize, x: &mut Wide) -> R<()> {
    let bits = v.bits[k].max(16);
    if let (Ext::Sdwa(s), 0 | 1) = (&v.ext, k) {
        if bits == 64 {
            return fault("SDWA on a 64-bit operand");
        }
        let sel = if k == 0 { s.src0_sel } else { s.src1_sel };
        let sext = s.sext >> k & 1 != 0;
        for e in x.iter_mut() {
            *e = dpp::sdwa_source(sel, sext, *e as u32)? as u64;
        }
    }
    if bits == 16 {
        let hi = v.opsel >> k & 1 != 0;
        for e in x.iter_mut() {
            *e = if hi { *e >> 16 & 0xffff } else { *e & 0xffff };
        }
    }
    // ABS/NEG act on the sign bit; the encoding only allows them where the operand is
    // treated as a float (float ops, and v_cndmask_b32's selected values).
    if v.abs | v.neg != 0 {
        let sign = 1u64 << (bits - 1);
        let (abs, neg) = (v.abs >> k & 1 != 0, v.neg >> k & 1 != 0);
        for e in x.iter_mut() {
            if abs {
                *e &= !sign;
            }
            if neg {
                *e ^= sign;
            }
        }
    }
    Ok(())
}

pub fn exec(w: &mut Wave, v: &Valu) -> R<()> {
    if let Some(rel) = movrel::relocate(w, v)? {
        return match rel {
            Some(mov) => exec(w, &mov),
            None => Ok(()),
        };
    }
    let mut srcs = [[0u64; LANES]; 3];
    let mut exec = w.exec();
    for (k, s) in srcs.iter_mut().enumerate() {
        if v.bits[k] == 0 {
            continue;
        }
        w.valu_src_raw(v, k, s)?;
        if k == 0 {
            exec = shuffle_src0(v, s, exec)?;
        }
        modify_src(v, k, s)?;
    }
    if matches!(v.op, Opcode::V_PERMLANE16_B32 | Opcode::V_PERMLANEX16_B32) {
        return permlane(w, v, &srcs, exec);
    }
    let mut values = [0u64; LANES];
    let out = valu_ops::eval(w, v, &srcs, exec, &mut values)?;
    match out {
        Out::None => Ok(()),
        Out::Vector { carry } => {
            if let Some(mask) = carry {
                let d = match v.sdst {
                    Some(op) => Wave::sindex(op)?,
                    None => VCC_LO,
                };
                w.swrite(d, mask & exec)?;
            }
            write_vector(w, v, values, exec)
        }
        Out::Mask(mask) => {
            let mask = mask & exec;
            if v.to_exec {
                w.set_exec(mask);
                Ok(())
            } else {
                let d = match v.sdst {
                    Some(op) => Wave::sindex(op)?,
                    None => VCC_LO,
                };
                w.swrite(d, mask)
            }
        }
        Out::Scalar(value) => w.swrite(Wave::sindex(v.vdst)?, value),
    }
}

/// `v_permlane(x)16_b32`: OP_SEL[0] = FI and OP_SEL[1] = BOUND_CTRL; lanes left alone keep
/// the destination's old value.
fn permlane(w: &mut Wave, v: &Valu, srcs: &[Wide; 3], exec: u32) -> R<()> {
    let Operand::Vgpr(d) = v.vdst else {
        return fault(format!("{} with a non-VGPR destination", v.op.name()));
    };
    let old = *w.vrow(d as u32)?;
    let p = dpp::Permlane {
        cross: v.op == Opcode::V_PERMLANEX16_B32,
        fi: v.opsel & 1 != 0,
        bound_ctrl: v.opsel & 2 != 0,
    };
    let row = dpp::permlane16(p, &srcs[0], srcs[1][0] as u32, srcs[2][0] as u32, exec, &old);
    w.vwrite(d as u32, exec, &row)
}

/// DPP: moves src0 between lanes; returns the lanes the instruction may write.
fn shuffle_src0(v: &Valu, src0: &mut Wide, exec: u32) -> R<u32> {
    match &v.ext {
        Ext::Dpp16(_) | Ext::Dpp8(_) if v.bits[0] == 64 || v.dst_bits == 64 => {
            fault("DPP on a 64-bit operand")
        }
        Ext::Dpp16(d) => dpp::dpp16(d, src0, exec),
        Ext::Dpp8(d) => {
            dpp::dpp8(d, src0, exec);
            Ok(exec)
        }
        Ext::None | Ext::Sdwa(_) => Ok(exec),
    }
}

fn write_vector(w: &mut Wave, v: &Valu, mut values: Wide, exec: u32) -> R<()> {
    let Operand::Vgpr(d) = v.vdst else {
        return fault(format!("{} with a non-VGPR destination", v.op.name()));
    };
    let d = d as u32;
    apply_output_modifiers(w, v, &mut values);
    if let Ext::Sdwa(s) = &v.ext {
        if v.dst_bits == 64 {
            return fault("SDWA with a 64-bit destination");
        }
        let low = if v.dst_bits == 16 { 0xffff } else { u32::MAX };
        let old = *w.vrow_unchecked(d)?;
        let mut row = [0u32; LANES];
        for (l, r) in row.iter_mut().enumerate() {
            *r = dpp::sdwa_dest(s, values[l] as u32 & low, old[l])?;
        }
        return w.vwrite(d, exec, &row);
    }
    match v.dst_bits {
        64 => {
            let lo: [u32; LANES] = std::array::from_fn(|l| values[l] as u32);
            let hi: [u32; LANES] = std::array::from_fn(|l| (values[l] >> 32) as u32);
            w.vwrite(d, exec, &lo)?;
            w.vwrite(d + 1, exec, &hi)
        }
        16 => {
            let old = *w.vrow_unchecked(d)?;
            let hi = v.opsel & 8 != 0;
            let row: [u32; LANES] = std::array::from_fn(|l| {
                let x = values[l] as u32 & 0xffff;
                if hi {
                    (old[l] & 0xffff) | x << 16
                } else {
                    x
                }
            });
            w.vwrite(d, exec, &row)
        }
        _ => {
            let row: [u32; LANES] = std::array::from_fn(|l| values[l] as u32);
            w.vwrite(d, exec, &row)
        }
    }
}

/// Result type of a float operation is its first type token (`v_cvt_f32_u32` produces f32).
fn dst_type(name: &str) -> Ty {
    name.split('_').find_map(Ty::parse).unwrap_or(Ty::Other)
}

fn apply_output_modifiers(w: &Wave, v: &Valu, values: &mut Wide) {
    let ty = v.dst_ty;
    if !ty.is_float() || (v.omod == 0 && !v.clamp) {
        return;
    }
    let _ = w;
    let scale = match v.omod {
        1 => 2.0,
        2 => 4.0,
        3 => 0.5,
        _ => 1.0,
    };
    for e in values.iter_mut() {
        let mut x = match ty {
            Ty::F64 => f64::from_bits(*e),
            Ty::F16 => super::wave::f16_to_f32(*e as u16) as f64,
            _ => f32::from_bits(*e as u32) as f64,
        };
        x *= scale;
        if v.clamp {
            x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
        }
        *e = match ty {
            Ty::F64 => x.to_bits(),
            Ty::F16 => super::wave::f32_to_f16(x as f32) as u64,
            _ => (x as f32).to_bits() as u64,
        };
    }
}

impl Wave {
    /// A VGPR row for read-modify-write of a 16-bit half (allocation checked only).
    fn vrow_unchecked(&self, r: u32) -> R<&[u32; LANES]> {
        self.vwritable(r, 1)?;
        Ok(&self.v[r as usize])
    }
}
