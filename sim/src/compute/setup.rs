//! From COMPUTE_* registers to workgroups and the initial state of each wave.
//!
//! This is the SPI's job on hardware: it reads COMPUTE_PGM_*, COMPUTE_NUM_THREAD_*,
//! COMPUTE_START_*, COMPUTE_DIM_* (written by DISPATCH_*), COMPUTE_USER_DATA_* and
//! DISPATCH_INITIATOR, and launches wave32 waves whose SGPRs and VGPRs are initialised exactly
//! as the RSRC2 enable bits say (pm4-gfx103.md §6): user SGPRs first, then the enabled
//! workgroup ids X/Y/Z, then TG_SIZE; v0/v1/v2 hold the local ids allowed by TIDIG_COMP_CNT.

use crate::cp::regs::{self, field, RegisterFile};
use crate::error::GpuError;

/// Wave size of every wave this simulator runs.
pub const WAVE_SIZE: u32 = 32;
/// SGPRs a GFX10 wave can address (s0..s105); VCC lives above them.
pub const SGPR_COUNT: u32 = 106;
/// LDS_SIZE granularity for compute on GFX7+.
const LDS_GRANULE: u32 = 512;
const MAX_LDS: u32 = 64 * 1024;
const MAX_GROUP_THREADS: u32 = 1024;

/// A decoded compute dispatch.
#[derive(Debug, Clone)]
pub struct DispatchSetup {
    /// Address of the first instruction.
    pub pgm: u64,
    /// VGPRs allocated per lane (RSRC1.VGPRS granules of 8 in wave32).
    pub vgprs: u32,
    /// Shared VGPRs (RSRC3), beyond `vgprs`.
    pub shared_vgprs: u32,
    /// LDS bytes allocated per workgroup.
    pub lds_bytes: u32,
    pub user_data: Vec<u32>,
    pub tgid_en: [bool; 3],
    pub tg_size_en: bool,
    /// 0 = only local id X, 1 = X and Y, 2 = X, Y and Z.
    pub tidig_comp_cnt: u32,
    /// Workgroup size (NUM_THREAD_FULL).
    pub group_size: [u32; 3],
    /// First and one-past-last workgroup id per dimension.
    pub start: [u32; 3],
    pub end: [u32; 3],
    /// Size of the last, partial workgroup per dimension (equals `group_size` when full).
    pub last_size: [u32; 3],
    /// RSRC1 FLOAT_MODE, DX10_CLAMP and IEEE_MODE, for the shader core's mode register.
    pub float_mode: u32,
    pub dx10_clamp: bool,
    pub ieee_mode: bool,
    /// COMPUTE_TMPRING_SIZE when RSRC2.SCRATCH_EN is set.
    pub scratch: Option<ScratchRing>,
    /// TA_CS_BC_BASE_ADDR(_HI): the table S#s with BORDER_COLOR_TYPE 3 index.
    pub border_color_base: u64,
}

/// The scratch ring as COMPUTE_TMPRING_SIZE describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScratchRing {
    /// Wave slots (WAVES): waves with scratch that may run at the same time.
    pub waves: u32,
    /// Bytes per wave slot (WAVESIZE in 1 KiB units on GFX10.x).
    pub wave_bytes: u32,
}

impl ScratchRing {
    /// The ring a `*_TMPRING_SIZE` value (`reg` names it in errors) describes for a stage
    /// with SCRATCH_EN: WAVES in bits 11:0, WAVESIZE in 1 KiB units in bits 24:12.
    pub fn from_tmpring(tmpring: u32, reg: &str) -> Result<ScratchRing, GpuError> {
        let ring =
            ScratchRing { waves: field(tmpring, 0, 11), wave_bytes: field(tmpring, 12, 24) * 1024 };
        if ring.waves == 0 || ring.wave_bytes == 0 {
            return Err(unsupported(format!(
                "SCRATCH_EN with {reg} = {tmpring:#x} (no scratch slots)"
            )));
        }
        Ok(ring)
    }
}

/// One workgroup to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workgroup {
    pub id: [u32; 3],
    pub size: [u32; 3],
}

/// The registers a wave starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveInit {
    /// Initial values of s0..s(n-1); the rest start at 0.
    pub sgprs: Vec<u32>,
    /// Initial per-lane values of v0, v1, v2 (only as many as TIDIG_COMP_CNT enables).
    pub vgprs: Vec<[u32; WAVE_SIZE as usize]>,
    pub exec: u32,
    /// Index of this wave within its workgroup.
    pub wave_id: u32,
}

fn unsupported(what: impl Into<String>) -> GpuError {
    GpuError::Unsupported(what.into())
}

impl DispatchSetup {
    /// Decodes the dispatch state; `None` when DISPATCH_INITIATOR has COMPUTE_SHADER_EN = 0.
    pub fn from_registers(r: &RegisterFile) -> Result<Option<DispatchSetup>, GpuError> {
        let initiator = r.get(regs::COMPUTE_DISPATCH_INITIATOR);
        if initiator & 1 == 0 {
            return Ok(None);
        }
        if initiator & (1 << 15) == 0 {
            return Err(unsupported("wave64 dispatch (DISPATCH_INITIATOR.CS_W32_EN = 0)"));
        }
        if initiator & (3 << 3) != 0 {
            return Err(unsupported("ordered append dispatch"));
        }
        let rsrc1 = r.get(regs::COMPUTE_PGM_RSRC1);
        let rsrc2 = r.get(regs::COMPUTE_PGM_RSRC2);
        let scratch = if rsrc2 & 1 != 0 {
            let tmpring = r.get(regs::COMPUTE_TMPRING_SIZE);
            Some(ScratchRing::from_tmpring(tmpring, "COMPUTE_TMPRING_SIZE")?)
        } else {
            None
        };
        let user_sgprs = field(rsrc2, 1, 5);
        if user_sgprs > regs::COMPUTE_USER_DATA_COUNT {
            return Err(unsupported(format!("{user_sgprs} user SGPRs (compute has 16)")));
        }
        let lds_bytes = field(rsrc2, 15, 23) * LDS_GRANULE;
        if lds_bytes > MAX_LDS {
            return Err(unsupported(format!("LDS_SIZE of {lds_bytes} bytes")));
        }
        if field(rsrc1, 14, 15) != 0 {
            return Err(unsupported("FLOAT_MODE f16/f64 rounding other than nearest-even"));
        }
        let tidig_comp_cnt = field(rsrc2, 11, 12);
        if tidig_comp_cnt > 2 {
            return Err(unsupported("TIDIG_COMP_CNT 3"));
        }
        let full = [
            field(r.get(regs::COMPUTE_NUM_THREAD_X), 0, 15),
            field(r.get(regs::COMPUTE_NUM_THREAD_Y), 0, 15),
            field(r.get(regs::COMPUTE_NUM_THREAD_Z), 0, 15),
        ];
        let partial = [
            field(r.get(regs::COMPUTE_NUM_THREAD_X), 16, 31),
            field(r.get(regs::COMPUTE_NUM_THREAD_Y), 16, 31),
            field(r.get(regs::COMPUTE_NUM_THREAD_Z), 16, 31),
        ];
        if full.contains(&0) || full.iter().product::<u32>() > MAX_GROUP_THREADS {
            return Err(unsupported(format!("workgroup size {full:?}")));
        }
        let dims =
            [r.get(regs::COMPUTE_DIM_X), r.get(regs::COMPUTE_DIM_Y), r.get(regs::COMPUTE_DIM_Z)];
        let force_start_at_0 = initiator & (1 << 2) != 0;
        let partial_tg = initiator & (1 << 1) != 0;
        let thread_dims = initiator & (1 << 5) != 0;
        let mut start = [0; 3];
        let mut end = [0; 3];
        let mut last_size = full;
        for d in 0..3 {
            if thread_dims {
                // Dimensions count threads: round up to groups, the last one partial.
                end[d] = dims[d].div_ceil(full[d]);
                if dims[d] % full[d] != 0 {
                    last_size[d] = dims[d] % full[d];
                }
            } else {
                start[d] = if force_start_at_0 {
                    0
                } else {
                    r.get([regs::COMPUTE_START_X, regs::COMPUTE_START_Y, regs::COMPUTE_START_Z][d])
                };
                end[d] = dims[d];
                if partial_tg && partial[d] != 0 {
                    last_size[d] = partial[d].min(full[d]);
                }
            }
        }
        let pgm_lo = u64::from(r.get(regs::COMPUTE_PGM_LO));
        let pgm_hi = u64::from(field(r.get(regs::COMPUTE_PGM_HI), 0, 7));
        Ok(Some(DispatchSetup {
            pgm: (pgm_lo << 8) | (pgm_hi << 40),
            vgprs: (field(rsrc1, 0, 5) + 1) * 8,
            shared_vgprs: field(r.get(regs::COMPUTE_PGM_RSRC3), 0, 3) * 8,
            lds_bytes,
            user_data: (0..user_sgprs).map(|i| r.get(regs::COMPUTE_USER_DATA_0 + 4 * i)).collect(),
            tgid_en: [rsrc2 & (1 << 7) != 0, rsrc2 & (1 << 8) != 0, rsrc2 & (1 << 9) != 0],
            tg_size_en: rsrc2 & (1 << 10) != 0,
            tidig_comp_cnt,
            group_size: full,
            start,
            end,
            last_size,
            float_mode: field(rsrc1, 12, 19),
            dx10_clamp: rsrc1 & (1 << 21) != 0,
            ieee_mode: rsrc1 & (1 << 23) != 0,
            scratch,
            border_color_base: (r.get(regs::TA_CS_BC_BASE_ADDR) as u64) << 8
                | ((r.get(regs::TA_CS_BC_BASE_ADDR_HI) & 0xff) as u64) << 40,
        }))
    }

    /// Number of workgroups (saturating; a huge dispatch simply runs into the watchdog).
    pub fn group_count(&self) -> u64 {
        (0..3)
            .map(|d| u64::from(self.end[d].saturating_sub(self.start[d])))
            .fold(1u64, u64::saturating_mul)
    }

    /// Threads launched by the whole dispatch (partial last groups counted at their size).
    pub fn invocations(&self) -> u64 {
        (0..3)
            .map(|d| {
                let n = u64::from(self.end[d].saturating_sub(self.start[d]));
                match n {
                    0 => 0,
                    n => (n - 1) * u64::from(self.group_size[d]) + u64::from(self.last_size[d]),
                }
            })
            .fold(1u64, u64::saturating_mul)
    }

    /// Workgroup number `i`, X fastest.
    pub fn workgroup(&self, i: u64) -> Workgroup {
        let n = [0, 1, 2].map(|d| u64::from(self.end[d].saturating_sub(self.start[d])).max(1));
        let rel = [i % n[0], (i / n[0]) % n[1], i / (n[0] * n[1])];
        let id = [0, 1, 2].map(|d| self.start[d] + rel[d] as u32);
        let mut size = self.group_size;
        for d in 0..3 {
            if id[d] + 1 == self.end[d] {
                size[d] = self.last_size[d];
            }
        }
        Workgroup { id, size }
    }

    /// All workgroups, X fastest.
    pub fn workgroups(&self) -> impl Iterator<Item = Workgroup> + '_ {
        (0..self.group_count()).map(|i| self.workgroup(i))
    }

    /// Waves in a full workgroup.
    pub fn waves_per_group(&self) -> u32 {
        self.group_size.iter().product::<u32>().div_ceil(WAVE_SIZE)
    }

    /// The waves of one workgroup with their initial registers, using scratch slots from 0.
    pub fn waves(&self, wg: &Workgroup) -> Vec<WaveInit> {
        self.waves_in_slots(wg, 0)
    }

    /// The waves of one workgroup with their initial registers. Threads are numbered X
    /// fastest and packed 32 per wave; wave `w` gets scratch slot `first_slot + w`.
    pub fn waves_in_slots(&self, wg: &Workgroup, first_slot: u32) -> Vec<WaveInit> {
        (0..self.waves_of(wg))
            .map(|w| {
                let sgprs = self.wave_sgprs(wg, first_slot, w).collect();
                let mut vgprs = vec![[0u32; WAVE_SIZE as usize]; self.tidig_comp_cnt as usize + 1];
                let exec = self.wave_local_ids(wg, w, &mut vgprs);
                WaveInit { sgprs, vgprs, exec, wave_id: w }
            })
            .collect()
    }

    /// Waves in workgroup `wg`.
    pub fn waves_of(&self, wg: &Workgroup) -> u32 {
        wg.size.iter().product::<u32>().div_ceil(WAVE_SIZE)
    }

    /// The initial SGPRs of wave `w` of `wg`, from s0: user data, the enabled workgroup ids,
    /// TG_SIZE, the scratch wave offset (slot `first_slot + w`).
    pub fn wave_sgprs(
        &self,
        wg: &Workgroup,
        first_slot: u32,
        w: u32,
    ) -> impl Iterator<Item = u32> + '_ {
        let id = wg.id;
        let ids = (0..3).filter(|&d| self.tgid_en[d]).map(move |d| id[d]);
        // [5:0] waves in the group; [11:6] ordered wave id (equal to the wave id without
        // ordered append); [24:20] wave id on GFX10.3.
        let tg_size = self.tg_size_en.then_some(self.waves_of(wg) | (w << 6) | (w << 20));
        let scratch = self.scratch.map(|ring| (first_slot + w) * ring.wave_bytes);
        self.user_data.iter().copied().chain(ids).chain(tg_size).chain(scratch)
    }

    /// Writes the local ids of wave `w`'s threads into `rows` (X, Y, Z: as many rows as given,
    /// at most TIDIG_COMP_CNT + 1 are meaningful) and returns its EXEC; lanes past the
    /// workgroup's last thread are left alone.
    pub fn wave_local_ids(&self, wg: &Workgroup, w: u32, rows: &mut [[u32; 32]]) -> u32 {
        let threads = wg.size.iter().product::<u32>();
        let first = w * WAVE_SIZE;
        let lanes = threads.saturating_sub(first).min(WAVE_SIZE);
        let [sx, sy, _] = wg.size;
        // The first thread's ids by division, then counted up X fastest (no division per lane).
        let (mut x, mut y, mut z) = (first % sx, (first / sx) % sy, first / (sx * sy));
        let exec = match lanes {
            32 => u32::MAX,
            n => (1u32 << n) - 1,
        };
        // A wave inside one X row (every wave of a 1-D group of 32 or more threads): Y and Z
        // are constant, without the per-lane carry chain below.
        if x + lanes <= sx {
            let lanes = lanes as usize;
            for (d, row) in rows.iter_mut().enumerate().take(3) {
                match d {
                    0 => row.iter_mut().zip(x..).take(lanes).for_each(|(dst, x)| *dst = x),
                    1 => row[..lanes].fill(y),
                    _ => row[..lanes].fill(z),
                }
            }
            return exec;
        }
        let mut ids = [[0u32; 3]; WAVE_SIZE as usize];
        for id in ids.iter_mut().take(lanes as usize) {
            *id = [x, y, z];
            x += 1;
            if x == sx {
                x = 0;
                y += 1;
                if y == sy {
                    y = 0;
                    z += 1;
                }
            }
        }
        for (d, row) in rows.iter_mut().enumerate().take(3) {
            for (dst, id) in row.iter_mut().zip(&ids[..lanes as usize]) {
                *dst = id[d];
            }
        }
        exec
    }

    /// Initialises a wave in the state [`crate::core::wave::Wave::new`] gives (SGPRs and
    /// VGPRs zero) as wave `w` of `wg`: its SGPRs from s0 and its local-id VGPRs; returns
    /// its EXEC.
    pub fn init_wave(
        &self,
        wg: &Workgroup,
        first_slot: u32,
        w: u32,
        s: &mut [u32],
        v: &mut [[u32; 32]],
    ) -> u32 {
        for (reg, value) in s.iter_mut().zip(self.wave_sgprs(wg, first_slot, w)) {
            *reg = value;
        }
        let rows = (self.tidig_comp_cnt as usize + 1).min(v.len());
        self.wave_local_ids(wg, w, &mut v[..rows])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regs(pairs: &[(u32, u32)]) -> RegisterFile {
        let mut r = RegisterFile::default();
        for &(a, v) in pairs {
            assert!(r.write(a, v));
        }
        r
    }

    #[test]
    fn initial_state_follows_rsrc2() {
        // USER_SGPR = 2, TGID_X_EN, TGID_Z_EN, TG_SIZE_EN, TIDIG_COMP_CNT = 1, LDS 2 granules.
        let rsrc2 = (2 << 1) | (1 << 7) | (1 << 9) | (1 << 10) | (1 << 11) | (2 << 15);
        let r = regs(&[
            (regs::COMPUTE_DISPATCH_INITIATOR, 0x8001),
            (regs::COMPUTE_PGM_LO, 0x1234),
            (regs::COMPUTE_PGM_HI, 0x1),
            (regs::COMPUTE_PGM_RSRC1, 0x3),
            (regs::COMPUTE_PGM_RSRC2, rsrc2),
            (regs::COMPUTE_NUM_THREAD_X, 8),
            (regs::COMPUTE_NUM_THREAD_Y, 5),
            (regs::COMPUTE_NUM_THREAD_Z, 1),
            (regs::COMPUTE_START_X, 1),
            (regs::COMPUTE_DIM_X, 3),
            (regs::COMPUTE_DIM_Y, 1),
            (regs::COMPUTE_DIM_Z, 2),
            (regs::COMPUTE_USER_DATA_0, 0xaaaa),
            (regs::COMPUTE_USER_DATA_0 + 4, 0xbbbb),
        ]);
        let s = DispatchSetup::from_registers(&r).unwrap().unwrap();
        assert_eq!(s.pgm, 0x0100_0012_3400);
        assert_eq!((s.vgprs, s.lds_bytes), (32, 1024));
        let groups: Vec<_> = s.workgroups().collect();
        assert_eq!(groups.len(), 4, "x in 1..3, z in 0..2");
        assert_eq!(groups[3].id, [2, 0, 1]);
        let waves = s.waves(&groups[3]);
        assert_eq!(waves.len(), 2, "40 threads");
        assert_eq!(waves[1].sgprs, vec![0xaaaa, 0xbbbb, 2, 1, 2 | (1 << 6) | (1 << 20)]);
        assert_eq!(waves[1].exec, 0xff);
        assert_eq!(waves[1].vgprs.len(), 2);
        // Thread 32 + 7 = 39: x = 7, y = 4.
        assert_eq!((waves[1].vgprs[0][7], waves[1].vgprs[1][7]), (7, 4));
    }

    /// Every lane's ids are its thread index split X fastest, whatever the group's shape
    /// (waves within one X row take a shortcut).
    #[test]
    fn local_ids_split_the_thread_index() {
        let s = DispatchSetup::from_registers(&regs(&[
            (regs::COMPUTE_DISPATCH_INITIATOR, 0x8001),
            (regs::COMPUTE_NUM_THREAD_X, 1),
            (regs::COMPUTE_NUM_THREAD_Y, 1),
            (regs::COMPUTE_NUM_THREAD_Z, 1),
        ]))
        .unwrap()
        .unwrap();
        for size in [[256, 1, 1], [40, 1, 1], [16, 16, 1], [8, 5, 3], [64, 2, 2], [3, 1, 7]] {
            let wg = Workgroup { id: [0; 3], size };
            let threads = size.iter().product::<u32>();
            for w in 0..s.waves_of(&wg) {
                let mut rows = [[u32::MAX; 32]; 3];
                let exec = s.wave_local_ids(&wg, w, &mut rows);
                for lane in 0..32 {
                    let t = w * 32 + lane;
                    let want = [t % size[0], t / size[0] % size[1], t / (size[0] * size[1])];
                    let got =
                        [rows[0][lane as usize], rows[1][lane as usize], rows[2][lane as usize]];
                    match t < threads {
                        true => assert_eq!(got, want, "{size:?} thread {t}"),
                        false => assert_eq!(got, [u32::MAX; 3], "{size:?} lane {lane} left alone"),
                    }
                    assert_eq!(exec >> lane & 1 != 0, t < threads);
                }
            }
        }
    }

    #[test]
    fn thread_dimensions_make_a_partial_last_group() {
        let r = regs(&[
            (regs::COMPUTE_DISPATCH_INITIATOR, 0x8001 | (1 << 5)),
            (regs::COMPUTE_NUM_THREAD_X, 64),
            (regs::COMPUTE_NUM_THREAD_Y, 1),
            (regs::COMPUTE_NUM_THREAD_Z, 1),
            (regs::COMPUTE_DIM_X, 100),
            (regs::COMPUTE_DIM_Y, 1),
            (regs::COMPUTE_DIM_Z, 1),
        ]);
        let s = DispatchSetup::from_registers(&r).unwrap().unwrap();
        let g: Vec<_> = s.workgroups().collect();
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].size, [36, 1, 1]);
        assert_eq!(s.waves(&g[1])[1].exec, 0xf);
    }

    #[test]
    fn wave64_and_empty_scratch_rings_are_refused() {
        let r = regs(&[(regs::COMPUTE_DISPATCH_INITIATOR, 1)]);
        assert!(DispatchSetup::from_registers(&r).is_err());
        let r = regs(&[(regs::COMPUTE_DISPATCH_INITIATOR, 0x8001), (regs::COMPUTE_PGM_RSRC2, 1)]);
        assert!(DispatchSetup::from_registers(&r).is_err(), "SCRATCH_EN without TMPRING_SIZE");
        let r = regs(&[(regs::COMPUTE_DISPATCH_INITIATOR, 0x8000)]);
        assert!(DispatchSetup::from_registers(&r).unwrap().is_none());
    }

    #[test]
    fn scratch_wave_offset_follows_tg_size() {
        // SCRATCH_EN, one user SGPR, TG_SIZE_EN; 8 slots of 3 KiB.
        let r = regs(&[
            (regs::COMPUTE_DISPATCH_INITIATOR, 0x8001),
            (regs::COMPUTE_PGM_RSRC2, 1 | (1 << 1) | (1 << 10)),
            (regs::COMPUTE_TMPRING_SIZE, 8 | (3 << 12)),
            (regs::COMPUTE_NUM_THREAD_X, 64),
            (regs::COMPUTE_NUM_THREAD_Y, 1),
            (regs::COMPUTE_NUM_THREAD_Z, 1),
            (regs::COMPUTE_DIM_X, 1),
            (regs::COMPUTE_DIM_Y, 1),
            (regs::COMPUTE_DIM_Z, 1),
            (regs::COMPUTE_USER_DATA_0, 7),
        ]);
        let s = DispatchSetup::from_registers(&r).unwrap().unwrap();
        assert_eq!(s.scratch, Some(ScratchRing { waves: 8, wave_bytes: 3072 }));
        let g = s.workgroup(0);
        let waves = s.waves_in_slots(&g, 4);
        assert_eq!(waves[0].sgprs, vec![7, 2, 4 * 3072]);
        assert_eq!(waves[1].sgprs, vec![7, 2 | (1 << 6) | (1 << 20), 5 * 3072]);
    }
}
