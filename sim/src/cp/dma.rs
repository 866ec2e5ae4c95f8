//! CP DMA (`DMA_DATA`, opcode 0x50): the command processor's own copy and fill engine, which
//! drivers use for buffer copies and fills that need no shader.
//!
//! Body layout (GFX9+, from the register database's `pkt3.json`: `DMA_DATA_WORD0_gfx9`,
//! `SRC_ADDR_LO/HI`, `DST_ADDR_LO/HI`, `COMMAND_gfx9`; six body dwords, COUNT = 5):
//! - body[0] WORD0: ENGINE[0], SRC_CACHE_POLICY[14:13], DST_SEL[21:20] (0 = DST_ADDR,
//!   1 = GDS, 2 = NOWHERE, 3 = DST_ADDR_TC_L2), DST_CACHE_POLICY[26:25], SRC_SEL[30:29]
//!   (0 = SRC_ADDR, 1 = GDS, 2 = DATA, 3 = SRC_ADDR_TC_L2), CP_SYNC[31]
//! - body[1..2] source address (SRC_SEL = DATA: body[1] is the fill dword)
//! - body[3..4] destination address
//! - body[5] COMMAND: BYTE_COUNT[25:0], SAS[26] / DAS[27] (address space: 0 = memory,
//!   1 = register), SAIC[28] / DAIC[29] (1 = do not increment the address), RAW_WAIT[30],
//!   DISABLE_WR_CONFIRM[31]
//!
//! Caches are not modelled, so the TC_L2 and direct selections behave alike, and the transfer
//! completes before the next packet (which is what CP_SYNC asks for anyway).

use super::packets::Packet;
use super::regs::field;
use super::Env;
use crate::error::GpuError;

const SRC_SEL_ADDR: u32 = 0;
const SRC_SEL_DATA: u32 = 2;
const SRC_SEL_ADDR_TC_L2: u32 = 3;
const DST_SEL_ADDR: u32 = 0;
const DST_SEL_NOWHERE: u32 = 2;
const DST_SEL_ADDR_TC_L2: u32 = 3;

/// Bytes moved per step, so a large copy never needs one huge host allocation.
const STEP: u64 = 1 << 20;

pub(super) fn dma_data(env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
    if p.body.len() < 6 {
        return Err(GpuError::MalformedPm4 {
            addr: p.addr,
            what: format!("DMA_DATA needs 6 body dwords, has {}", p.body.len()),
        });
    }
    let word0 = p.body[0];
    let (dst_sel, src_sel) = (field(word0, 20, 21), field(word0, 29, 30));
    let command = p.body[5];
    let bytes = u64::from(field(command, 0, 25));
    let (sas, das) = (command & (1 << 26) != 0, command & (1 << 27) != 0);
    let (saic, daic) = (command & (1 << 28) != 0, command & (1 << 29) != 0);
    if sas || das || saic || daic {
        return Err(GpuError::Unsupported(format!(
            "DMA_DATA register addressing or fixed addresses (COMMAND {command:#010x})"
        )));
    }
    let src = u64::from(p.body[1]) | (u64::from(p.body[2]) << 32);
    let dst = u64::from(p.body[3]) | (u64::from(p.body[4]) << 32);
    let to_memory = match dst_sel {
        DST_SEL_ADDR | DST_SEL_ADDR_TC_L2 => true,
        DST_SEL_NOWHERE => false,
        _ => return Err(GpuError::Unsupported(format!("DMA_DATA DST_SEL {dst_sel}"))),
    };
    let mut done = 0u64;
    while done < bytes {
        let n = (bytes - done).min(STEP);
        let chunk = match src_sel {
            SRC_SEL_ADDR | SRC_SEL_ADDR_TC_L2 => {
                let mut buf = vec![0u8; n as usize];
                env.space.read(src + done, &mut buf)?;
                buf
            }
            SRC_SEL_DATA => {
                if bytes % 4 != 0 {
                    return Err(GpuError::MalformedPm4 {
                        addr: p.addr,
                        what: "DMA_DATA fill of a byte count that is not a dword multiple".into(),
                    });
                }
                p.body[1].to_le_bytes().iter().copied().cycle().take(n as usize).collect()
            }
            _ => return Err(GpuError::Unsupported(format!("DMA_DATA SRC_SEL {src_sel}"))),
        };
        if to_memory {
            env.space.write(dst + done, &chunk)?;
        }
        done += n;
    }
    Ok(())
}
