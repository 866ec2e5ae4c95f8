//! Symbolic 16-bit immediates as LLVM prints them: `s_waitcnt` counters, `hwreg(...)`,
//! `sendmsg(...)`. The field layouts are those of AMD's RDNA2 ISA guide (SOPP/SOPK chapters).

use std::fmt::{self, Write};

/// `s_waitcnt` fields (vmcnt 6 bits split 4+2, expcnt 3 bits, lgkmcnt 6 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waitcnt {
    /// Outstanding vector memory loads allowed.
    pub vmcnt: u8,
    /// Outstanding exports / GDS allowed.
    pub expcnt: u8,
    /// Outstanding LDS, GDS, constant and message operations allowed.
    pub lgkmcnt: u8,
}

impl Waitcnt {
    /// No wait on any counter.
    pub const NONE: Waitcnt = Waitcnt { vmcnt: 63, expcnt: 7, lgkmcnt: 63 };

    /// Unpacks the immediate.
    pub fn from_imm(s: u16) -> Waitcnt {
        Waitcnt {
            vmcnt: (s & 0xF | (s >> 14 & 3) << 4) as u8,
            expcnt: (s >> 4 & 7) as u8,
            lgkmcnt: (s >> 8 & 0x3F) as u8,
        }
    }

    /// Packs into the immediate (values saturate at their field maximum).
    pub fn to_imm(self) -> u16 {
        let vm = self.vmcnt.min(63) as u16;
        (vm & 0xF)
            | (vm >> 4) << 14
            | (self.expcnt.min(7) as u16) << 4
            | (self.lgkmcnt.min(63) as u16) << 8
    }
}

pub(crate) fn waitcnt(f: &mut fmt::Formatter<'_>, s: u16) -> fmt::Result {
    let w = Waitcnt::from_imm(s);
    let all = [("vmcnt", w.vmcnt, 63), ("expcnt", w.expcnt, 7), ("lgkmcnt", w.lgkmcnt, 63)];
    let shown: Vec<_> = all.iter().filter(|(_, v, max)| v != max).collect();
    let list: Vec<_> = if shown.is_empty() { all.iter().collect() } else { shown };
    for (i, (name, v, _)) in list.iter().enumerate() {
        if i > 0 {
            f.write_char(' ')?;
        }
        write!(f, "{name}({v})")?;
    }
    Ok(())
}

/// Hardware register names of gfx10.3 by id (`hwreg(...)` operand).
const HWREGS: &[(u16, &str)] = &[
    (1, "HW_REG_MODE"),
    (2, "HW_REG_STATUS"),
    (3, "HW_REG_TRAPSTS"),
    (5, "HW_REG_GPR_ALLOC"),
    (6, "HW_REG_LDS_ALLOC"),
    (7, "HW_REG_IB_STS"),
    (15, "HW_REG_SH_MEM_BASES"),
    (16, "HW_REG_TBA_LO"),
    (17, "HW_REG_TBA_HI"),
    (18, "HW_REG_TMA_LO"),
    (19, "HW_REG_TMA_HI"),
    (20, "HW_REG_FLAT_SCR_LO"),
    (21, "HW_REG_FLAT_SCR_HI"),
    (23, "HW_REG_HW_ID1"),
    (24, "HW_REG_HW_ID2"),
    (25, "HW_REG_POPS_PACKER"),
    (29, "HW_REG_SHADER_CYCLES"),
];

pub(crate) fn hwreg(f: &mut fmt::Formatter<'_>, s: u16) -> fmt::Result {
    let id = s & 0x3F;
    let offset = s >> 6 & 0x1F;
    let width = (s >> 11 & 0x1F) + 1;
    f.write_str("hwreg(")?;
    match HWREGS.iter().find(|(i, _)| *i == id) {
        Some((_, name)) => f.write_str(name)?,
        None => write!(f, "{id}")?,
    }
    if offset != 0 || width != 32 {
        write!(f, ", {offset}, {width}")?;
    }
    f.write_char(')')
}

const MSGS: &[(u16, &str)] = &[
    (1, "MSG_INTERRUPT"),
    (2, "MSG_GS"),
    (3, "MSG_GS_DONE"),
    (4, "MSG_SAVEWAVE"),
    (5, "MSG_STALL_WAVE_GEN"),
    (6, "MSG_HALT_WAVES"),
    (7, "MSG_ORDERED_PS_DONE"),
    (9, "MSG_GS_ALLOC_REQ"),
    (10, "MSG_GET_DOORBELL"),
    (11, "MSG_GET_DDID"),
    (15, "MSG_SYSMSG"),
];
const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
const SYS_OPS: [&str; 5] = [
    "",
    "SYSMSG_OP_ECC_ERR_INTERRUPT",
    "SYSMSG_OP_REG_RD",
    "SYSMSG_OP_HOST_TRAP_ACK",
    "SYSMSG_OP_TTRACE_PC",
];

pub(crate) fn sendmsg(f: &mut fmt::Formatter<'_>, s: u16) -> fmt::Result {
    let id = s & 0xF;
    let op = s >> 4 & 7;
    let stream = s >> 8 & 3;
    let name = MSGS.iter().find(|(i, _)| *i == id).map(|(_, n)| *n);
    // LLVM decodes the id/op/stream fields and ignores the other bits for the symbolic form
    let text = match (name, id) {
        (Some(n), 2 | 3) => {
            let op_ok = op <= 3 && !(id == 2 && op == 0);
            match (op_ok, op) {
                (true, 0) if stream == 0 => Some(format!("sendmsg({n}, {})", GS_OPS[0])),
                (true, 1..=3) => Some(format!("sendmsg({n}, {}, {stream})", GS_OPS[op as usize])),
                _ => None,
            }
        }
        (Some(n), 15) if (1..=4).contains(&op) && stream == 0 => {
            Some(format!("sendmsg({n}, {})", SYS_OPS[op as usize]))
        }
        (Some(_), 15) => None,
        (Some(n), _) if op == 0 && stream == 0 => Some(format!("sendmsg({n})")),
        _ => None,
    };
    match text {
        Some(t) => f.write_str(&t),
        // representable as fields but not a valid message: LLVM prints the raw fields
        None if s >> 10 == 0 && s & 0x80 == 0 => write!(f, "sendmsg({id}, {op}, {stream})"),
        None => write!(f, "{s}"),
    }
}

/// `ds_swizzle_b32` offset: quad permute (bit 15 set, high byte 0x80) or bit-mask mode
/// (and/or/xor masks of 5 bits each), printed with LLVM's shorthand when one applies.
pub(crate) fn swizzle(f: &mut fmt::Formatter<'_>, imm: u16) -> fmt::Result {
    if imm & 0xFF00 == 0x8000 {
        let l = |i: u16| imm >> (2 * i) & 3;
        return write!(f, "swizzle(QUAD_PERM,{},{},{},{})", l(0), l(1), l(2), l(3));
    }
    if imm & 0x8000 != 0 {
        return write!(f, "{imm}");
    }
    let and = imm & 0x1F;
    let or = imm >> 5 & 0x1F;
    let xor = imm >> 10 & 0x1F;
    if and == 0x1F && or == 0 && xor.count_ones() == 1 {
        return write!(f, "swizzle(SWAP,{xor})");
    }
    if and == 0x1F && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return write!(f, "swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x20 - and;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return write!(f, "swizzle(BROADCAST,{group},{or})");
    }
    f.write_str("swizzle(BITMASK_PERM,\"")?;
    for bit in (0..5).rev() {
        let m = 1 << bit;
        f.write_char(match (and & m != 0, or & m != 0, xor & m != 0) {
            (false, false, false) => '0',
            (false, true, false) => '1',
            (true, false, false) => 'p',
            (true, false, true) => 'i',
            (false, false, true) => '1',
            (false, true, true) => '0',
            (true, true, false) => '1',
            (true, true, true) => '0',
        })?;
    }
    f.write_str("\")")
}

/// `hwreg(id, offset, width)` as the 16-bit SOPK immediate of `s_getreg_b32`/`s_setreg_b32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hwreg {
    /// Hardware register id (1 = MODE, 2 = STATUS, ...).
    pub id: u8,
    /// First bit, 0..=31.
    pub offset: u8,
    /// Number of bits, 1..=32.
    pub width: u8,
}

impl Hwreg {
    /// Packs into the immediate (fields are masked to their widths).
    pub fn to_imm(self) -> u16 {
        (self.id as u16 & 0x3F)
            | (self.offset as u16 & 0x1F) << 6
            | (self.width.clamp(1, 32) as u16 - 1) << 11
    }

    /// Unpacks the immediate.
    pub fn from_imm(s: u16) -> Hwreg {
        Hwreg {
            id: (s & 0x3F) as u8,
            offset: (s >> 6 & 0x1F) as u8,
            width: (s >> 11 & 0x1F) as u8 + 1,
        }
    }
}

/// `sendmsg(msg, op, stream)` as the 16-bit SOPP immediate of `s_sendmsg`.
pub fn sendmsg_imm(msg: u8, op: u8, stream: u8) -> u16 {
    (msg as u16 & 0xF) | (op as u16 & 7) << 4 | (stream as u16 & 3) << 8
}
