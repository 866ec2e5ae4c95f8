//! One register file during the linear scan: which instruction spans each physical register
//! is taken for, by which virtual register, and what evicting them would cost.
//!
//! A virtual register occupies its registers over its live segments only, so another value
//! can use a register inside a hole of the one holding it (a loop-carried value between its
//! last read in the body and the latch, a value dead between two definitions).

/// Closed instruction spans, sorted and disjoint.
pub type Spans = Vec<(usize, usize)>;

/// First and last instruction over the spans of all dwords of a register.
pub fn extent(dwords: &[Spans]) -> Option<(usize, usize)> {
    let a = dwords.iter().filter_map(|s| s.first()).map(|s| s.0).min()?;
    let b = dwords.iter().filter_map(|s| s.last()).map(|s| s.1).max()?;
    Some((a, b))
}

/// What the scan knows about each virtual register while choosing spills.
pub struct Costs<'a> {
    /// Spans of each dword of each virtual register.
    pub spans: &'a [Vec<Spans>],
    /// Reads and writes weighted by loop depth (what spilling would add).
    pub cost: &'a [f64],
    /// Dwords of each virtual register.
    pub size: &'a [u8],
    /// Whether a virtual register may be spilled at all.
    pub spillable: &'a dyn Fn(usize) -> bool,
}

impl Costs<'_> {
    /// Spill weight of `v` for a value starting at `start`: its cost per register-instruction
    /// its spilling frees from there on (lower is a better spill).
    pub fn weight(&self, v: usize, start: usize) -> f64 {
        let end = extent(&self.spans[v]).map_or(start, |e| e.1);
        let freed = (end.saturating_sub(start) + 1) as f64 * f64::from(self.size[v]);
        self.cost[v].max(1.0) / freed
    }
}

/// Occupancy of one register file.
pub struct File {
    /// Per register: the spans it is taken for, with their owner, sorted by start.
    occ: Vec<Vec<(usize, usize, usize)>>,
    /// Registers used (highest + 1).
    pub top: u32,
}

impl File {
    /// An empty file of `n` registers.
    pub fn new(n: usize) -> Self {
        File { occ: vec![Vec::new(); n], top: 0 }
    }

    /// Owners of the spans in register `r` that overlap `spans`.
    fn conflicts(&self, r: usize, spans: &[(usize, usize)], out: &mut Vec<usize>) {
        let occ = &self.occ[r];
        for &(a, b) in spans {
            let mut i = occ.partition_point(|s| s.1 < a);
            while i < occ.len() && occ[i].0 <= b {
                if !out.contains(&occ[i].2) {
                    out.push(occ[i].2);
                }
                i += 1;
            }
        }
    }

    fn is_free(&self, r: usize, spans: &[Spans]) -> bool {
        r + spans.len() <= self.occ.len()
            && spans.iter().enumerate().all(|(k, dw)| {
                let occ = &self.occ[r + k];
                dw.iter().all(|&(a, b)| {
                    let i = occ.partition_point(|s| s.1 < a);
                    i == occ.len() || occ[i].0 > b
                })
            })
    }

    /// The lowest free register (with `align`, or exactly `fixed`) for the dwords' `spans`.
    pub fn pick(&self, align: u8, fixed: Option<u8>, spans: &[Spans]) -> Option<usize> {
        match fixed {
            Some(f) => Some(usize::from(f)).filter(|&f| self.is_free(f, spans)),
            None => (0..self.occ.len())
                .step_by(usize::from(align.max(1)))
                .find(|&r| self.is_free(r, spans)),
        }
    }

    /// Takes register `r + k` for `v` over the spans of its dword `k`.
    pub fn take(&mut self, r: usize, v: usize, spans: &[Spans]) {
        for (occ, dw) in self.occ[r..r + spans.len()].iter_mut().zip(spans) {
            for &(a, b) in dw {
                let i = occ.partition_point(|s| s.0 < a);
                occ.insert(i, (a, b, v));
            }
        }
        self.top = self.top.max((r + spans.len()) as u32);
    }

    /// Frees registers `r..r + size` of `v`.
    pub fn evict(&mut self, r: usize, size: u8, v: usize) {
        for occ in &mut self.occ[r..r + usize::from(size)] {
            occ.retain(|s| s.2 != v);
        }
    }

    /// The cheapest way to make room for `v` (`size` dwords, `align`ed): the register whose
    /// spillable occupants over `v`'s spans weigh least together, with those occupants.
    /// `None` when every register has an occupant that cannot be spilled.
    pub fn cheapest_eviction(
        &self,
        v: usize,
        align: u8,
        fixed: Option<u8>,
        costs: &Costs,
    ) -> Option<(usize, f64, Vec<usize>)> {
        let spans = &costs.spans[v];
        let start = extent(spans)?.0;
        let size = spans.len();
        let mut best: Option<(usize, f64, Vec<usize>)> = None;
        let mut owners = Vec::new();
        for r in (0..self.occ.len()).step_by(usize::from(align.max(1))) {
            if r + size > self.occ.len() || fixed.is_some_and(|f| usize::from(f) != r) {
                continue;
            }
            owners.clear();
            for (k, dw) in spans.iter().enumerate() {
                self.conflicts(r + k, dw, &mut owners);
            }
            if !owners.iter().all(|&o| (costs.spillable)(o)) {
                continue;
            }
            let w: f64 = owners.iter().map(|&o| costs.weight(o, start)).sum();
            if best.as_ref().is_none_or(|b| w < b.1) {
                best = Some((r, w, owners.clone()));
            }
        }
        best
    }
}
