//! The command processor: walks PM4 indirect buffers in GPU memory and executes packets.
//!
//! Packets are parsed from their real header format (type 3: COUNT in bits 29:16, IT_OPCODE
//! in bits 15:8, SHADER_TYPE bit 1, PREDICATE bit 0). Anything the simulator does not
//! implement, or a stream that runs past its buffer, is a [`GpuError`], which ends the job as
//! a context loss: the CP never guesses.

mod draw;
mod opcodes;
mod packets;
pub mod regs;

use std::time::Instant;

use crate::compute::ComputeEngine;
use crate::error::GpuError;
use crate::kernel::AddressSpace;
use crate::SimConfig;

pub use regs::RegisterFile;

/// IB1 may call IB2 (non-chained INDIRECT_BUFFER); deeper nesting does not exist.
const MAX_IB_DEPTH: u32 = 2;
/// IB_SIZE is a 20-bit dword count.
const MAX_IB_DWORDS: u32 = (1 << 20) - 1;
/// Chain hops one top-level IB may take before it counts as a loop: 2^20 IBs of even the
/// driver's smallest chunk (16 KiB) are 16 GiB of commands.
const MAX_CHAIN_HOPS: u32 = 1 << 20;

/// What a job's packets may touch.
pub struct Env<'a> {
    pub space: &'a AddressSpace,
    pub config: &'a SimConfig,
    pub compute: &'a ComputeEngine,
    pub gfx: &'a crate::gfx::GraphicsEngine,
    /// The GPU timestamp counter.
    pub timestamp: &'a (dyn Fn() -> u64 + Sync),
}

/// The state of one hardware queue: its registers survive across submissions, as on a GPU.
#[derive(Debug, Default)]
pub struct CommandProcessor {
    pub regs: RegisterFile,
    /// SET_BASE index 1: base address for DISPATCH_INDIRECT and the indirect draws on the
    /// graphics ring.
    indirect_base: u64,
    /// Pipeline statistics counters, in the hardware's sample order (11 on GFX10.3: PS, C
    /// primitives, C invocations, VS, GS invocations, GS primitives, IA primitives, IA
    /// vertices, HS, DS, CS invocations). GS, HS and DS never run here.
    pipeline_stats: [u64; PIPELINE_STATS],
    /// Between PIPELINESTAT_START and PIPELINESTAT_STOP events.
    stats_enabled: bool,
    /// Index buffer, instance count and occlusion counter for draws.
    draw: draw::DrawState,
}

/// Number of 64-bit pipeline-statistics counters SAMPLE_PIPELINESTAT writes on GFX10.3.
pub const PIPELINE_STATS: usize = 11;
/// Index of CS_INVOCATIONS among them.
const CS_INVOCATIONS: usize = 10;

/// Where execution continues after a packet.
enum Flow {
    Next,
    /// INDIRECT_BUFFER with CHAIN: continue in another buffer, never return.
    Chain {
        va: u64,
        size_dw: u32,
    },
}

impl CommandProcessor {
    /// Executes one top-level IB (from a CS IB chunk).
    pub fn run(&mut self, env: &Env<'_>, va: u64, size_dw: u32) -> Result<(), GpuError> {
        self.run_ib(env, va, size_dw, 1)
    }

    fn run_ib(&mut self, env: &Env<'_>, va: u64, size_dw: u32, depth: u32) -> Result<(), GpuError> {
        let start = Instant::now();
        let (mut va, mut size_dw) = (va, size_dw);
        let mut hops = 0u32;
        loop {
            if va % 4 != 0 {
                return Err(GpuError::MalformedPm4 {
                    addr: va,
                    what: "IB not dword aligned".into(),
                });
            }
            let words = read_ib(env.space, va, size_dw)?;
            match self.run_words(env, va, &words, depth)? {
                Flow::Next => return Ok(()),
                Flow::Chain { va: next, size_dw: n } => {
                    (va, size_dw) = (next, n);
                }
            }
            // A chain that loops forever is a hang: counted hops decide it, so a long but
            // finite command stream is never cut short by a busy host; the clock is the last
            // resort for a loop of expensive IBs.
            hops += 1;
            if hops > MAX_CHAIN_HOPS || start.elapsed() > env.config.watchdog {
                return Err(GpuError::Hang(format!("chained IBs ending at {va:#x} ({hops} hops)")));
            }
        }
    }

    fn run_words(
        &mut self,
        env: &Env<'_>,
        base: u64,
        words: &[u32],
        depth: u32,
    ) -> Result<Flow, GpuError> {
        let mut pos = 0usize;
        while pos < words.len() {
            let addr = base + 4 * pos as u64;
            let header = words[pos];
            match header >> 30 {
                3 => {}
                2 => {
                    // Type-2: a one-dword filler.
                    pos += 1;
                    continue;
                }
                t => {
                    return Err(GpuError::MalformedPm4 {
                        addr,
                        what: format!("type-{t} packet header {header:#010x}"),
                    })
                }
            }
            let count = (header >> 16) & 0x3fff;
            let opcode = (header >> 8) & 0xff;
            if opcode == opcodes::NOP && count == opcodes::NOP_HEADER_ONLY_COUNT {
                pos += 1;
                continue;
            }
            let body_len = count as usize + 1;
            let Some(body) = words.get(pos + 1..pos + 1 + body_len) else {
                return Err(GpuError::MalformedPm4 {
                    addr,
                    what: format!(
                        "packet {opcode:#x} with {body_len} body dwords runs past the IB end ({} dwords left)",
                        words.len() - pos - 1
                    ),
                });
            };
            if header & 1 != 0 {
                return Err(GpuError::Unsupported(format!(
                    "predicated packet {opcode:#x} at {addr:#x} (SET_PREDICATION is not modelled)"
                )));
            }
            let packet = packets::Packet { addr, header, opcode, body };
            match self.execute(env, &packet, depth)? {
                Flow::Next => {}
                chain @ Flow::Chain { .. } => return Ok(chain),
            }
            pos += 1 + body_len;
        }
        Ok(Flow::Next)
    }
}

/// Fetches a whole IB; an unmapped or unreadable IB is a VM fault.
fn read_ib(space: &AddressSpace, va: u64, size_dw: u32) -> Result<Vec<u32>, GpuError> {
    if size_dw > MAX_IB_DWORDS {
        return Err(GpuError::MalformedPm4 { addr: va, what: format!("IB of {size_dw} dwords") });
    }
    Ok(space.read_u32s(va, size_dw as usize)?)
}
