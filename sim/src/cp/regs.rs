//! The register file the command processor writes (SH, CONTEXT and UCONFIG spaces) and the
//! register addresses the simulator interprets, by byte address as in Mesa's register
//! database (`registers/gfx103.json`).

/// SH (persistent shader state): byte addresses 0xB000..0xC000.
pub const SH_BASE: u32 = 0xb000;
pub const SH_END: u32 = 0xc000;
/// CONTEXT: 0x28000..0x30000.
pub const CONTEXT_BASE: u32 = 0x28000;
pub const CONTEXT_END: u32 = 0x30000;
/// UCONFIG: 0x30000..0x40000.
pub const UCONFIG_BASE: u32 = 0x30000;
pub const UCONFIG_END: u32 = 0x40000;

pub const COMPUTE_DISPATCH_INITIATOR: u32 = 0xb800;
pub const COMPUTE_DIM_X: u32 = 0xb804;
pub const COMPUTE_DIM_Y: u32 = 0xb808;
pub const COMPUTE_DIM_Z: u32 = 0xb80c;
pub const COMPUTE_START_X: u32 = 0xb810;
pub const COMPUTE_START_Y: u32 = 0xb814;
pub const COMPUTE_START_Z: u32 = 0xb818;
pub const COMPUTE_NUM_THREAD_X: u32 = 0xb81c;
pub const COMPUTE_NUM_THREAD_Y: u32 = 0xb820;
pub const COMPUTE_NUM_THREAD_Z: u32 = 0xb824;
pub const COMPUTE_PGM_LO: u32 = 0xb830;
pub const COMPUTE_PGM_HI: u32 = 0xb834;
pub const COMPUTE_PGM_RSRC1: u32 = 0xb848;
pub const COMPUTE_PGM_RSRC2: u32 = 0xb84c;
pub const COMPUTE_RESOURCE_LIMITS: u32 = 0xb854;
pub const COMPUTE_TMPRING_SIZE: u32 = 0xb860;
pub const COMPUTE_PGM_RSRC3: u32 = 0xb8a0;
pub const COMPUTE_USER_DATA_0: u32 = 0xb900;
pub const COMPUTE_USER_DATA_COUNT: u32 = 16;
/// Border-colour table of compute samplers (address >> 8, and bits 47:40).
pub const TA_CS_BC_BASE_ADDR: u32 = 0x30e00;
pub const TA_CS_BC_BASE_ADDR_HI: u32 = 0x30e04;

/// Which space a byte address belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Sh,
    Context,
    Uconfig,
}

impl Space {
    pub fn range(self) -> (u32, u32) {
        match self {
            Space::Sh => (SH_BASE, SH_END),
            Space::Context => (CONTEXT_BASE, CONTEXT_END),
            Space::Uconfig => (UCONFIG_BASE, UCONFIG_END),
        }
    }

    pub fn of(addr: u32) -> Option<Space> {
        [Space::Sh, Space::Context, Space::Uconfig].into_iter().find(|s| {
            let (lo, hi) = s.range();
            (lo..hi).contains(&addr)
        })
    }
}

/// All three user-writable register spaces, one dword per register, and which registers
/// were written since the queue started (or, for CONTEXT, since the last CLEAR_STATE): strict
/// mode refuses draws that need state never written.
#[derive(Debug, Clone)]
pub struct RegisterFile {
    sh: Vec<u32>,
    context: Vec<u32>,
    uconfig: Vec<u32>,
    /// One bit per dword of SH, CONTEXT then UCONFIG.
    written: Vec<u64>,
}

const SH_DWORDS: usize = ((SH_END - SH_BASE) / 4) as usize;
const CONTEXT_DWORDS: usize = ((CONTEXT_END - CONTEXT_BASE) / 4) as usize;
const UCONFIG_DWORDS: usize = ((UCONFIG_END - UCONFIG_BASE) / 4) as usize;

impl Default for RegisterFile {
    fn default() -> Self {
        RegisterFile {
            sh: vec![0; SH_DWORDS],
            context: vec![0; CONTEXT_DWORDS],
            uconfig: vec![0; UCONFIG_DWORDS],
            written: vec![0; (SH_DWORDS + CONTEXT_DWORDS + UCONFIG_DWORDS).div_ceil(64)],
        }
    }
}

/// Bit index of `addr` in [`RegisterFile::written`].
fn written_bit(addr: u32) -> Option<usize> {
    let space = Space::of(addr)?;
    let index = ((addr - space.range().0) / 4) as usize;
    Some(match space {
        Space::Sh => index,
        Space::Context => SH_DWORDS + index,
        Space::Uconfig => SH_DWORDS + CONTEXT_DWORDS + index,
    })
}

impl RegisterFile {
    fn slot(&mut self, addr: u32) -> Option<&mut u32> {
        let space = Space::of(addr)?;
        if addr % 4 != 0 {
            return None;
        }
        let index = ((addr - space.range().0) / 4) as usize;
        match space {
            Space::Sh => self.sh.get_mut(index),
            Space::Context => self.context.get_mut(index),
            Space::Uconfig => self.uconfig.get_mut(index),
        }
    }

    /// Writes the register at byte address `addr`; `false` if no such user register.
    pub fn write(&mut self, addr: u32, value: u32) -> bool {
        let ok = self.slot(addr).map(|r| *r = value).is_some();
        if let (true, Some(bit)) = (ok, written_bit(addr)) {
            self.written[bit / 64] |= 1 << (bit % 64);
        }
        ok
    }

    /// Whether the register at `addr` was written (CLEAR_STATE forgets CONTEXT writes).
    pub fn is_written(&self, addr: u32) -> bool {
        written_bit(addr).is_some_and(|bit| self.written[bit / 64] >> (bit % 64) & 1 != 0)
    }

    /// Reads the register at byte address `addr` (0 for addresses outside the spaces).
    pub fn read(&self, addr: u32) -> Option<u32> {
        let space = Space::of(addr)?;
        if addr % 4 != 0 {
            return None;
        }
        let index = ((addr - space.range().0) / 4) as usize;
        match space {
            Space::Sh => self.sh.get(index).copied(),
            Space::Context => self.context.get(index).copied(),
            Space::Uconfig => self.uconfig.get(index).copied(),
        }
    }

    /// Reads a register this simulator defines an address for (always inside a space).
    pub fn get(&self, addr: u32) -> u32 {
        self.read(addr).unwrap_or(0)
    }

    /// CLEAR_STATE: context registers back to their reset value.
    ///
    /// The kernel's clear-state values are not modelled: registers read 0 afterwards, and
    /// strict mode counts them as never written, so a draw needing them must write them.
    pub fn clear_context(&mut self) {
        self.context.fill(0);
        for i in 0..CONTEXT_DWORDS {
            let bit = SH_DWORDS + i;
            self.written[bit / 64] &= !(1 << (bit % 64));
        }
    }
}

/// Extracts bits `[hi:lo]` of a register value.
pub const fn field(value: u32, lo: u32, hi: u32) -> u32 {
    (value >> lo) & (u32::MAX >> (31 - (hi - lo)))
}
