//! The GFX10.3 (navi21) registers: byte offsets, bit fields and field value names, generated
//! by `scripts/gen-regs` from Mesa's register database into [`gfx103`].
//!
//! A register's name is its byte offset, and a module of the same name holds its fields:
//!
//! ```
//! use ferrum_regs::gfx103::*;
//! let v = PA_SU_SC_MODE_CNTL::CULL_BACK.set(0, 1)
//!     | PA_SU_SC_MODE_CNTL::POLY_MODE.val(enums::PA_SU_SC_MODE_CNTL__POLY_MODE::X_DUAL_MODE);
//! assert_eq!(PA_SU_SC_MODE_CNTL, 0x28814);
//! assert_eq!(PA_SU_SC_MODE_CNTL::POLY_MODE.get(v), 1);
//! assert_eq!(ferrum_regs::lookup(0x28814).unwrap().name, "PA_SU_SC_MODE_CNTL");
//! ```
//!
//! The table is data, not code: fields are `const` values of one small type and lookup is a
//! binary search over one static array, so the generated file costs little to compile.

#[rustfmt::skip]
#[allow(non_upper_case_globals, non_snake_case, clippy::all)]
pub mod gfx103;

/// A bit field of a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub shift: u8,
    pub width: u8,
    /// The named values, when the database enumerates them.
    pub values: Option<&'static EnumInfo>,
}

impl Field {
    /// The field's bits in place.
    pub const fn mask(self) -> u32 {
        (u32::MAX >> (32 - self.width as u32)) << self.shift
    }

    /// The field's value in a register value.
    pub const fn get(self, reg: u32) -> u32 {
        (reg & self.mask()) >> self.shift
    }

    /// `value` shifted into place (bits beyond the field's width are dropped).
    pub const fn val(self, value: u32) -> u32 {
        (value << self.shift) & self.mask()
    }

    /// `reg` with this field replaced by `value`.
    pub const fn set(self, reg: u32, value: u32) -> u32 {
        (reg & !self.mask()) | self.val(value)
    }

    /// The field as a boolean (non-zero).
    pub const fn is_set(self, reg: u32) -> bool {
        self.get(reg) != 0
    }

    /// The name of `value` if the field's values are enumerated and `value` is one of them.
    pub fn value_name(self, value: u32) -> Option<&'static str> {
        self.values?.entries.iter().find(|e| e.1 == value).map(|e| e.0)
    }
}

/// An enumeration of field values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumInfo {
    pub name: &'static str,
    pub entries: &'static [(&'static str, u32)],
}

impl EnumInfo {
    /// Whether the entries are independent flags (disjoint non-zero bit masks, such as
    /// FLOAT_MODE or EXCP_EN) rather than a list of alternatives: the database does not say,
    /// so it is derived from the values.
    pub fn is_flags(&self) -> bool {
        let mut seen = 0u32;
        self.entries.len() > 1
            && self.entries.iter().all(|&(_, v)| {
                let ok = v != 0 && seen & v == 0;
                seen |= v;
                ok
            })
    }

    /// Whether `value` is one of the entries (or, for flags, a combination of them).
    pub fn allows(&self, value: u32) -> bool {
        if self.is_flags() {
            let all = self.entries.iter().fold(0, |m, e| m | e.1);
            value & !all == 0
        } else {
            self.entries.iter().any(|e| e.1 == value)
        }
    }
}

/// One register of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegInfo {
    pub name: &'static str,
    /// Byte offset (as SET_*_REG and the register-address packets compute it).
    pub offset: u32,
    /// Empty when the database describes the register as one 32-bit value.
    pub fields: &'static [Field],
}

/// The register spaces the command processor's SET_* packets write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Persistent shader state, 0xB000..0xC000 (SET_SH_REG).
    Sh,
    /// Context state, 0x28000..0x30000 (SET_CONTEXT_REG).
    Context,
    /// 0x30000..0x40000 (SET_UCONFIG_REG).
    Uconfig,
    /// Any other memory-mapped register.
    Mmio,
}

impl Space {
    pub const fn of(offset: u32) -> Space {
        match offset {
            0xb000..=0xbfff => Space::Sh,
            0x28000..=0x2ffff => Space::Context,
            0x30000..=0x3ffff => Space::Uconfig,
            _ => Space::Mmio,
        }
    }
}

impl RegInfo {
    pub const fn space(&self) -> Space {
        Space::of(self.offset)
    }

    /// Bits no field covers (0 for registers without fields: all 32 bits are the value).
    pub fn reserved_mask(&self) -> u32 {
        if self.fields.is_empty() {
            return 0;
        }
        !self.fields.iter().fold(0, |m, f| m | f.mask())
    }

    /// Why `value` is not a valid value of this register: bits set outside every field, or an
    /// enumerated field holding a value the enumeration does not name.
    pub fn check(&self, value: u32) -> Result<(), String> {
        let stray = value & self.reserved_mask();
        if stray != 0 {
            return Err(format!(
                "{} = {value:#010x} sets bits {stray:#010x} outside its fields",
                self.name
            ));
        }
        for f in self.fields {
            if let Some(e) = f.values {
                let v = f.get(value);
                if !e.allows(v) {
                    return Err(format!(
                        "{}.{} = {v} is not a {} value",
                        self.name, f.name, e.name
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn field(&self, name: &str) -> Option<Field> {
        self.fields.iter().copied().find(|f| f.name == name)
    }
}

/// The register at byte offset `offset`.
pub fn lookup(offset: u32) -> Option<&'static RegInfo> {
    let regs = &gfx103::REGISTERS;
    regs.binary_search_by_key(&offset, |r| r.offset).ok().map(|i| &regs[i])
}

/// The register named `name` (a linear search: for tools and messages, not hot paths).
pub fn by_name(name: &str) -> Option<&'static RegInfo> {
    gfx103::REGISTERS.iter().find(|r| r.name == name)
}
