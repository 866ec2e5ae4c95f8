//! Runs a compiled compute shader on the simulator (strict mode) through winsys, with the
//! memory and registers the compute ABI (`ferrum_compiler::amd::abi`) prescribes, and PM4 built
//! here from pm4-gfx103.md: SET_SH_REG, DISPATCH_DIRECT, EVENT_WRITE.

mod images;

use std::sync::Arc;
use std::time::Duration;

use ferrum_compiler::amd::abi::{self, ResourceLayout};
use ferrum_compiler::amd::Binary;
use ferrum_compiler::interp::Resources;
use ferrum_sim::{SimConfig, SimKernel};

/// How long a test waits for the simulated GPU. Runaway waves end deterministically (the
/// watchdog's instruction budget, the same on every machine); the wall clock is a last resort
/// that must not fire because a loaded 2-core machine runs other tests' long dispatches first
/// (20 s did, for the f16 corpus shaders, with both test threads dispatching).
pub const WALL_CLOCK_LIMIT: Duration = Duration::from_secs(300);
use ferrum_winsys::{
    Bo, BoDesc, BoFlags, Context, CpuMapping, Device, Domain, Ib, Ip, Priority, Submission, VaFlags,
};

pub struct Mem {
    pub bo: Bo,
    pub map: CpuMapping,
    pub va: u64,
}

pub struct Gpu {
    _kernel: Arc<SimKernel>,
    dev: Device,
    ctx: Context,
}

const SET_SH_REG: u32 = 0x76;
const DISPATCH_DIRECT: u32 = 0x15;
const EVENT_WRITE: u32 = 0x46;
/// EVENT_WRITE of CS_PARTIAL_FLUSH (event type 7, index 4).
const CS_PARTIAL_FLUSH: u32 = 7 | (4 << 8);
const COMPUTE_PGM_LO: u32 = 0xb830;
const COMPUTE_PGM_RSRC1: u32 = 0xb848;
const COMPUTE_PGM_RSRC3: u32 = 0xb8a0;
const COMPUTE_NUM_THREAD_X: u32 = 0xb81c;
const COMPUTE_USER_DATA_0: u32 = 0xb900;
const COMPUTE_TMPRING_SIZE: u32 = 0xb860;
/// COMPUTE_SHADER_EN | FORCE_START_AT_000 | CS_W32_EN.
const INITIATOR: u32 = 1 | (1 << 2) | abi::DISPATCH_INITIATOR_CS_W32_EN;

fn packet(out: &mut Vec<u32>, op: u32, body: &[u32]) {
    out.push(0xc000_0000 | ((body.len() as u32 - 1) << 16) | (op << 8));
    out.extend_from_slice(body);
}

fn set_sh(out: &mut Vec<u32>, reg: u32, values: &[u32]) {
    let mut body = vec![(reg - 0xb000) / 4];
    body.extend_from_slice(values);
    packet(out, SET_SH_REG, &body);
}

impl Gpu {
    pub fn new() -> Gpu {
        Self::with_config(SimConfig::default())
    }

    /// A simulator running shader code on `engine` (interpreter or JIT).
    #[allow(dead_code)]
    pub fn with_engine(engine: ferrum_sim::jit::Engine) -> Gpu {
        Self::with_config(SimConfig { engine, ..SimConfig::default() })
    }

    /// (dispatches run on translated code, native instructions, interpreter calls).
    #[allow(dead_code)]
    pub fn jit_stats(&self) -> (u64, u64, u64) {
        self._kernel.jit_stats()
    }

    fn with_config(base: SimConfig) -> Gpu {
        let kernel = ferrum_sim::open(SimConfig {
            strict: true,
            // Counted, so a loaded host never cuts a legitimate shader short; far beyond what
            // any corpus program runs, and reached in well under the fence waits below.
            wave_budget: 1 << 28,
            threads: 1,
            host_memory_limit: 256 << 20,
            ..base
        });
        let dev = Device::from_kernel(kernel.clone()).unwrap();
        let ctx = dev.create_context(Priority::Normal).unwrap();
        Gpu { _kernel: kernel, dev, ctx }
    }

    /// A GPU buffer of `size` bytes at `va` (or anywhere when `None`), zero-filled.
    pub fn mem(&self, size: usize, va: Option<u64>) -> Mem {
        let size = (size.max(1) as u64).next_multiple_of(4096);
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
        let va = va.unwrap_or_else(|| self.dev.alloc_va(bo.size(), 1 << 16).unwrap());
        self.dev
            .map_va(&bo, va, 0, bo.size(), VaFlags::READ | VaFlags::WRITE | VaFlags::EXECUTE)
            .unwrap();
        Mem { bo, map, va }
    }

    /// Runs `bin` over `groups` workgroups on `res` (descriptor buffers, globals at their
    /// addresses, push constants) and returns the resources as the GPU left them.
    pub fn run(
        &self,
        bin: &Binary,
        layout: &ResourceLayout,
        groups: [u32; 3],
        res: &Resources,
    ) -> Result<Resources, String> {
        let globals: Vec<Mem> = res
            .globals
            .iter()
            .map(|g| {
                let m = self.mem(g.data.len(), Some(g.addr));
                m.map.write(0, &g.data).unwrap();
                m
            })
            .collect();
        let bufs: Vec<Mem> = res
            .buffers
            .iter()
            .map(|b| {
                let m = self.mem(b.data.len(), None);
                m.map.write(0, &b.data).unwrap();
                m
            })
            .collect();
        let push = self.mem(4096, None);
        push.map.write(0, &res.push).unwrap();
        let sets: Vec<Mem> = (0..abi::MAX_SETS).map(|_| self.mem(4096, None)).collect();
        let table = self.mem(4096, None);
        for (i, s) in sets.iter().enumerate() {
            table.map.write(i * 8, &s.va.to_le_bytes()).unwrap();
        }
        for (b, m) in res.buffers.iter().zip(&bufs) {
            let Some(l) = layout.get(b.set, b.binding) else { continue };
            let vs = abi::raw_buffer_descriptor(m.va, b.data.len() as u32);
            let off = l.descriptor_offset() as usize + b.index as usize * 16;
            let bytes: Vec<u8> = vs.iter().flat_map(|w| w.to_le_bytes()).collect();
            if l.kind.is_dynamic() {
                push.map.write(off, &bytes).unwrap();
            } else {
                sets[b.set as usize].map.write(off, &bytes).unwrap();
            }
        }
        let images = images::write(self, res, layout, &sets)?;
        let counts = self.mem(4096, None);
        let cw: Vec<u32> = groups.to_vec();
        counts.map.write_u32s(0, &cw).unwrap();
        let prog = self.mem(bin.code.len(), None);
        prog.map.write(0, &bin.code).unwrap();

        let m = &bin.metadata;
        let mut pm = Vec::new();
        set_sh(&mut pm, COMPUTE_PGM_LO, &[(prog.va >> 8) as u32, (prog.va >> 40) as u32]);
        set_sh(&mut pm, COMPUTE_PGM_RSRC1, &[m.rsrc1, m.rsrc2]);
        set_sh(&mut pm, COMPUTE_PGM_RSRC3, &[m.rsrc3]);
        set_sh(&mut pm, COMPUTE_NUM_THREAD_X, &m.workgroup_size);
        // The scratch ring only for shaders whose metadata asks for one.
        let ring =
            (m.scratch_bytes_per_lane > 0).then(|| self.mem(m.scratch_ring_bytes() as usize, None));
        if ring.is_some() {
            set_sh(&mut pm, COMPUTE_TMPRING_SIZE, &[m.tmpring_size()]);
        }
        let ring_va = ring.as_ref().map_or(0, |r| r.va);
        let ud = m.user_layout().user_data(table.va, push.va, counts.va, ring_va);
        set_sh(&mut pm, COMPUTE_USER_DATA_0, &ud);
        packet(&mut pm, DISPATCH_DIRECT, &[groups[0], groups[1], groups[2], INITIATOR]);
        packet(&mut pm, EVENT_WRITE, &[CS_PARTIAL_FLUSH]);
        let ib = self.mem(pm.len() * 4, None);
        ib.map.write_u32s(0, &pm).unwrap();
        let mut handles: Vec<u32> = globals
            .iter()
            .chain(&bufs)
            .chain(&sets)
            .chain(&images)
            .map(|x| x.bo.handle())
            .collect();
        for x in [&push, &table, &counts, &prog, &ib].into_iter().chain(&ring) {
            handles.push(x.bo.handle());
        }
        let ibs = [Ib { va: ib.va, size_dw: pm.len() as u32, flags: 0 }];
        let fence = self
            .ctx
            .submit(&Submission::new(Ip::Compute, &ibs, &handles))
            .map_err(|e| e.to_string())?;
        let done = self.ctx.wait(fence, Some(WALL_CLOCK_LIMIT)).map_err(|e| e.to_string())?;
        if !done {
            return Err("dispatch timed out".into());
        }
        let mut out = res.clone();
        for (b, m) in out.buffers.iter_mut().zip(&bufs) {
            m.map.read(0, &mut b.data).unwrap();
        }
        for (g, m) in out.globals.iter_mut().zip(&globals) {
            m.map.read(0, &mut g.data).unwrap();
        }
        images::read_back(&mut out, &images);
        Ok(out)
    }
}
