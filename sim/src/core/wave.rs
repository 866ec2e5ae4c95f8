//! The architectural state of one wave32 and the rules for touching it.
//!
//! Registers live in flat arrays indexed the way instructions encode them: scalar codes 0..127
//! (s0..s105, VCC, TTMPs, M0, NULL, EXEC) and VGPRs as 32-lane rows, only as many as
//! COMPUTE_PGM_RSRC1 allocated. Strict mode checks every access against that allocation and
//! against the destinations of memory operations still outstanding (a missing `s_waitcnt`).

use ferrum_isa::{FloatConst, Operand, Special};

use crate::compute::WAVE_SIZE;

pub const VCC_LO: usize = 106;
pub const M0: usize = 124;
pub const NULL: usize = 125;
pub const EXEC_LO: usize = 126;
pub const LANES: usize = WAVE_SIZE as usize;

/// One lane vector of a register.
pub type Lanes = [u32; LANES];
/// Per-lane values of an operand of up to 64 bits.
pub type Wide = [u64; LANES];

/// Why a wave stopped with an error.
#[derive(Debug, Clone)]
pub enum Fault {
    Shader(String),
    Vm(crate::kernel::VmFault),
}

impl From<crate::kernel::VmFault> for Fault {
    fn from(f: crate::kernel::VmFault) -> Self {
        Fault::Vm(f)
    }
}

pub type R<T> = Result<T, Fault>;

pub fn fault<T>(what: impl Into<String>) -> R<T> {
    Err(Fault::Shader(what.into()))
}

/// The counter an outstanding memory operation belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Vector memory returning data.
    Vm,
    /// LDS (completes in order).
    Lds,
    /// Scalar memory (may complete out of order).
    Smem,
}

/// A memory operation whose destination registers are not yet written as far as the
/// program may assume.
#[derive(Debug, Clone, Copy)]
struct Pending {
    counter: Counter,
    vgpr: bool,
    first: u32,
    count: u32,
}

pub struct Wave {
    pub s: [u32; 128],
    pub v: Vec<Lanes>,
    pub pc: u64,
    pub scc: bool,
    pub done: bool,
    pub at_barrier: bool,
    pub wave_id: u32,
    /// The MODE hardware register: FP_ROUND in bits 3:0 (f32 in 1:0, f16/f64 in 3:2), FP_DENORM in bits 7:4 (bits 5:4 set =
    /// keep f32 denormals), DX10_CLAMP bit 8, IEEE bit 9; initialised from COMPUTE_PGM_RSRC1.
    pub mode: u32,
    /// FLAT_SCRATCH: the byte address of this wave's private memory (GFX10: written by the
    /// shader through `s_setreg` HW_REG_FLAT_SCR_LO/HI, never initialised by the SPI).
    pub flat_scratch: u64,
    /// The export sink: `exp` appends here; `None` for stages that cannot export (compute).
    pub exports: Option<Vec<super::export::ExportRecord>>,
    /// Bytes of one primitive's parameters in LDS (pixel shaders: NUM_INTERP attributes).
    pub param_stride: u32,
    /// Instructions executed so far (the watchdog's budget counts them).
    pub executed: u64,
    strict: bool,
    pending: Vec<Pending>,
    /// The registers `pending` will write, as [`Wave::pending_masks`] gives them: kept up to
    /// date because translated code reads them after every interpreter call.
    masks: [u64; 6],
}

impl Wave {
    pub fn new(vgprs: u32, strict: bool) -> Wave {
        Wave {
            s: [0; 128],
            v: vec![[0; LANES]; vgprs as usize],
            pc: 0,
            scc: false,
            done: false,
            at_barrier: false,
            wave_id: 0,
            mode: 0,
            flat_scratch: 0,
            exports: None,
            param_stride: 0,
            executed: 0,
            strict,
            pending: Vec::new(),
            masks: [0; 6],
        }
    }

    /// Returns the wave to the state [`Wave::new`] gives (same VGPR allocation and strict
    /// mode), keeping its heap storage: a host thread reuses its waves for workgroup after
    /// workgroup.
    pub fn reset(&mut self) {
        // In place (a new `Wave` moved over this one cost a copy of all of it per wave); the
        // pattern names every field, so that a field added later cannot leak between waves.
        let Wave {
            s,
            v,
            pc,
            scc,
            done,
            at_barrier,
            wave_id,
            mode,
            flat_scratch,
            exports,
            param_stride,
            executed,
            strict: _,
            pending,
            masks,
        } = self;
        s.fill(0);
        v.fill([0; LANES]);
        (*pc, *scc, *done, *at_barrier, *wave_id, *mode) = (0, false, false, false, 0, 0);
        (*flat_scratch, *exports, *param_stride, *executed) = (0, None, 0, 0);
        pending.clear();
        *masks = [0; 6];
    }

    /// Whether strict mode (malformed-programming reports) is on.
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// Memory operations strict mode still tracks as outstanding.
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// The registers outstanding operations will write, as bit masks: words 0-1 SGPRs 0..127,
    /// words 2-5 VGPRs 0..255 (translated code checks its operands against these).
    pub fn pending_masks(&self) -> [u64; 6] {
        self.masks
    }

    /// Recomputes [`Wave::pending_masks`] after operations retired.
    fn remask(&mut self) {
        self.masks = [0; 6];
        for k in 0..self.pending.len() {
            self.mask_pending(self.pending[k]);
        }
    }

    fn mask_pending(&mut self, p: Pending) {
        let (base, limit) = if p.vgpr { (128, 256) } else { (0, 128) };
        let end = (p.first + p.count).min(limit);
        if p.first < end {
            set_bits(&mut self.masks, base + p.first as usize, base + end as usize);
        }
    }

    pub fn exec(&self) -> u32 {
        self.s[EXEC_LO]
    }

    pub fn set_exec(&mut self, mask: u32) {
        self.s[EXEC_LO] = mask;
        self.s[EXEC_LO + 1] = 0;
    }

    pub fn vcc(&self) -> u32 {
        self.s[VCC_LO]
    }

    /// f32 denormals are flushed unless FLOAT_MODE's FP_32_DENORMS bits are set.
    pub fn flush_f32(&self) -> bool {
        self.mode & 0x30 == 0
    }

    /// MODE.FP_ROUND for f32 (bits 1:0).
    pub fn round_f32(&self) -> super::rounding::Round {
        super::rounding::Round::from_mode(self.mode)
    }

    // ---- strict-mode bookkeeping -----------------------------------------------------------

    fn check_pending(&self, vgpr: bool, first: u32, count: u32, what: &str) -> R<()> {
        if !self.strict {
            return Ok(());
        }
        for p in &self.pending {
            if p.vgpr == vgpr && first < p.first + p.count && p.first < first + count {
                let kind = if vgpr { "v" } else { "s" };
                return fault(format!(
                    "{what} {kind}{first} while a {:?} load into {kind}[{}:{}] is outstanding (missing s_waitcnt)",
                    p.counter,
                    p.first,
                    p.first + p.count - 1
                ));
            }
        }
        Ok(())
    }

    /// Records that a memory operation will write these registers.
    pub fn add_pending(&mut self, counter: Counter, vgpr: bool, first: u32, count: u32) {
        if self.strict && count > 0 {
            let p = Pending { counter, vgpr, first, count };
            self.pending.push(p);
            self.mask_pending(p);
        }
    }

    /// `s_waitcnt`: `vm`/`lgkm` are the numbers of operations allowed to stay outstanding.
    pub fn wait(&mut self, vm: Option<u32>, lgkm: Option<u32>) {
        if self.pending.is_empty() {
            return;
        }
        let before = self.pending.len();
        self.retire(vm, lgkm);
        if self.pending.len() != before {
            self.remask();
        }
    }

    fn retire(&mut self, vm: Option<u32>, lgkm: Option<u32>) {
        if let Some(n) = vm {
            retire_oldest(&mut self.pending, |c| c == Counter::Vm, n as usize);
        }
        if let Some(n) = lgkm {
            if n == 0 {
                self.pending.retain(|p| !matches!(p.counter, Counter::Lds | Counter::Smem));
            } else {
                // Scalar loads may return out of order; only a count of 0 covers them.
                let smem = self.pending.iter().any(|p| p.counter == Counter::Smem);
                if !smem {
                    retire_oldest(&mut self.pending, |c| c == Counter::Lds, n as usize);
                }
            }
        }
    }

    // ---- scalar registers ------------------------------------------------------------------

    pub fn sread(&self, idx: usize) -> R<u32> {
        if idx >= self.s.len() {
            return fault(format!("scalar register {idx} out of range"));
        }
        if idx <= 105 {
            self.check_pending(false, idx as u32, 1, "read of")?;
        }
        Ok(match idx {
            NULL => 0,
            _ => self.s[idx],
        })
    }

    pub fn swrite(&mut self, idx: usize, value: u32) -> R<()> {
        if idx >= self.s.len() {
            return fault(format!("scalar register {idx} out of range"));
        }
        if idx <= 105 {
            self.check_pending(false, idx as u32, 1, "write to")?;
        }
        if idx != NULL {
            self.s[idx] = value;
        }
        Ok(())
    }

    /// Writes consecutive registers from `first` as [`Wave::swrite`] does one by one (and
    /// with its reports), in one copy when they are all below s106 and none is outstanding.
    pub fn swrite_n(&mut self, first: usize, values: &[u32]) -> R<()> {
        let end = first + values.len();
        let clear = || self.check_pending(false, first as u32, values.len() as u32, "").is_ok();
        if end <= 106 && clear() {
            self.s[first..end].copy_from_slice(values);
            return Ok(());
        }
        for (j, &v) in values.iter().enumerate() {
            self.swrite(first + j, v)?;
        }
        Ok(())
    }

    pub fn swrite64(&mut self, idx: usize, value: u64) -> R<()> {
        self.swrite(idx, value as u32)?;
        if idx != NULL {
            self.swrite(idx + 1, (value >> 32) as u32)?;
        }
        Ok(())
    }

    /// The register index of a scalar operand.
    pub fn sindex(op: Operand) -> R<usize> {
        match op {
            Operand::Sgpr(n) => Ok(n as usize),
            Operand::Ttmp(n) => Ok(108 + n as usize),
            Operand::Special(Special::VccLo) => Ok(VCC_LO),
            Operand::Special(Special::VccHi) => Ok(VCC_LO + 1),
            Operand::Special(Special::M0) => Ok(M0),
            Operand::Special(Special::Null) => Ok(NULL),
            Operand::Special(Special::ExecLo) => Ok(EXEC_LO),
            Operand::Special(Special::ExecHi) => Ok(EXEC_LO + 1),
            other => fault(format!("{other:?} is not a scalar register")),
        }
    }

    /// A scalar source of 32 bits.
    pub fn ssrc(&self, op: Operand) -> R<u32> {
        Ok(match op {
            Operand::Int(i) => i as i32 as u32,
            Operand::Float(c) => f32_const(c).to_bits(),
            Operand::Literal(v) => v,
            Operand::Special(Special::Scc) => self.scc as u32,
            Operand::Special(Special::Vccz) => (self.vcc() == 0) as u32,
            Operand::Special(Special::Execz) => (self.exec() == 0) as u32,
            Operand::Vgpr(_) => return fault("VGPR used as a scalar source"),
            // A 32-bit read of an aperture register yields its low half (see `aperture`).
            Operand::Special(s) if aperture(s).is_some() => aperture(s).map_or(0, |a| a as u32),
            Operand::Special(Special::PopsExitingWaveId | Special::LdsDirect) => {
                return fault(format!("unsupported source {op:?}"))
            }
            reg => self.sread(Self::sindex(reg)?)?,
        })
    }

    /// A scalar source of 64 bits (register pair, or a constant extended to 64 bits).
    pub fn ssrc64(&self, op: Operand) -> R<u64> {
        Ok(match op {
            Operand::Int(i) => i as i64 as u64,
            Operand::Float(c) => f64_const(c).to_bits(),
            Operand::Literal(v) => v as u64,
            Operand::Special(Special::Scc | Special::Vccz | Special::Execz) => {
                self.ssrc(op)? as u64
            }
            Operand::Special(s) if aperture(s).is_some() => aperture(s).unwrap_or(0),
            reg => {
                let i = Self::sindex(reg)?;
                if i == NULL {
                    return Ok(0);
                }
                self.sread(i)? as u64 | (self.sread(i + 1)? as u64) << 32
            }
        })
    }

    /// Reads `N` consecutive scalar registers (a descriptor) without allocating.
    pub fn sread_n<const N: usize>(&self, first: usize) -> R<[u32; N]> {
        let mut out = [0; N];
        for (j, o) in out.iter_mut().enumerate() {
            *o = self.sread(first + j)?;
        }
        Ok(out)
    }

    /// Reads `count` consecutive scalar registers.
    pub fn sread_range(&self, first: usize, count: usize) -> R<Vec<u32>> {
        (first..first + count).map(|i| self.sread(i)).collect()
    }

    // ---- vector registers ------------------------------------------------------------------

    fn check_vgpr(&self, first: u32, count: u32) -> R<()> {
        if first + count > self.v.len() as u32 {
            return fault(format!(
                "v{} beyond the {} VGPRs allocated by COMPUTE_PGM_RSRC1",
                first + count - 1,
                self.v.len()
            ));
        }
        Ok(())
    }

    pub fn vrow(&self, r: u32) -> R<&Lanes> {
        self.check_vgpr(r, 1)?;
        self.check_pending(true, r, 1, "read of")?;
        Ok(&self.v[r as usize])
    }

    /// Checks that `count` VGPRs from `first` may be written now.
    pub fn vwritable(&self, first: u32, count: u32) -> R<()> {
        self.check_vgpr(first, count)?;
        self.check_pending(true, first, count, "write to")
    }

    /// Checks that `count` VGPRs from `first` may be read now.
    pub fn vreadable(&self, first: u32, count: u32) -> R<()> {
        self.check_vgpr(first, count)?;
        self.check_pending(true, first, count, "read of")
    }

    /// Writes lanes in `mask` of VGPR `r`.
    pub fn vwrite(&mut self, r: u32, mask: u32, values: &Lanes) -> R<()> {
        self.vwritable(r, 1)?;
        let row = &mut self.v[r as usize];
        if mask == u32::MAX {
            *row = *values;
            return Ok(());
        }
        // Branch-free blend so the loop vectorises.
        for (lane, (dst, &val)) in row.iter_mut().zip(values.iter()).enumerate() {
            let keep = ((mask >> lane) & 1).wrapping_sub(1);
            *dst = (*dst & keep) | (val & !keep);
        }
        Ok(())
    }

    /// Per-lane source of `bits` (16, 32 or 64) bits: VGPR (pair) or a broadcast scalar.
    pub fn vsrc(&self, op: Operand, bits: u32) -> R<Wide> {
        let mut out = [0u64; LANES];
        self.vsrc_into(op, bits, &mut out)?;
        Ok(out)
    }

    /// [`Wave::vsrc`] into a caller-provided buffer.
    pub fn vsrc_into(&self, op: Operand, bits: u32, out: &mut Wide) -> R<()> {
        let scalar = match op {
            Operand::Vgpr(r) => {
                let lo = self.vrow(r as u32)?;
                if bits == 64 {
                    let hi = self.vrow(r as u32 + 1)?;
                    for l in 0..LANES {
                        out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
                    }
                } else {
                    for (o, &x) in out.iter_mut().zip(lo) {
                        *o = x as u64;
                    }
                }
                return Ok(());
            }
            Operand::Float(c) => match bits {
                64 => f64_const(c).to_bits(),
                16 => f32_to_f16(f32_const(c)) as u64,
                _ => f32_const(c).to_bits() as u64,
            },
            Operand::Int(i) => match bits {
                64 => i as i64 as u64,
                16 => i as i16 as u16 as u64,
                _ => i as i32 as u32 as u64,
            },
            // A 32-bit literal of a 64-bit operand: floats supply the high half.
            Operand::Literal(v) if bits == 64 => v as u64,
            op if bits == 64 => self.ssrc64(op)?,
            op => self.ssrc(op)? as u64,
        };
        out.fill(scalar);
        Ok(())
    }
}

/// The 64-bit value of SRC_SHARED_BASE/LIMIT and SRC_PRIVATE_BASE/LIMIT. They are meant to
/// be read as 64-bit operands; LLVM notes that a 32-bit read does not give the high half, so
/// a 32-bit read here returns the low half.
fn aperture(s: Special) -> Option<u64> {
    use super::address::{LDS_APERTURE, PRIVATE_APERTURE};
    let limit = |base: u64| base + (1 << 32) - 1;
    Some(match s {
        Special::SharedBase => LDS_APERTURE,
        Special::SharedLimit => limit(LDS_APERTURE),
        Special::PrivateBase => PRIVATE_APERTURE,
        Special::PrivateLimit => limit(PRIVATE_APERTURE),
        _ => return None,
    })
}

/// Sets bits `lo..hi` of a 384-bit mask a word at a time (translated code's helper mirrors
/// the masks after every interpreter call).
fn set_bits(m: &mut [u64; 6], lo: usize, hi: usize) {
    for (k, word) in m.iter_mut().enumerate() {
        let (a, b) = (lo.clamp(64 * k, 64 * k + 64), hi.clamp(64 * k, 64 * k + 64));
        if a < b {
            *word |= (u64::MAX >> (64 - (b - a))) << (a - 64 * k);
        }
    }
}

fn retire_oldest(pending: &mut Vec<Pending>, of: impl Fn(Counter) -> bool, keep: usize) {
    let count = pending.iter().filter(|p| of(p.counter)).count();
    let mut to_retire = count.saturating_sub(keep);
    pending.retain(|p| {
        if to_retire > 0 && of(p.counter) {
            to_retire -= 1;
            false
        } else {
            true
        }
    });
}

pub fn f32_const(c: FloatConst) -> f32 {
    match c {
        FloatConst::Half => 0.5,
        FloatConst::NegHalf => -0.5,
        FloatConst::One => 1.0,
        FloatConst::NegOne => -1.0,
        FloatConst::Two => 2.0,
        FloatConst::NegTwo => -2.0,
        FloatConst::Four => 4.0,
        FloatConst::NegFour => -4.0,
        FloatConst::InvTwoPi => 0.159_154_94,
    }
}

pub fn f64_const(c: FloatConst) -> f64 {
    match c {
        FloatConst::InvTwoPi => 0.159_154_943_091_895_35,
        c => f32_const(c) as f64,
    }
}

/// IEEE half to single (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to IEEE half, round to nearest even.
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) as u16 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 != 0);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 != 0);
    sign | (half + round as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip() {
        for h in 0..=0xffffu16 {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#x}");
        }
        assert_eq!(f32_to_f16(1.0 + 1.0 / 4096.0), 0x3c00, "ties to even");
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
    }

    /// A used wave, reset, is the wave `new` makes (with its VGPR allocation).
    #[test]
    fn reset_gives_a_new_wave() {
        let mut w = Wave::new(4, true);
        w.s.fill(7);
        w.v.iter_mut().for_each(|r| r.fill(9));
        (w.pc, w.scc, w.done, w.at_barrier, w.wave_id, w.mode) = (8, true, true, true, 3, 0x30);
        (w.flat_scratch, w.exports, w.param_stride, w.executed) = (5, Some(Vec::new()), 2, 77);
        w.add_pending(Counter::Vm, true, 1, 2);
        w.reset();
        let n = Wave::new(4, true);
        assert_eq!((w.s, &w.v, w.pc, w.scc, w.done), (n.s, &n.v, n.pc, n.scc, n.done));
        assert_eq!((w.at_barrier, w.wave_id, w.mode), (n.at_barrier, n.wave_id, n.mode));
        assert_eq!((w.flat_scratch, w.exports.is_none(), w.param_stride), (0, true, 0));
        assert_eq!((w.executed, w.strict, w.pending.len(), w.masks), (0, true, 0, [0; 6]));
    }

    #[test]
    fn set_bits_sets_exactly_the_range() {
        for lo in 0..384 {
            for hi in lo..=384 {
                let mut m = [0u64; 6];
                set_bits(&mut m, lo, hi);
                for bit in 0..384 {
                    let set = m[bit / 64] >> (bit % 64) & 1 != 0;
                    assert_eq!(set, (lo..hi).contains(&bit), "{lo}..{hi} bit {bit}");
                }
            }
        }
    }
}
