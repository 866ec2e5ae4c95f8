//! Operands: the 8-bit scalar and 9-bit vector-ALU source encodings, shared by every family.
//!
//! An operand names the *first* register of a range; how many dwords the range covers is a
//! property of the instruction form (see [`crate::tables`]), so it is stored once, there.

use std::fmt;

/// A special register or hardware constant with a fixed source code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Special {
    VccLo,
    VccHi,
    M0,
    Null,
    ExecLo,
    ExecHi,
    SharedBase,
    SharedLimit,
    PrivateBase,
    PrivateLimit,
    PopsExitingWaveId,
    Vccz,
    Execz,
    Scc,
    LdsDirect,
}

/// The float inline constants (codes 240..=248).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FloatConst {
    Half,
    NegHalf,
    One,
    NegOne,
    Two,
    NegTwo,
    Four,
    NegFour,
    /// 1/(2*pi)
    InvTwoPi,
}

/// One register or constant operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// s0..s105 (first register of a range).
    Sgpr(u8),
    /// Trap temporaries ttmp0..ttmp15.
    Ttmp(u8),
    /// v0..v255 (first register of a range).
    Vgpr(u8),
    /// A special register.
    Special(Special),
    /// Inline integer constant -16..=64.
    Int(i8),
    /// Inline float constant.
    Float(FloatConst),
    /// A 32-bit literal dword following the instruction.
    Literal(u32),
    /// An interpolation attribute channel (`attr3.y`), the src0 of VOP3 `v_interp_*`;
    /// `high` selects the high half for the f16 forms.
    Attr {
        /// Attribute index 0..=63.
        attr: u8,
        /// Channel 0..=3 (x, y, z, w).
        chan: u8,
        /// High 16 bits (f16 interpolation).
        high: bool,
    },
    /// The parameter of `v_interp_mov_f32` (0: p10, 1: p20, 2: p0).
    InterpParam(u8),
}

impl Operand {
    /// The value used for source fields an instruction does not have (they encode as 0).
    pub const UNUSED: Operand = Operand::Sgpr(0);

    /// Decodes a scalar (8-bit) or VALU (9-bit) source code. `literal` is the dword after the
    /// instruction, if any. Returns `None` for codes that are not plain operands (DPP/SDWA
    /// markers, reserved codes, or a literal code without a literal dword).
    pub fn from_code(code: u16, literal: Option<u32>) -> Option<Operand> {
        use Special::*;
        Some(match code {
            0..=105 => Operand::Sgpr(code as u8),
            106 => Operand::Special(VccLo),
            107 => Operand::Special(VccHi),
            108..=123 => Operand::Ttmp(code as u8 - 108),
            124 => Operand::Special(M0),
            125 => Operand::Special(Null),
            126 => Operand::Special(ExecLo),
            127 => Operand::Special(ExecHi),
            128..=192 => Operand::Int((code - 128) as i8),
            193..=208 => Operand::Int(-((code - 192) as i8)),
            235 => Operand::Special(SharedBase),
            236 => Operand::Special(SharedLimit),
            237 => Operand::Special(PrivateBase),
            238 => Operand::Special(PrivateLimit),
            239 => Operand::Special(PopsExitingWaveId),
            240..=248 => Operand::Float(FLOATS[code as usize - 240]),
            251 => Operand::Special(Vccz),
            252 => Operand::Special(Execz),
            253 => Operand::Special(Scc),
            254 => Operand::Special(LdsDirect),
            255 => Operand::Literal(literal?),
            256..=511 => Operand::Vgpr((code - 256) as u8),
            _ => return None,
        })
    }

    /// The 9-bit source code (255 for literals; the literal dword is carried separately).
    pub fn code(self) -> u16 {
        use Special::*;
        match self {
            Operand::Sgpr(n) => n as u16,
            Operand::Ttmp(n) => 108 + n as u16,
            Operand::Vgpr(n) => 256 + n as u16,
            Operand::Int(i) if i >= 0 => 128 + i as u16,
            Operand::Int(i) => (192 - i as i16) as u16,
            Operand::Float(f) => 240 + FLOATS.iter().position(|&x| x == f).unwrap_or(0) as u16,
            Operand::Literal(_) => 255,
            Operand::Attr { attr, chan, high } => {
                (attr & 63) as u16 | ((chan & 3) as u16) << 6 | (high as u16) << 8
            }
            Operand::InterpParam(p) => p as u16,
            Operand::Special(s) => match s {
                VccLo => 106,
                VccHi => 107,
                M0 => 124,
                Null => 125,
                ExecLo => 126,
                ExecHi => 127,
                SharedBase => 235,
                SharedLimit => 236,
                PrivateBase => 237,
                PrivateLimit => 238,
                PopsExitingWaveId => 239,
                Vccz => 251,
                Execz => 252,
                Scc => 253,
                LdsDirect => 254,
            },
        }
    }

    /// True when the operand is encodable: register numbers and constants in range.
    pub fn is_valid(self) -> bool {
        match self {
            Operand::Sgpr(n) => n <= 105,
            Operand::Ttmp(n) => n <= 15,
            Operand::Int(i) => (-16..=64).contains(&i),
            Operand::Attr { attr, chan, .. } => attr < 64 && chan < 4,
            Operand::InterpParam(p) => p < 3,
            _ => true,
        }
    }

    /// True for operands that live in the scalar register file (or are scalar specials).
    pub fn is_scalar_reg(self) -> bool {
        matches!(self, Operand::Sgpr(_) | Operand::Ttmp(_) | Operand::Special(_))
    }

    /// The operand as the hardware reads it as the first register of a `dwords`-wide range:
    /// SGPR and TTMP tuples are aligned (2 for pairs, 4 above), the low bits being ignored.
    pub fn aligned(self, dwords: u8) -> Operand {
        let mask = match dwords {
            0 | 1 => 0xFF,
            2 => 0xFE,
            _ => 0xFC,
        };
        match self {
            Operand::Sgpr(n) => Operand::Sgpr(n & mask),
            Operand::Ttmp(n) => Operand::Ttmp(n & mask),
            o => o,
        }
    }

    /// Displays the operand as a range of `dwords` registers in LLVM syntax.
    pub fn display(self, dwords: u8) -> OperandDisplay {
        OperandDisplay { op: self, dwords }
    }
}

const FLOATS: [FloatConst; 9] = [
    FloatConst::Half,
    FloatConst::NegHalf,
    FloatConst::One,
    FloatConst::NegOne,
    FloatConst::Two,
    FloatConst::NegTwo,
    FloatConst::Four,
    FloatConst::NegFour,
    FloatConst::InvTwoPi,
];

/// [`Operand`] with its width, for printing.
pub struct OperandDisplay {
    op: Operand,
    dwords: u8,
}

fn range(f: &mut fmt::Formatter<'_>, prefix: &str, n: u32, dwords: u8) -> fmt::Result {
    if dwords <= 1 {
        write!(f, "{prefix}{n}")
    } else {
        write!(f, "{prefix}[{n}:{}]", n + dwords as u32 - 1)
    }
}

impl fmt::Display for OperandDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Special::*;
        let wide = self.dwords >= 2;
        match self.op {
            Operand::Sgpr(n) => range(f, "s", n as u32, self.dwords),
            Operand::Vgpr(n) => range(f, "v", n as u32, self.dwords),
            Operand::Ttmp(n) => range(f, "ttmp", n as u32, self.dwords),
            Operand::Int(i) => write!(f, "{i}"),
            Operand::Literal(v) => write!(f, "0x{v:x}"),
            Operand::Attr { attr, chan, .. } => {
                write!(f, "attr{attr}.{}", ['x', 'y', 'z', 'w'][chan as usize & 3])
            }
            Operand::InterpParam(p) => match p {
                0 => f.write_str("p10"),
                1 => f.write_str("p20"),
                2 => f.write_str("p0"),
                _ => write!(f, "invalid_param_{p}"),
            },
            Operand::Float(c) => f.write_str(match c {
                FloatConst::Half => "0.5",
                FloatConst::NegHalf => "-0.5",
                FloatConst::One => "1.0",
                FloatConst::NegOne => "-1.0",
                FloatConst::Two => "2.0",
                FloatConst::NegTwo => "-2.0",
                FloatConst::Four => "4.0",
                FloatConst::NegFour => "-4.0",
                FloatConst::InvTwoPi if wide => "0.15915494309189532",
                FloatConst::InvTwoPi => "0.15915494",
            }),
            Operand::Special(s) => f.write_str(match (s, wide) {
                (VccLo, false) => "vcc_lo",
                (VccLo, true) => "vcc",
                (VccHi, _) => "vcc_hi",
                (M0, _) => "m0",
                (Null, _) => "null",
                (ExecLo, false) => "exec_lo",
                (ExecLo, true) => "exec",
                (ExecHi, _) => "exec_hi",
                (SharedBase, _) => "src_shared_base",
                (SharedLimit, _) => "src_shared_limit",
                (PrivateBase, _) => "src_private_base",
                (PrivateLimit, _) => "src_private_limit",
                (PopsExitingWaveId, _) => "src_pops_exiting_wave_id",
                (Vccz, _) => "src_vccz",
                (Execz, _) => "src_execz",
                (Scc, _) => "src_scc",
                (LdsDirect, _) => "src_lds_direct",
            }),
        }
    }
}
