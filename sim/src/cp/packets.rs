//! Execution of individual type-3 packets (body layouts as in pm4-gfx103.md §4).

use std::time::{Duration, Instant};

use super::opcodes as op;
use super::regs::{self, field, Space};
use super::{CommandProcessor, Env, Flow, MAX_IB_DEPTH};
use crate::error::GpuError;

/// VGT_EVENT_TYPE values (gfx103.json).
const PIPELINESTAT_START: u32 = 25;
const PIPELINESTAT_STOP: u32 = 26;
const SAMPLE_PIPELINESTAT: u32 = 30;
const ZPASS_DONE: u32 = 21;
/// Render backends that each report an occlusion count (navi21).
const ZPASS_RBS: u64 = 16;

/// One parsed packet.
pub struct Packet<'a> {
    pub addr: u64,
    pub header: u32,
    pub opcode: u32,
    pub body: &'a [u32],
}

impl Packet<'_> {
    pub(super) fn malformed(&self, what: impl Into<String>) -> GpuError {
        GpuError::MalformedPm4 { addr: self.addr, what: what.into() }
    }

    fn unsupported(&self) -> GpuError {
        GpuError::UnsupportedPacket { addr: self.addr, header: self.header, opcode: self.opcode }
    }

    /// Requires at least `n` body dwords.
    pub(super) fn need(&self, n: usize) -> Result<(), GpuError> {
        if self.body.len() < n {
            return Err(self.malformed(format!(
                "packet {:#x} needs {n} body dwords, has {}",
                self.opcode,
                self.body.len()
            )));
        }
        Ok(())
    }

    pub(super) fn addr64(&self, lo: usize) -> u64 {
        u64::from(self.body[lo]) | (u64::from(self.body[lo + 1]) << 32)
    }
}

impl CommandProcessor {
    pub(super) fn execute(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
        depth: u32,
    ) -> Result<Flow, GpuError> {
        match p.opcode {
            op::NOP | op::PFP_SYNC_ME | op::CONTEXT_CONTROL => {}
            // Caches are not modelled: every access goes straight to memory, so cache
            // invalidations and write-backs have nothing to do.
            op::ACQUIRE_MEM => {
                p.need(6)?;
                // GCR_CNTL.GLI_INV: the instruction cache is the one cache the simulator has.
                if p.body.len() >= 7 && field(p.body[6], 0, 1) != 0 {
                    env.compute.invalidate_programs();
                }
            }
            op::CLEAR_STATE => self.regs.clear_context(),
            op::SET_SH_REG | op::SET_SH_REG_INDEX => self.set_regs(env, p, Space::Sh)?,
            op::SET_CONTEXT_REG => self.set_regs(env, p, Space::Context)?,
            op::SET_UCONFIG_REG | op::SET_UCONFIG_REG_INDEX => {
                self.set_regs(env, p, Space::Uconfig)?
            }
            op::INDEX_BASE => self.index_base(p)?,
            op::INDEX_BUFFER_SIZE => {
                p.need(1)?;
                self.draw.index_buffer_size = Some(p.body[0]);
            }
            op::INDEX_TYPE => self.index_type(p)?,
            op::NUM_INSTANCES => {
                p.need(1)?;
                self.draw.num_instances = Some(p.body[0]);
            }
            op::DRAW_INDEX_AUTO => self.draw_index_auto(env, p)?,
            op::DRAW_INDEX_2 => self.draw_index_2(env, p)?,
            op::DRAW_INDEX_OFFSET_2 => self.draw_index_offset_2(env, p)?,
            op::DRAW_INDIRECT => self.draw_indirect(env, p, false, false)?,
            op::DRAW_INDEX_INDIRECT => self.draw_indirect(env, p, true, false)?,
            op::DRAW_INDIRECT_MULTI => self.draw_indirect(env, p, false, true)?,
            op::DRAW_INDEX_INDIRECT_MULTI => self.draw_indirect(env, p, true, true)?,
            op::EVENT_WRITE_EOP => self.event_write_eop(env, p)?,
            op::SET_BASE => self.set_base(p)?,
            op::DISPATCH_DIRECT => self.dispatch_direct(env, p)?,
            op::DISPATCH_INDIRECT => self.dispatch_indirect(env, p)?,
            op::EVENT_WRITE => self.event_write(env, p)?,
            op::RELEASE_MEM => release_mem(env, p)?,
            op::WRITE_DATA => self.write_data(env, p)?,
            op::COPY_DATA => self.copy_data(env, p)?,
            op::WAIT_REG_MEM => self.wait_reg_mem(env, p)?,
            op::DMA_DATA => dma_data(env, p)?,
            op::INDIRECT_BUFFER => return self.indirect_buffer(env, p, depth),
            _ => return Err(p.unsupported()),
        }
        Ok(Flow::Next)
    }

    /// SET_*_REG and their INDEX forms (the index, body[0] bits 31:28, selects CU-mask
    /// handling or a context-register variant; it does not change the values written).
    ///
    /// Strict mode: every register must exist on GFX10.3 and every value must fit its
    /// fields (no bits outside them, enumerated fields hold a named value).
    fn set_regs(&mut self, env: &Env<'_>, p: &Packet<'_>, space: Space) -> Result<(), GpuError> {
        p.need(2)?;
        let first = space.range().0 + 4 * (p.body[0] & 0xffff);
        for (i, &value) in p.body[1..].iter().enumerate() {
            let addr = first + 4 * i as u32;
            if Space::of(addr) != Some(space) || !self.regs.write(addr, value) {
                return Err(p.malformed(format!("register {addr:#x} outside the {space:?} space")));
            }
            if env.config.strict {
                let Some(info) = ferrum_regs::lookup(addr) else {
                    return Err(GpuError::BadState(format!(
                        "write of {value:#x} to {addr:#x} at {:#x}: no such GFX10.3 register",
                        p.addr
                    )));
                };
                info.check(value)
                    .map_err(|e| GpuError::BadState(format!("{e} (packet at {:#x})", p.addr)))?;
            }
        }
        Ok(())
    }

    fn set_base(&mut self, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(3)?;
        match p.body[0] & 0xf {
            1 => self.indirect_base = p.addr64(1),
            _ => return Err(p.unsupported()),
        }
        Ok(())
    }

    fn dispatch_direct(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(4)?;
        self.launch(env, [p.body[0], p.body[1], p.body[2]], p.body[3])
    }

    fn dispatch_indirect(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        // Compute-ring form: address lo/hi, initiator. Graphics-ring form: offset from the
        // SET_BASE base, initiator.
        let (args_va, initiator) = match p.body.len() {
            3 => (p.addr64(0), p.body[2]),
            2 => (self.indirect_base.wrapping_add(u64::from(p.body[0])), p.body[1]),
            _ => return Err(p.malformed("DISPATCH_INDIRECT body must be 2 or 3 dwords")),
        };
        if args_va % 4 != 0 {
            return Err(p.malformed("DISPATCH_INDIRECT arguments not dword aligned"));
        }
        let dims = env.space.read_u32s(args_va, 3)?;
        self.launch(env, [dims[0], dims[1], dims[2]], initiator)
    }

    fn launch(&mut self, env: &Env<'_>, dims: [u32; 3], initiator: u32) -> Result<(), GpuError> {
        for (reg, value) in [
            (regs::COMPUTE_DIM_X, dims[0]),
            (regs::COMPUTE_DIM_Y, dims[1]),
            (regs::COMPUTE_DIM_Z, dims[2]),
            (regs::COMPUTE_DISPATCH_INITIATOR, initiator),
        ] {
            self.regs.write(reg, value);
        }
        let invocations = env.compute.dispatch(&self.regs, env)?;
        if self.stats_enabled {
            self.pipeline_stats[super::CS_INVOCATIONS] += invocations;
        }
        Ok(())
    }

    fn event_write(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(1)?;
        let event_type = field(p.body[0], 0, 5);
        let event_index = field(p.body[0], 8, 11);
        // Flushes and other events need no action: dispatches finish synchronously.
        match (event_type, event_index) {
            (PIPELINESTAT_START, _) => self.stats_enabled = true,
            (PIPELINESTAT_STOP, _) => self.stats_enabled = false,
            (SAMPLE_PIPELINESTAT, 2) => {
                p.need(3)?;
                let va = p.addr64(1);
                if va % 8 != 0 {
                    return Err(p.malformed("SAMPLE_PIPELINESTAT address not 8-byte aligned"));
                }
                let bytes: Vec<u8> =
                    self.pipeline_stats.iter().flat_map(|c| c.to_le_bytes()).collect();
                env.space.write(va, &bytes)?;
            }
            (ZPASS_DONE, 1) => {
                p.need(3)?;
                self.zpass_done(env, p, p.addr64(1))?;
            }
            // Streamout counters are not modelled.
            (_, 1..=3) => {
                return Err(GpuError::Unsupported(format!(
                    "EVENT_WRITE type {event_type} index {event_index} (counter sampling)"
                )))
            }
            _ => {}
        }
        Ok(())
    }

    /// ZPASS_DONE: every render backend writes its 64-bit sample count with bit 63 (valid)
    /// set, 16 bytes apart (begin/end pairs of an occlusion query). The simulator's single
    /// counter is reported by the first backend; the others report 0.
    fn zpass_done(&mut self, env: &Env<'_>, p: &Packet<'_>, va: u64) -> Result<(), GpuError> {
        if va % 8 != 0 {
            return Err(p.malformed("ZPASS_DONE address not 8-byte aligned"));
        }
        for rb in 0..ZPASS_RBS {
            let count = if rb == 0 { self.draw.zpass } else { 0 };
            env.space.write_u64(va + 16 * rb, count | 1 << 63)?;
        }
        Ok(())
    }

    /// EVENT_WRITE_EOP (the GFX6-8 form the CP still parses): event, address lo,
    /// address hi[15:0] with DATA_SEL[31:29], data lo, data hi.
    fn event_write_eop(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(5)?;
        let va = u64::from(p.body[1]) | (u64::from(p.body[2] & 0xffff) << 32);
        let data = u64::from(p.body[3]) | (u64::from(p.body[4]) << 32);
        match field(p.body[2], 29, 31) {
            0 => {}
            1 => {
                if va % 4 != 0 {
                    return Err(p.malformed("EVENT_WRITE_EOP 32-bit destination not aligned"));
                }
                env.space.write_u32(va, data as u32)?;
            }
            sel @ (2 | 3) => {
                if va % 8 != 0 {
                    return Err(p.malformed("EVENT_WRITE_EOP 64-bit destination not aligned"));
                }
                env.space.write_u64(va, if sel == 2 { data } else { (env.timestamp)() })?;
            }
            sel => return Err(GpuError::Unsupported(format!("EVENT_WRITE_EOP DATA_SEL {sel}"))),
        }
        Ok(())
    }

    fn write_data(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(4)?;
        let control = p.body[0];
        let dst_sel = field(control, 8, 11);
        let one_addr = control & (1 << 16) != 0;
        let data = &p.body[3..];
        match dst_sel {
            // Memory-mapped register: the address is a dword register offset.
            0 => {
                let reg = p.body[1].wrapping_mul(4);
                for (i, &v) in data.iter().enumerate() {
                    let addr = if one_addr { reg } else { reg.wrapping_add(4 * i as u32) };
                    if !self.regs.write(addr, v) {
                        return Err(p.malformed(format!("WRITE_DATA to register {addr:#x}")));
                    }
                }
            }
            1 | 2 | 5 => {
                let va = p.addr64(1);
                if va % 4 != 0 {
                    return Err(p.malformed("WRITE_DATA destination not dword aligned"));
                }
                for (i, &v) in data.iter().enumerate() {
                    let at = if one_addr { va } else { va + 4 * i as u64 };
                    env.space.write_u32(at, v)?;
                }
            }
            _ => return Err(GpuError::Unsupported(format!("WRITE_DATA DST_SEL {dst_sel}"))),
        }
        Ok(())
    }

    fn copy_data(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(5)?;
        let control = p.body[0];
        let (src_sel, dst_sel) = (field(control, 0, 3), field(control, 8, 11));
        let wide = control & (1 << 16) != 0;
        let value: u64 = match src_sel {
            0 => {
                let reg = p.body[1].wrapping_mul(4);
                let lo =
                    self.regs.read(reg).ok_or_else(|| p.malformed("COPY_DATA source register"))?;
                let hi = if wide { self.regs.read(reg.wrapping_add(4)).unwrap_or(0) } else { 0 };
                u64::from(lo) | (u64::from(hi) << 32)
            }
            1 | 2 => {
                let va = p.addr64(1);
                let n = if wide { 2 } else { 1 };
                if va % (4 * n as u64) != 0 {
                    return Err(p.malformed("COPY_DATA source misaligned"));
                }
                let w = env.space.read_u32s(va, n)?;
                u64::from(w[0]) | (u64::from(*w.get(1).unwrap_or(&0)) << 32)
            }
            5 => p.addr64(1),
            9 => (env.timestamp)(),
            _ => return Err(GpuError::Unsupported(format!("COPY_DATA SRC_SEL {src_sel}"))),
        };
        let value = if wide { value } else { value & 0xffff_ffff };
        match dst_sel {
            0 => {
                let reg = p.body[3].wrapping_mul(4);
                let ok = self.regs.write(reg, value as u32)
                    && (!wide || self.regs.write(reg.wrapping_add(4), (value >> 32) as u32));
                if !ok {
                    return Err(p.malformed(format!("COPY_DATA to register {reg:#x}")));
                }
            }
            1 | 2 | 5 => {
                let va = p.addr64(3);
                if wide {
                    if va % 8 != 0 {
                        return Err(p.malformed("64-bit COPY_DATA destination not 8-byte aligned"));
                    }
                    env.space.write_u64(va, value)?;
                } else {
                    if va % 4 != 0 {
                        return Err(p.malformed("COPY_DATA destination not dword aligned"));
                    }
                    env.space.write_u32(va, value as u32)?;
                }
            }
            _ => return Err(GpuError::Unsupported(format!("COPY_DATA DST_SEL {dst_sel}"))),
        }
        Ok(())
    }

    fn wait_reg_mem(&mut self, env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
        p.need(6)?;
        let control = p.body[0];
        let function = field(control, 0, 2);
        let mem_space = field(control, 4, 5);
        let (reference, mask) = (p.body[3], p.body[4]);
        let compare = |v: u32| {
            let v = v & mask;
            match function {
                0 => Some(true),
                1 => Some(v < reference),
                2 => Some(v <= reference),
                3 => Some(v == reference),
                4 => Some(v != reference),
                5 => Some(v >= reference),
                6 => Some(v > reference),
                _ => None,
            }
        };
        let deadline = Instant::now() + env.config.watchdog;
        loop {
            let value = match mem_space {
                0 => self
                    .regs
                    .read(p.body[1].wrapping_mul(4))
                    .ok_or_else(|| p.malformed("WAIT_REG_MEM register"))?,
                1 => {
                    let va = p.addr64(1);
                    if va % 4 != 0 {
                        return Err(p.malformed("WAIT_REG_MEM address not dword aligned"));
                    }
                    env.space.read_u32(va)?
                }
                _ => {
                    return Err(GpuError::Unsupported(format!(
                        "WAIT_REG_MEM MEM_SPACE {mem_space}"
                    )))
                }
            };
            match compare(value) {
                Some(true) => return Ok(()),
                Some(false) => {}
                None => return Err(p.malformed(format!("WAIT_REG_MEM function {function}"))),
            }
            if Instant::now() > deadline {
                return Err(GpuError::Hang(format!("WAIT_REG_MEM at {:#x} out of time", p.addr)));
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }

    fn indirect_buffer(
        &mut self,
        env: &Env<'_>,
        p: &Packet<'_>,
        depth: u32,
    ) -> Result<Flow, GpuError> {
        p.need(3)?;
        let va = u64::from(p.body[0] & !3) | (u64::from(p.body[1] & 0xffff) << 32);
        let control = p.body[2];
        let size_dw = field(control, 0, 19);
        let chain = control & (1 << 20) != 0;
        if chain {
            return Ok(Flow::Chain { va, size_dw });
        }
        if depth >= MAX_IB_DEPTH {
            return Err(p.malformed("INDIRECT_BUFFER nested deeper than IB2"));
        }
        self.run_ib(env, va, size_dw, depth + 1)?;
        Ok(Flow::Next)
    }
}

fn release_mem(env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
    p.need(6)?;
    let data_cntl = p.body[1];
    let dst_sel = field(data_cntl, 16, 17);
    let data_sel = field(data_cntl, 29, 31);
    if dst_sel > 1 {
        return Err(GpuError::Unsupported(format!("RELEASE_MEM DST_SEL {dst_sel}")));
    }
    // All prior work has completed when the CP reaches this packet (dispatches run to
    // completion), which is the end-of-pipe condition the event waits for.
    let va = p.addr64(2);
    let data = p.addr64(4);
    match data_sel {
        0 => {}
        1 => {
            if va % 4 != 0 {
                return Err(p.malformed("RELEASE_MEM 32-bit destination not dword aligned"));
            }
            env.space.write_u32(va, data as u32)?;
        }
        2 | 3 => {
            if va % 8 != 0 {
                return Err(p.malformed("RELEASE_MEM 64-bit destination not 8-byte aligned"));
            }
            let value = if data_sel == 2 { data } else { (env.timestamp)() };
            env.space.write_u64(va, value)?;
        }
        _ => return Err(GpuError::Unsupported(format!("RELEASE_MEM DATA_SEL {data_sel}"))),
    }
    Ok(())
}

/// DMA_DATA (CP DMA): copy or fill `BYTE_COUNT` bytes. Body: CONTROL, SRC_ADDR_LO (or fill
/// DATA), SRC_ADDR_HI, DST_ADDR_LO, DST_ADDR_HI, COMMAND (pkt3.json DMA_DATA_WORD0 / COMMAND).
fn dma_data(env: &Env<'_>, p: &Packet<'_>) -> Result<(), GpuError> {
    p.need(6)?;
    let control = p.body[0];
    let command = p.body[5];
    let dst_sel = field(control, 20, 21);
    let src_sel = field(control, 29, 30);
    let bytes = field(command, 0, 25) as u64;
    // SAS/DAS (register space) and SAIC/DAIC (no address increment) are not modelled.
    if field(command, 26, 29) != 0 {
        return Err(GpuError::Unsupported(format!("DMA_DATA COMMAND {command:#x}")));
    }
    let dst = p.addr64(3);
    match (src_sel, dst_sel) {
        // DST_SEL NOWHERE: a prefetch into L2, no architectural effect.
        (_, 2) => Ok(()),
        // SRC_SEL DATA: fill with the 32-bit value.
        (2, 0 | 3) => {
            if bytes % 4 != 0 || dst % 4 != 0 {
                return Err(p.malformed("DMA_DATA fill not dword aligned"));
            }
            let chunk: Vec<u8> = p.body[1].to_le_bytes().repeat((bytes.min(1 << 16) / 4) as usize);
            let mut done = 0;
            while done < bytes {
                let n = (bytes - done).min(chunk.len() as u64);
                env.space.write(dst + done, &chunk[..n as usize])?;
                done += n;
            }
            Ok(())
        }
        (0 | 3, 0 | 3) => {
            let src = p.addr64(1);
            let mut buf = vec![0u8; bytes.min(1 << 16) as usize];
            let mut done = 0;
            while done < bytes {
                let n = (bytes - done).min(buf.len() as u64) as usize;
                env.space.read(src + done, &mut buf[..n])?;
                env.space.write(dst + done, &buf[..n])?;
                done += n as u64;
            }
            Ok(())
        }
        _ => Err(GpuError::Unsupported(format!("DMA_DATA with GDS (CONTROL {control:#x})"))),
    }
}
