//! PM4 type-3 packets for GFX10.3, as pure functions from arguments to dwords.
//!
//! Layouts follow `pm4-gfx103.md` (§2 headers, §4 bodies) and, for `DMA_DATA`, the register
//! database's `pkt3.json` (`DMA_DATA_WORD0_gfx9`, `COMMAND_gfx9`). Keeping packet building
//! free of command-buffer state makes every packet testable on its own.

/// Type-3 opcodes (IT_OPCODE) Ferrum emits.
pub mod op {
    pub const NOP: u32 = 0x10;
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
}

/// The header-only one-dword NOP (COUNT = 0x3FFF) used for padding.
pub const NOP_HEADER_ONLY: u32 = 0xffff_1000;
/// IBs are padded to a multiple of this many dwords.
pub const IB_ALIGN_DW: usize = 8;
/// Dwords of an INDIRECT_BUFFER packet.
pub const INDIRECT_BUFFER_DW: usize = 4;
/// COUNT is 14 bits: a packet body holds at most 16384 dwords.
pub const MAX_BODY_DW: usize = 1 << 14;

/// A type-3 header for a body of `body_dw` dwords.
pub const fn header(opcode: u32, body_dw: usize) -> u32 {
    0xc000_0000 | (((body_dw as u32 - 1) & 0x3fff) << 16) | (opcode << 8)
}

const fn lo(va: u64) -> u32 {
    va as u32
}

const fn hi(va: u64) -> u32 {
    (va >> 32) as u32
}

/// VGT_EVENT_TYPE values (pm4-gfx103.md §4.4).
pub mod event {
    pub const CS_PARTIAL_FLUSH: u32 = 7;
    pub const PS_PARTIAL_FLUSH: u32 = 16;
    pub const FLUSH_AND_INV_DB_META: u32 = 44;
    pub const FLUSH_AND_INV_CB_META: u32 = 46;
    pub const BOTTOM_OF_PIPE_TS: u32 = 40;
}

/// EVENT_WRITE of a non-sampling event; partial flushes use EVENT_INDEX 4.
pub const fn event_write(event_type: u32, index: u32) -> [u32; 2] {
    [header(op::EVENT_WRITE, 1), event_type | (index << 8)]
}

/// EVENT_WRITE of a sampling event that writes counters to `va` (ZPASS_DONE with EVENT_INDEX
/// 1, SAMPLE_PIPELINESTAT with EVENT_INDEX 2).
pub const fn event_write_to(event_type: u32, index: u32, va: u64) -> [u32; 4] {
    [header(op::EVENT_WRITE, 3), event_type | (index << 8), lo(va), hi(va)]
}

/// SET_CONTEXT_REG of one register (byte offset `reg` in the context range 0x28000..).
pub const fn set_context_reg(reg: u32, value: u32) -> [u32; 3] {
    [header(op::SET_CONTEXT_REG, 2), (reg - 0x28000) / 4, value]
}

/// GCR_CNTL bits of ACQUIRE_MEM (pm4-gfx103.md §4.6).
pub mod gcr {
    pub const GLI_INV_ALL: u32 = 1;
    pub const GLM_WB: u32 = 1 << 4;
    pub const GLM_INV: u32 = 1 << 5;
    pub const GLK_INV: u32 = 1 << 7;
    pub const GLV_INV: u32 = 1 << 8;
    pub const GL1_INV: u32 = 1 << 9;
    pub const GL2_INV: u32 = 1 << 14;
    pub const GL2_WB: u32 = 1 << 15;
}

/// ACQUIRE_MEM over the whole address range with the given cache operations.
pub const fn acquire_mem(gcr_cntl: u32) -> [u32; 8] {
    [header(op::ACQUIRE_MEM, 7), 0, 0xffff_ffff, 0x00ff_ffff, 0, 0, 10, gcr_cntl]
}

pub const fn pfp_sync_me() -> [u32; 2] {
    [header(op::PFP_SYNC_ME, 1), 0]
}

/// What RELEASE_MEM writes once prior work reached the bottom of the pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseData {
    Value32(u32),
    Value64(u64),
    Timestamp,
}

/// RELEASE_MEM at BOTTOM_OF_PIPE_TS (EVENT_INDEX 5), writing to memory with write confirm.
pub const fn release_mem(va: u64, data: ReleaseData) -> [u32; 8] {
    let (sel, value) = match data {
        ReleaseData::Value32(v) => (1, v as u64),
        ReleaseData::Value64(v) => (2, v),
        ReleaseData::Timestamp => (3, 0),
    };
    let event_cntl = event::BOTTOM_OF_PIPE_TS | (5 << 8);
    // DATA_SEL[31:29], INT_SEL[26:24] = 3 (after write confirm), DST_SEL[17:16] = 0 (memory).
    let data_cntl = (sel << 29) | (3 << 24);
    [header(op::RELEASE_MEM, 7), event_cntl, data_cntl, lo(va), hi(va), lo(value), hi(value), 0]
}

/// WRITE_DATA CONTROL: DST_SEL = 5 (memory), WR_CONFIRM, ENGINE = ME.
const WRITE_DATA_MEMORY: u32 = (5 << 8) | (1 << 20);

/// The first three dwords of a WRITE_DATA of `n` dwords to memory at `va`; the data follows.
pub const fn write_data_head(va: u64, n: usize) -> [u32; 4] {
    [header(op::WRITE_DATA, 3 + n), WRITE_DATA_MEMORY, lo(va), hi(va)]
}

/// COPY_DATA SRC_SEL values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopySource {
    Memory(u64),
    Timestamp,
}

/// COPY_DATA of 32 or 64 bits into memory at `dst`, with write confirm.
pub const fn copy_data(src: CopySource, dst: u64, wide: bool) -> [u32; 6] {
    let (src_sel, src_va) = match src {
        CopySource::Memory(va) => (1, va),
        CopySource::Timestamp => (9, 0),
    };
    let control = src_sel | (5 << 8) | ((wide as u32) << 16) | (1 << 20);
    [header(op::COPY_DATA, 5), control, lo(src_va), hi(src_va), lo(dst), hi(dst)]
}

/// WAIT_REG_MEM until the dword at `va`, masked, equals `reference`.
pub const fn wait_mem_equal(va: u64, reference: u32, mask: u32) -> [u32; 7] {
    // FUNCTION = 3 (equal), MEM_SPACE = 1 (memory), ENGINE = ME.
    [header(op::WAIT_REG_MEM, 6), 3 | (1 << 4), lo(va), hi(va), reference, mask, 4]
}

/// INDIRECT_BUFFER: a call (IB2) or, with `chain`, a jump that never returns.
pub const fn indirect_buffer(va: u64, size_dw: u32, chain: bool) -> [u32; 4] {
    let control = if chain { size_dw | (1 << 20) | (1 << 23) } else { size_dw };
    [header(op::INDIRECT_BUFFER, 3), lo(va), hi(va) & 0xffff, control]
}

/// The largest byte count one DMA_DATA moves (BYTE_COUNT is 26 bits); page-aligned so that
/// split copies keep their alignment.
pub const DMA_MAX_BYTES: u64 = (1 << 26) - 4096;
const _: () = assert!(DMA_MAX_BYTES % 4096 == 0 && DMA_MAX_BYTES < 1 << 26);

/// What DMA_DATA reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DmaSource {
    Memory(u64),
    /// Fill with this dword.
    Data(u32),
}

/// DMA_DATA through L2 (SRC_SEL / DST_SEL = the TC_L2 forms). `sync` sets CP_SYNC: the CP
/// waits for the transfer before it processes later packets.
pub const fn dma_data(src: DmaSource, dst: u64, bytes: u32, sync: bool) -> [u32; 7] {
    let (src_sel, src_va) = match src {
        DmaSource::Memory(va) => (3, va),
        DmaSource::Data(v) => (2, v as u64),
    };
    let word0 = (src_sel << 29) | (3 << 20) | ((sync as u32) << 31);
    let command = bytes & 0x03ff_ffff;
    [header(op::DMA_DATA, 6), word0, lo(src_va), hi(src_va), lo(dst), hi(dst), command]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Header values listed in pm4-gfx103.md §3.
    #[test]
    fn headers_match_the_reference_table() {
        assert_eq!(header(op::RELEASE_MEM, 7), 0xC006_4900);
        assert_eq!(header(op::ACQUIRE_MEM, 7), 0xC006_5800);
        assert_eq!(header(op::WRITE_DATA, 4), 0xC003_3700);
        assert_eq!(header(op::COPY_DATA, 5), 0xC004_4000);
        assert_eq!(header(op::INDIRECT_BUFFER, 3), 0xC002_3F00);
        assert_eq!(header(op::WAIT_REG_MEM, 6), 0xC005_3C00);
        assert_eq!(pfp_sync_me()[0], 0xC000_4200);
        assert_eq!(event_write(event::CS_PARTIAL_FLUSH, 4), [0xC000_4600, 0x407]);
    }

    /// The bottom-of-pipe fence example of pm4-gfx103.md §4.5.
    #[test]
    fn release_mem_fence_matches_the_reference_example() {
        let p = release_mem(0x1_2345_6780, ReleaseData::Value32(9));
        assert_eq!(p, [0xC006_4900, 0x528, 0x2300_0000, 0x2345_6780, 1, 9, 0, 0]);
        assert_eq!(release_mem(0, ReleaseData::Timestamp)[2], 0x6300_0000);
        assert_eq!(release_mem(0, ReleaseData::Value64(1))[2], 0x4300_0000);
    }

    #[test]
    fn write_data_uses_the_mesa_memory_control() {
        assert_eq!(write_data_head(0x10, 1), [0xC003_3700, 0x0010_0500, 0x10, 0]);
    }

    #[test]
    fn indirect_buffer_chain_sets_chain_and_valid() {
        assert_eq!(indirect_buffer(0xAB_0000_1000, 64, true)[3], 64 | (1 << 20) | (1 << 23));
        assert_eq!(indirect_buffer(0xAB_0000_1000, 64, false)[1..], [0x1000, 0xAB, 64]);
    }

    #[test]
    fn dma_data_fields() {
        let p = dma_data(DmaSource::Data(0xdead_beef), 0x2000, 64, true);
        assert_eq!(p[0], 0xC005_5000);
        assert_eq!(p[1], (2 << 29) | (3 << 20) | (1 << 31));
        assert_eq!((p[2], p[4], p[6]), (0xdead_beef, 0x2000, 64));
    }
}
