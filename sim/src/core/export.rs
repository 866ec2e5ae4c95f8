//! EXP: a wave's exports to the fixed-function units.
//!
//! The shader core does not know what consumes an export; it records each executed `exp` in
//! the wave's export sink ([`Wave::exports`]) with the lanes it covered, and the stage that
//! launched the wave (VS: positions and parameters; PS: colour targets and depth) reads them
//! when the wave ends. A wave without a sink (compute) faults on `exp`, as compute waves have
//! nowhere to export to.

use ferrum_isa::Exp;

use super::wave::{fault, Lanes, Wave, LANES, R};

/// Export targets (EXP TGT field).
pub const TARGET_MRT0: u8 = 0;
pub const TARGET_MRTZ: u8 = 8;
pub const TARGET_NULL: u8 = 9;
pub const TARGET_POS0: u8 = 12;
pub const TARGET_PRIM: u8 = 20;
pub const TARGET_PARAM0: u8 = 32;

/// One executed `exp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRecord {
    pub target: u8,
    /// Enabled channels (EN); with `compr`, bits 0-1 cover `data[0]` and 2-3 `data[1]`.
    pub en: u8,
    pub compr: bool,
    pub done: bool,
    /// VM: the export carries the valid mask (PS).
    pub vm: bool,
    /// EXEC when the export ran: the lanes whose data is meaningful.
    pub exec: u32,
    /// The source VGPR values; disabled channels read as 0. With `compr`, `data[0]` and
    /// `data[1]` hold two packed 16-bit values each and `data[2..]` are 0.
    pub data: [Lanes; 4],
}

impl ExportRecord {
    /// Channel `c` of lane `lane` (uncompressed exports), `None` if the channel is disabled.
    pub fn channel(&self, c: usize, lane: usize) -> Option<u32> {
        (self.en >> c & 1 != 0).then(|| self.data[c][lane])
    }
}

/// Executes `exp`: reads the enabled source VGPRs and appends the record to the wave's sink.
pub fn exec(w: &mut Wave, e: &Exp) -> R<()> {
    let valid = matches!(e.target, 0..=9 | 12..=16 | 20 | 32..=63);
    if !valid {
        return fault(format!("export to reserved target {}", e.target));
    }
    if w.exports.is_none() {
        return fault("export from a wave whose stage has no export sink (compute)");
    }
    let mut data = [[0u32; LANES]; 4];
    for (slot, row) in data.iter_mut().enumerate() {
        let (enabled, reg) = if e.compr {
            (slot < 2 && e.en >> (2 * slot) & 3 != 0, e.src[slot])
        } else {
            (e.en >> slot & 1 != 0, e.src[slot])
        };
        if enabled {
            *row = *w.vrow(u32::from(reg))?;
        }
    }
    let record = ExportRecord {
        target: e.target,
        en: e.en,
        compr: e.compr,
        done: e.done,
        vm: e.vm,
        exec: w.exec(),
        data,
    };
    if let Some(sink) = w.exports.as_mut() {
        sink.push(record);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wave() -> Wave {
        let mut w = Wave::new(8, true);
        for r in 0..8 {
            w.v[r] = std::array::from_fn(|lane| (r as u32) << 8 | lane as u32);
        }
        w.set_exec(0x0000_ffff);
        w
    }

    #[test]
    fn records_enabled_channels_and_exec() {
        let mut w = wave();
        w.exports = Some(Vec::new());
        let e =
            Exp { target: 33, en: 0b0101, src: [1, 2, 3, 4], compr: false, done: false, vm: false };
        exec(&mut w, &e).unwrap();
        let r = &w.exports.as_ref().unwrap()[0];
        assert_eq!((r.target, r.exec), (33, 0xffff));
        assert_eq!(r.channel(0, 5), Some(0x105));
        assert_eq!(r.channel(1, 5), None);
        assert_eq!(r.data[1][5], 0, "disabled channels read 0");
        assert_eq!(r.channel(2, 31), Some(0x31f));
    }

    #[test]
    fn compressed_exports_read_two_registers() {
        let mut w = wave();
        w.exports = Some(Vec::new());
        let e = Exp { target: 0, en: 0b1100, src: [6, 7, 0, 0], compr: true, done: true, vm: true };
        exec(&mut w, &e).unwrap();
        let r = &w.exports.as_ref().unwrap()[0];
        assert_eq!(r.data[0][0], 0, "EN bits 0-1 off: src[0] not read");
        assert_eq!(r.data[1][2], 0x702, "EN bits 2-3 read src[1]");
        assert!(r.done && r.vm && r.compr);
    }

    #[test]
    fn compute_waves_and_reserved_targets_fault() {
        let mut w = wave();
        let e = Exp { target: 12, en: 0xf, src: [0; 4], compr: false, done: true, vm: false };
        assert!(exec(&mut w, &e).is_err(), "no sink");
        w.exports = Some(Vec::new());
        assert!(exec(&mut w, &Exp { target: 21, ..e }).is_err());
        // A source register beyond the allocation faults in strict mode.
        assert!(exec(&mut w, &Exp { src: [8, 0, 0, 0], ..e }).is_err());
    }
}
