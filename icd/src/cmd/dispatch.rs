//! Compute state and dispatches, per the compute shader ABI (`ferrum_compiler::amd::abi`):
//! user SGPRs s[0:1] = set table, s[2:3] = push block, s[4:5] = workgroup counts.
//!
//! The set table, push block and counts of each dispatch are embedded in the command stream
//! (see [`CmdStream::embed`]), so a later bind or push in the same command buffer never
//! changes what an earlier dispatch sees.

use std::sync::Arc;

use ferrum_compiler::amd::abi;
use ferrum_winsys as winsys;

use super::pm4;
use super::stream::CmdStream;
use crate::descriptor::pool::DynamicBuffer;
use crate::descriptor::vsharp;
use crate::error::{VkError, VkResult};
use crate::pipeline::ComputeProgram;

/// Compute registers (pm4-gfx103.md Appendix A1).
mod reg {
    pub const COMPUTE_START_X: u32 = 0xb810;
    pub const COMPUTE_NUM_THREAD_X: u32 = 0xb81c;
    pub const COMPUTE_PGM_LO: u32 = 0xb830;
    pub const COMPUTE_PGM_RSRC1: u32 = 0xb848;
    pub const COMPUTE_PGM_RSRC3: u32 = 0xb8a0;
    pub const COMPUTE_USER_DATA_0: u32 = 0xb900;
    pub const COMPUTE_TMPRING_SIZE: u32 = 0xb860;
}

const SET_SH_REG: u32 = 0x76;
const SET_BASE: u32 = 0x11;
const DISPATCH_DIRECT: u32 = 0x15;
const DISPATCH_INDIRECT: u32 = 0x16;
/// SHADER_TYPE = compute in the header of dispatch packets (pm4-gfx103.md §2).
const SHADER_TYPE_COMPUTE: u32 = 1 << 1;
/// DISPATCH_INITIATOR: COMPUTE_SHADER_EN, FORCE_START_AT_000.
const COMPUTE_SHADER_EN: u32 = 1;
const FORCE_START_AT_000: u32 = 1 << 2;

/// A bound descriptor set: its memory and its dynamic buffers with the offsets applied.
#[derive(Debug, Clone, Default)]
pub struct BoundSet {
    pub va: u64,
    pub dynamic: Vec<DynamicBuffer>,
}

/// Compute state of a command buffer.
pub struct ComputeState {
    pub pipeline: Option<Arc<ComputeProgram>>,
    pub sets: [BoundSet; abi::MAX_SETS as usize],
    pub push: [u8; abi::MAX_PUSH_BYTES as usize],
}

impl Default for ComputeState {
    fn default() -> Self {
        ComputeState {
            pipeline: None,
            sets: Default::default(),
            push: [0; abi::MAX_PUSH_BYTES as usize],
        }
    }
}

impl ComputeState {
    pub fn reset(&mut self) {
        *self = ComputeState::default();
    }
}

fn set_sh(s: &mut CmdStream, reg: u32, values: &[u32]) -> VkResult<()> {
    s.emit2(&[pm4::header(SET_SH_REG, 1 + values.len()), (reg - 0xb000) / 4], values)
}

/// How many workgroups a dispatch has.
#[derive(Debug, Clone, Copy)]
pub enum Groups {
    Direct([u32; 3]),
    /// A `VkDispatchIndirectCommand` at this GPU address.
    Indirect(u64),
}

/// The push block: push constants, then the dynamic buffers' V#s at byte 256.
fn push_block(st: &ComputeState, program: &ComputeProgram) -> Vec<u32> {
    let mut words: Vec<u32> =
        st.push.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    words.resize((abi::DYNAMIC_DESCRIPTOR_OFFSET / 4) as usize, 0);
    let mut dynamic = vec![[0u32; 4]; program.dynamic_count as usize];
    for (set, &(base, count)) in program.dynamic_sets.iter().enumerate() {
        for (i, d) in st.sets[set].dynamic.iter().take(count as usize).enumerate() {
            dynamic[base as usize + i] = vsharp::buffer(d.va, d.range);
        }
    }
    words.extend(dynamic.iter().flatten());
    words
}

/// `vkCmdDispatch`, `vkCmdDispatchBase`, `vkCmdDispatchIndirect`.
pub fn dispatch(
    s: &mut CmdStream,
    st: &ComputeState,
    ip: winsys::Ip,
    groups: Groups,
    base: [u32; 3],
) -> VkResult<()> {
    let program =
        st.pipeline.clone().ok_or(VkError::InvalidUsage("dispatch without a pipeline"))?;
    if let Groups::Direct(g) = groups {
        if g.contains(&0) {
            return Ok(());
        }
    }
    let table: Vec<u32> = st.sets.iter().flat_map(|b| [b.va as u32, (b.va >> 32) as u32]).collect();
    let table_va = s.embed(&table)?;
    let push_va = s.embed(&push_block(st, &program))?;
    let counts_va = match groups {
        Groups::Direct(g) => s.embed(&g)?,
        Groups::Indirect(va) => va,
    };
    let m = &program.metadata;
    let code = program.code_va();
    set_sh(s, reg::COMPUTE_PGM_LO, &[(code >> 8) as u32, (code >> 40) as u32])?;
    set_sh(s, reg::COMPUTE_PGM_RSRC1, &[m.rsrc1, m.rsrc2])?;
    set_sh(s, reg::COMPUTE_PGM_RSRC3, &[m.rsrc3])?;
    set_sh(s, reg::COMPUTE_NUM_THREAD_X, &m.workgroup_size)?;
    if m.scratch_bytes_per_lane > 0 {
        set_sh(s, reg::COMPUTE_TMPRING_SIZE, &[m.tmpring_size()])?;
    }
    // The metadata decides the user-SGPR layout (the scratch ring address only for scratch).
    let user = m.user_layout().user_data(table_va, push_va, counts_va, program.scratch_va());
    set_sh(s, reg::COMPUTE_USER_DATA_0, &user)?;
    set_sh(s, reg::COMPUTE_START_X, &base)?;
    let mut initiator = COMPUTE_SHADER_EN | abi::DISPATCH_INITIATOR_CS_W32_EN;
    if base == [0; 3] {
        initiator |= FORCE_START_AT_000;
    }
    match groups {
        // DIM is an end value: the hardware runs group ids START..DIM-1.
        Groups::Direct(g) => {
            let body = [base[0] + g[0], base[1] + g[1], base[2] + g[2], initiator];
            s.emit2(&[pm4::header(DISPATCH_DIRECT, 4) | SHADER_TYPE_COMPUTE], &body)
        }
        // The graphics ring takes the argument address from SET_BASE; the compute rings take
        // it in the packet (pm4-gfx103.md §4.3).
        Groups::Indirect(va) => match ip {
            winsys::Ip::Gfx => {
                s.emit(&[
                    pm4::header(SET_BASE, 3) | SHADER_TYPE_COMPUTE,
                    1,
                    va as u32,
                    (va >> 32) as u32,
                ])?;
                s.emit(&[pm4::header(DISPATCH_INDIRECT, 2) | SHADER_TYPE_COMPUTE, 0, initiator])
            }
            winsys::Ip::Compute => s.emit(&[
                pm4::header(DISPATCH_INDIRECT, 3) | SHADER_TYPE_COMPUTE,
                va as u32,
                (va >> 32) as u32,
                initiator,
            ]),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::device::DeviceShared;
    use crate::core::physical_device::Adapter;

    /// The words of the last packet with `opcode` in a recorded stream.
    fn last_packet(words: &[u32], opcode: u32) -> Vec<u32> {
        let (mut at, mut found) = (0, Vec::new());
        while at < words.len() {
            let h = words[at];
            if h == pm4::NOP_HEADER_ONLY {
                at += 1;
                continue;
            }
            let n = ((h >> 16) & 0x3fff) as usize + 1;
            if (h >> 8) & 0xff == opcode {
                found = words[at + 1..at + 1 + n].to_vec();
            }
            at += 1 + n;
        }
        found
    }

    #[test]
    fn dispatch_base_programs_start_and_end_values() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter).unwrap());
        let meta = abi::ShaderMetadata::new([32, 1, 1], 8, 10, 0, 0);
        let program = ComputeProgram::from_parts(&shared, &[0xbf81_0000], meta.clone()).unwrap();
        let code_va = program.code_va();
        let st = ComputeState { pipeline: Some(Arc::new(program)), ..Default::default() };
        let mut s = CmdStream::new(shared);
        dispatch(&mut s, &st, winsys::Ip::Compute, Groups::Direct([4, 2, 1]), [10, 0, 3]).unwrap();
        s.finish().unwrap();
        let words = s.words().concat();
        // ABI: group ids run from START, DIM is START + count, and no FORCE_START_AT_000.
        let d = last_packet(&words, DISPATCH_DIRECT);
        assert_eq!(d, [14, 2, 4, COMPUTE_SHADER_EN | abi::DISPATCH_INITIATOR_CS_W32_EN]);
        let start_index = (reg::COMPUTE_START_X - 0xb000) / 4;
        let sh: Vec<Vec<u32>> = {
            let mut out = Vec::new();
            let mut at = 0;
            while at < words.len() {
                let h = words[at];
                let n =
                    if h == pm4::NOP_HEADER_ONLY { 0 } else { ((h >> 16) & 0x3fff) as usize + 1 };
                if h != pm4::NOP_HEADER_ONLY && (h >> 8) & 0xff == SET_SH_REG {
                    out.push(words[at + 1..at + 1 + n].to_vec());
                }
                at += 1 + n;
            }
            out
        };
        assert!(sh.contains(&vec![start_index, 10, 0, 3]));
        let pgm_index = (reg::COMPUTE_PGM_LO - 0xb000) / 4;
        assert!(sh.contains(&vec![pgm_index, (code_va >> 8) as u32, (code_va >> 40) as u32]));
        assert!(sh.contains(&vec![(reg::COMPUTE_PGM_RSRC1 - 0xb000) / 4, meta.rsrc1, meta.rsrc2]));
        // The user SGPRs point at the embedded tables: the counts are the three group counts.
        let user = sh.iter().find(|p| p[0] == (reg::COMPUTE_USER_DATA_0 - 0xb000) / 4).unwrap();
        let counts_va = u64::from(user[5]) | (u64::from(user[6]) << 32);
        let counts = last_packet(&words, pm4::op::NOP);
        assert_eq!(counts, [4, 2, 1]);
        assert_eq!(counts_va % 4, 0);
    }

    /// The SET_SH_REG bodies of a recorded stream.
    fn sh_writes(words: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < words.len() {
            let h = words[at];
            let n = if h == pm4::NOP_HEADER_ONLY { 0 } else { ((h >> 16) & 0x3fff) as usize + 1 };
            if h != pm4::NOP_HEADER_ONLY && (h >> 8) & 0xff == SET_SH_REG {
                out.push(words[at + 1..at + 1 + n].to_vec());
            }
            at += 1 + n;
        }
        out
    }

    #[test]
    fn scratch_programs_get_their_ring_and_tmpring_size() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter).unwrap());
        let record = |meta: abi::ShaderMetadata| {
            let program = ComputeProgram::from_parts(&shared, &[0xbf81_0000], meta).unwrap();
            let ring = program.scratch_va();
            let st = ComputeState { pipeline: Some(Arc::new(program)), ..Default::default() };
            let mut s = CmdStream::new(shared.clone());
            dispatch(&mut s, &st, winsys::Ip::Compute, Groups::Direct([1, 1, 1]), [0; 3]).unwrap();
            s.finish().unwrap();
            (ring, sh_writes(&s.words().concat()))
        };
        let user_index = (reg::COMPUTE_USER_DATA_0 - 0xb000) / 4;
        let tmpring_index = (reg::COMPUTE_TMPRING_SIZE - 0xb000) / 4;
        let meta = abi::ShaderMetadata::new([32, 1, 1], 8, 16, 0, 400);
        let (ring, sh) = record(meta.clone());
        assert_ne!(ring, 0);
        assert!(sh.contains(&vec![tmpring_index, meta.tmpring_size()]));
        let user = sh.iter().find(|p| p[0] == user_index).unwrap();
        assert_eq!(user.len(), 1 + 8, "scratch shaders take 8 user SGPRs");
        assert_eq!(user[7..], [ring as u32, (ring >> 32) as u32]);
        let (ring, sh) = record(abi::ShaderMetadata::new([32, 1, 1], 8, 16, 0, 0));
        assert_eq!(ring, 0);
        assert!(!sh.iter().any(|p| p[0] == tmpring_index));
        assert_eq!(sh.iter().find(|p| p[0] == user_index).unwrap().len(), 1 + 6);
    }

    #[test]
    fn dispatch_headers_match_the_reference_table() {
        assert_eq!(pm4::header(DISPATCH_DIRECT, 4) | SHADER_TYPE_COMPUTE, 0xC003_1502);
        assert_eq!(pm4::header(DISPATCH_INDIRECT, 2) | SHADER_TYPE_COMPUTE, 0xC001_1602);
        assert_eq!(pm4::header(DISPATCH_INDIRECT, 3) | SHADER_TYPE_COMPUTE, 0xC002_1602);
    }
}
