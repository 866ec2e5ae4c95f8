//! Type-3 packet opcodes (IT_OPCODE) the command processor understands.

pub const NOP: u32 = 0x10;
pub const SET_BASE: u32 = 0x11;
pub const CLEAR_STATE: u32 = 0x12;
pub const DISPATCH_DIRECT: u32 = 0x15;
pub const DISPATCH_INDIRECT: u32 = 0x16;
pub const CONTEXT_CONTROL: u32 = 0x28;
pub const WRITE_DATA: u32 = 0x37;
pub const WAIT_REG_MEM: u32 = 0x3c;
pub const INDIRECT_BUFFER: u32 = 0x3f;
pub const COPY_DATA: u32 = 0x40;
pub const PFP_SYNC_ME: u32 = 0x42;
pub const EVENT_WRITE: u32 = 0x46;
pub const RELEASE_MEM: u32 = 0x49;
pub const DMA_DATA: u32 = 0x50;
pub const ACQUIRE_MEM: u32 = 0x58;
pub const SET_CONTEXT_REG: u32 = 0x69;
pub const SET_SH_REG: u32 = 0x76;
pub const SET_UCONFIG_REG: u32 = 0x79;
pub const SET_UCONFIG_REG_INDEX: u32 = 0x7a;
pub const SET_SH_REG_INDEX: u32 = 0x9b;

/// The header-only NOP Mesa pads with: COUNT = 0x3FFF means "no body".
pub const NOP_HEADER_ONLY_COUNT: u32 = 0x3fff;

// Graphics (pm4-gfx103.md §3, §5).
pub const INDEX_BUFFER_SIZE: u32 = 0x13;
pub const DRAW_INDIRECT: u32 = 0x24;
pub const DRAW_INDEX_INDIRECT: u32 = 0x25;
pub const INDEX_BASE: u32 = 0x26;
pub const DRAW_INDEX_2: u32 = 0x27;
pub const INDEX_TYPE: u32 = 0x2a;
pub const DRAW_INDIRECT_MULTI: u32 = 0x2c;
pub const DRAW_INDEX_AUTO: u32 = 0x2d;
pub const NUM_INSTANCES: u32 = 0x2f;
pub const DRAW_INDEX_OFFSET_2: u32 = 0x35;
pub const DRAW_INDEX_INDIRECT_MULTI: u32 = 0x38;
pub const EVENT_WRITE_EOP: u32 = 0x47;
