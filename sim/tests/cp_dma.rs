//! CP DMA (DMA_DATA): copies and fills between GPU addresses, and faults on unmapped ranges.

mod common;

use common::{pm4, Gpu};

const DMA_DATA: u32 = 0x50;
/// WORD0: SRC_SEL / DST_SEL = the TC_L2 address forms, CP_SYNC.
const COPY_WORD0: u32 = (3 << 29) | (3 << 20) | (1 << 31);
/// WORD0: SRC_SEL = DATA, DST_SEL = TC_L2 address.
const FILL_WORD0: u32 = (2 << 29) | (3 << 20);

fn dma(ib: &mut Vec<u32>, word0: u32, src: u64, dst: u64, bytes: u32) {
    let body = [word0, src as u32, (src >> 32) as u32, dst as u32, (dst >> 32) as u32, bytes];
    pm4::packet(ib, DMA_DATA, &body);
}

#[test]
fn copies_bytes_and_fills_dwords() {
    let gpu = Gpu::new();
    let src = gpu.buffer(3 * 4096);
    let dst = gpu.buffer(3 * 4096);
    let pattern: Vec<u8> = (0..9000u32).map(|i| (i * 7 + 3) as u8).collect();
    src.map.write(0, &pattern).unwrap();
    let mut ib = Vec::new();
    // An odd byte count and offsets across page boundaries.
    dma(&mut ib, COPY_WORD0, src.va + 1, dst.va + 5, 8999);
    dma(&mut ib, FILL_WORD0, 0xdead_beef, dst.va + 9008, 64);
    assert!(gpu.run(&ib, &[&src, &dst]).unwrap());
    let mut out = vec![0u8; 9072];
    dst.map.read(0, &mut out).unwrap();
    assert_eq!(&out[5..9004], &pattern[1..9000]);
    assert_eq!(&out[..5], &[0; 5]);
    assert!(out[9008..9072].chunks(4).all(|c| c == 0xdead_beefu32.to_le_bytes()));
}

#[test]
fn a_copy_from_unmapped_memory_loses_the_context() {
    let gpu = Gpu::new();
    let dst = gpu.buffer(4096);
    let mut ib = Vec::new();
    dma(&mut ib, COPY_WORD0, 0x7700_0000_0000, dst.va, 64);
    assert!(gpu.run(&ib, &[&dst]).is_err());
}

#[test]
fn a_fill_of_a_partial_dword_is_malformed() {
    let gpu = Gpu::new();
    let dst = gpu.buffer(4096);
    let mut ib = Vec::new();
    dma(&mut ib, FILL_WORD0, 1, dst.va, 6);
    assert!(gpu.run(&ib, &[&dst]).is_err());
}
