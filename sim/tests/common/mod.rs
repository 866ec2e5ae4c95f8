//! Shared helpers for the simulator's integration tests: a device with GPU-mapped buffers and
//! a tiny PM4 writer (header layout from pm4-gfx103.md §2).

#![allow(dead_code)]

pub mod asm;
pub mod capture;
pub mod gfx;

use std::sync::Arc;
use std::time::Duration;

use ferrum_sim::{SimConfig, SimKernel};
use ferrum_winsys::{
    Bo, BoDesc, BoFlags, Context, CpuMapping, CsFence, Device, Domain, Ib, Ip, Priority,
    Submission, VaFlags,
};

pub struct Buffer {
    pub bo: Bo,
    pub map: CpuMapping,
    pub va: u64,
}

pub struct Gpu {
    pub kernel: Arc<SimKernel>,
    pub dev: Device,
    pub ctx: Context,
}

/// Prints the simulator's warnings and errors (context-loss reasons) into the test output.
struct StderrLogger;

static STDERR_LOGGER: StderrLogger = StderrLogger;

impl log::Log for StderrLogger {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record<'_>) {
        if self.enabled(r.metadata()) {
            eprintln!("[{}] {}", r.level(), r.args());
        }
    }
    fn flush(&self) {}
}

/// How long a test waits for a submission. Runaway programs end by the simulator's watchdog
/// (its deterministic instruction budget, or its own clock), never by this wait: it only
/// bounds a test on a loaded machine, where 10 s was too short for the long differential runs
/// and a timed-out run on both engines compared equal.
pub const WALL_CLOCK_LIMIT: Duration = Duration::from_secs(300);

impl Gpu {
    pub fn new() -> Gpu {
        Gpu::with_config(SimConfig {
            host_memory_limit: 256 << 20,
            // Runaway test programs end after a fraction of a second; the clock still ends
            // WAIT_REG_MEM tests quickly.
            wave_budget: 1 << 20,
            watchdog: Duration::from_millis(500),
            ..Default::default()
        })
    }

    pub fn with_config(config: SimConfig) -> Gpu {
        if log::set_logger(&STDERR_LOGGER).is_ok() {
            log::set_max_level(log::LevelFilter::Warn);
        }
        let kernel = ferrum_sim::open(config);
        let dev = Device::from_kernel(kernel.clone()).unwrap();
        let ctx = dev.create_context(Priority::Normal).unwrap();
        Gpu { kernel, dev, ctx }
    }

    pub fn buffer(&self, size: u64) -> Buffer {
        self.buffer_with(size, VaFlags::READ | VaFlags::WRITE | VaFlags::EXECUTE)
    }

    pub fn buffer_with(&self, size: u64, flags: VaFlags) -> Buffer {
        let bo = self
            .dev
            .create_bo(&BoDesc {
                size,
                alignment: 4096,
                domain: Domain::Gtt,
                flags: BoFlags::CPU_ACCESS,
            })
            .unwrap();
        let map = bo.map().unwrap();
        let va = self.dev.alloc_va(bo.size(), 1 << 16).unwrap();
        self.dev.map_va(&bo, va, 0, bo.size(), flags).unwrap();
        Buffer { bo, map, va }
    }

    /// Writes `pm4` into a fresh IB buffer and submits it on the compute ring with `bos` (and
    /// the IB) in the BO list.
    pub fn submit(&self, pm4: &[u32], bos: &[&Buffer]) -> (CsFence, Buffer) {
        let ib = self.buffer(((pm4.len() * 4) as u64).max(4096));
        ib.map.write_u32s(0, pm4).unwrap();
        let mut handles: Vec<u32> = bos.iter().map(|b| b.bo.handle()).collect();
        handles.push(ib.bo.handle());
        let ibs = [Ib { va: ib.va, size_dw: pm4.len() as u32, flags: 0 }];
        let fence = self.ctx.submit(&Submission::new(Ip::Compute, &ibs, &handles)).unwrap();
        (fence, ib)
    }

    /// Submits and waits; the result of the wait (`Ok(false)`: still running after
    /// [`WALL_CLOCK_LIMIT`]).
    pub fn run(&self, pm4: &[u32], bos: &[&Buffer]) -> ferrum_winsys::Result<bool> {
        let (fence, _ib) = self.submit(pm4, bos);
        self.ctx.wait(fence, Some(WALL_CLOCK_LIMIT))
    }
}

pub mod pm4 {
    pub const NOP: u32 = 0x10;
    pub const SET_SH_REG: u32 = 0x76;
    pub const DISPATCH_DIRECT: u32 = 0x15;
    pub const DISPATCH_INDIRECT: u32 = 0x16;
    pub const WRITE_DATA: u32 = 0x37;
    pub const WAIT_REG_MEM: u32 = 0x3c;
    pub const INDIRECT_BUFFER: u32 = 0x3f;
    pub const COPY_DATA: u32 = 0x40;
    pub const EVENT_WRITE: u32 = 0x46;
    pub const RELEASE_MEM: u32 = 0x49;
    pub const ACQUIRE_MEM: u32 = 0x58;

    /// Type-3 header for a packet with `body` dwords.
    pub fn header(op: u32, body: usize) -> u32 {
        0xc000_0000 | (((body as u32) - 1) << 16) | (op << 8)
    }

    pub fn packet(out: &mut Vec<u32>, op: u32, body: &[u32]) {
        out.push(header(op, body.len()));
        out.extend_from_slice(body);
    }

    pub fn write_data(out: &mut Vec<u32>, va: u64, data: &[u32]) {
        let mut body = vec![(5 << 8) | (1 << 20), va as u32, (va >> 32) as u32];
        body.extend_from_slice(data);
        packet(out, WRITE_DATA, &body);
    }

    /// Bottom-of-pipe RELEASE_MEM writing a 32-bit (`wide` = false) or 64-bit value.
    pub fn release_mem(out: &mut Vec<u32>, va: u64, value: u64, wide: bool) {
        let data_sel = if wide { 2 } else { 1 };
        let body = [
            40 | (5 << 8),
            (data_sel << 29) | (3 << 24),
            va as u32,
            (va >> 32) as u32,
            value as u32,
            (value >> 32) as u32,
            0,
        ];
        packet(out, RELEASE_MEM, &body);
    }

    /// COPY_DATA memory -> memory, 32-bit.
    pub fn copy_mem32(out: &mut Vec<u32>, src: u64, dst: u64) {
        let control = 1 | (5 << 8) | (1 << 20);
        packet(
            out,
            COPY_DATA,
            &[control, src as u32, (src >> 32) as u32, dst as u32, (dst >> 32) as u32],
        );
    }

    pub fn indirect_buffer(out: &mut Vec<u32>, va: u64, size_dw: u32, chain: bool) {
        let control = size_dw | if chain { (1 << 20) | (1 << 23) } else { 0 };
        packet(out, INDIRECT_BUFFER, &[va as u32, (va >> 32) as u32, control]);
    }

    /// WAIT_REG_MEM on memory: wait until `(mem & mask) == reference`.
    pub fn wait_mem_eq(out: &mut Vec<u32>, va: u64, reference: u32, mask: u32) {
        packet(
            out,
            WAIT_REG_MEM,
            &[3 | (1 << 4), va as u32, (va >> 32) as u32, reference, mask, 4],
        );
    }

    pub fn set_sh_regs(out: &mut Vec<u32>, addr: u32, values: &[u32]) {
        let mut body = vec![(addr - 0xb000) / 4];
        body.extend_from_slice(values);
        packet(out, SET_SH_REG, &body);
    }

    /// Pads to a multiple of 8 dwords with header-only NOPs, as Mesa does.
    pub fn pad(out: &mut Vec<u32>) {
        while out.len() % 8 != 0 {
            out.push(0xffff_1000);
        }
    }
}

/// A raw buffer V# (storage-buffer style, OOB_SELECT = raw) of `size` bytes at `va`.
pub fn raw_vsharp(va: u64, size: u32) -> [u32; 4] {
    [va as u32, (va >> 32) as u32 & 0xffff, size, 0x3101_6fac]
}

/// The registers and packets of one compute dispatch (pm4-gfx103.md §6).
pub struct Dispatch<'a> {
    pub pgm: u64,
    /// VGPRs to allocate (rounded up to granules of 8).
    pub vgprs: u32,
    pub user_data: &'a [u32],
    pub tgid_x: bool,
    pub tg_size: bool,
    pub lds_bytes: u32,
    pub group: [u32; 3],
    pub groups: [u32; 3],
}

impl<'a> Dispatch<'a> {
    /// One workgroup of `group` threads running `pgm` with 8 VGPRs, `user_data` in the user
    /// SGPRs and nothing else enabled; tests override what they need with struct-update syntax.
    pub fn one_group(pgm: u64, user_data: &'a [u32], group: [u32; 3]) -> Dispatch<'a> {
        Dispatch {
            pgm,
            vgprs: 8,
            user_data,
            tgid_x: false,
            tg_size: false,
            lds_bytes: 0,
            group,
            groups: [1, 1, 1],
        }
    }

    pub fn rsrc1(&self) -> u32 {
        let granules = self.vgprs.max(1).div_ceil(8) - 1;
        0x402c_0000 | granules
    }

    pub fn rsrc2(&self) -> u32 {
        ((self.user_data.len() as u32) << 1)
            | (self.tgid_x as u32) << 7
            | (self.tg_size as u32) << 10
            | self.lds_bytes.div_ceil(512) << 15
    }

    pub fn emit(&self, out: &mut Vec<u32>) {
        self.emit_with_scratch(out, None);
    }

    /// Like [`Dispatch::emit`]; `Some(tmpring)` also sets RSRC2.SCRATCH_EN and
    /// COMPUTE_TMPRING_SIZE.
    pub fn emit_with_scratch(&self, out: &mut Vec<u32>, tmpring: Option<u32>) {
        use pm4::set_sh_regs;
        set_sh_regs(out, 0xb834, &[(self.pgm >> 40) as u32]);
        set_sh_regs(out, 0xb830, &[(self.pgm >> 8) as u32]);
        let scratch_en = tmpring.is_some() as u32;
        set_sh_regs(out, 0xb848, &[self.rsrc1(), self.rsrc2() | scratch_en]);
        if let Some(t) = tmpring {
            set_sh_regs(out, 0xb860, &[t]);
        }
        set_sh_regs(out, 0xb8a0, &[0]);
        set_sh_regs(out, 0xb81c, &self.group);
        if !self.user_data.is_empty() {
            set_sh_regs(out, 0xb900, self.user_data);
        }
        pm4::packet(
            out,
            pm4::DISPATCH_DIRECT,
            &[self.groups[0], self.groups[1], self.groups[2], 0x8005],
        );
        pm4::packet(out, pm4::EVENT_WRITE, &[0x407]);
    }
}

impl Gpu {
    /// Uploads a program into an executable buffer (256-byte aligned VA).
    pub fn program(&self, words: &[u32]) -> Buffer {
        let b = self
            .buffer_with(((words.len() * 4) as u64).max(4096), VaFlags::READ | VaFlags::EXECUTE);
        b.map.write_u32s(0, words).unwrap();
        b
    }

    /// Runs one dispatch (plus the program buffer) and waits.
    pub fn dispatch(
        &self,
        d: &Dispatch<'_>,
        prog: &Buffer,
        bufs: &[&Buffer],
    ) -> ferrum_winsys::Result<bool> {
        let mut pm = Vec::new();
        d.emit(&mut pm);
        let mut all: Vec<&Buffer> = bufs.to_vec();
        all.push(prog);
        self.run(&pm, &all)
    }
}
