//! A GPU virtual address space: page-granular mappings of GEM objects with permissions.
//!
//! The map is copy-on-write: `GEM_VA` builds a new [`AddressSpace`] and swaps it in, while the
//! GPU model takes an `Arc` snapshot per submission. Work in flight therefore sees a consistent
//! set of mappings and keeps the memory it maps alive, and mapping changes never wait for the
//! GPU. Any access outside a mapping, or against its permissions, is a [`VmFault`].

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Arc;

use ferrum_winsys::uapi;
use parking_lot::Mutex;

use super::gem::{GemObject, PAGE_SIZE};
use crate::chip::Chip;

/// The GPU uses 48-bit virtual addresses; the high range is the sign-extended upper half.
pub const VA_MASK: u64 = (1 << 48) - 1;

/// Kind of access, checked against the page permissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Execute,
}

/// A GPU page fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("VM fault: {access:?} of {len} bytes at {addr:#x} ({reason})")]
pub struct VmFault {
    pub addr: u64,
    pub len: u64,
    pub access: Access,
    pub reason: &'static str,
}

/// One mapping `[start, end)` → `gem` bytes `[offset, offset + end - start)`.
#[derive(Debug)]
pub struct VmMapping {
    pub start: u64,
    pub end: u64,
    pub gem: Arc<GemObject>,
    pub offset: u64,
    pub flags: u32,
}

impl VmMapping {
    fn allows(&self, access: Access) -> bool {
        let bit = match access {
            Access::Read => uapi::AMDGPU_VM_PAGE_READABLE,
            Access::Write => uapi::AMDGPU_VM_PAGE_WRITEABLE,
            Access::Execute => uapi::AMDGPU_VM_PAGE_EXECUTABLE,
        };
        self.flags & bit != 0
    }
}

/// Host pointer for `[addr, addr + len)` inside mapping `m`, checking bounds and permission.
fn in_mapping(m: &VmMapping, addr: u64, len: u64, access: Access) -> Result<*mut u8, VmFault> {
    let fault = |reason| VmFault { addr, len, access, reason };
    if !m.allows(access) {
        return Err(fault("permission"));
    }
    let a = addr & VA_MASK;
    if a < m.start || a.checked_add(len).is_none_or(|end| end > m.end) {
        return Err(fault("crosses the end of a mapping"));
    }
    let byte = m.offset + (a - m.start);
    // SAFETY: `byte + len <= offset + (end - start) <= gem.size` (checked at map time).
    Ok(unsafe { m.gem.host_ptr().add(byte as usize) })
}

/// Per-instruction translation with a one-entry cache: consecutive lanes usually hit the same
/// mapping, which saves the tree lookup.
pub struct Translator<'a> {
    space: &'a AddressSpace,
    last: Option<&'a VmMapping>,
}

impl<'a> Translator<'a> {
    pub fn new(space: &'a AddressSpace) -> Translator<'a> {
        Translator { space, last: None }
    }

    fn fast(&mut self, addr: u64, len: u64, access: Access) -> Option<*mut u8> {
        let a = addr & VA_MASK;
        let hit = |m: &VmMapping| a >= m.start && a + len <= m.end && m.allows(access);
        let m = match self.last {
            Some(m) if hit(m) => m,
            _ => {
                let m = self.space.lookup(addr)?;
                self.last = Some(m);
                if !hit(m) {
                    return None;
                }
                m
            }
        };
        in_mapping(m, addr, len, access).ok()
    }

    pub fn read(&mut self, addr: u64, out: &mut [u8]) -> Result<(), VmFault> {
        match self.fast(addr, out.len() as u64, Access::Read) {
            // SAFETY: `ptr` is valid for `out.len()` bytes (checked); `out` is distinct.
            Some(ptr) => unsafe { std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), out.len()) },
            None => return self.space.read(addr, out),
        }
        Ok(())
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), VmFault> {
        match self.fast(addr, data.len() as u64, Access::Write) {
            // SAFETY: `ptr` is valid for `data.len()` bytes (checked); `data` is distinct.
            Some(ptr) => unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len()) },
            None => return self.space.write(addr, data),
        }
        Ok(())
    }
}

/// An immutable snapshot of the mappings, keyed by start address (48-bit form).
#[derive(Debug, Default)]
pub struct AddressSpace {
    maps: BTreeMap<u64, Arc<VmMapping>>,
    /// Mappings [`AddressSpace::translate`] found lately: a shader's accesses go to a few
    /// buffers over and over, and the tree search cost more than a short wave's copy. Host
    /// threads running one job share them; each slot is written only on a miss.
    recent: [AtomicPtr<VmMapping>; RECENT],
    /// The slot the next miss fills.
    victim: AtomicUsize,
}

/// Slots of [`AddressSpace::recent`].
const RECENT: usize = 4;

impl Clone for AddressSpace {
    fn clone(&self) -> AddressSpace {
        AddressSpace { maps: self.maps.clone(), ..AddressSpace::default() }
    }
}

impl AddressSpace {
    /// The mapping containing `addr`, if any.
    pub fn lookup(&self, addr: u64) -> Option<&Arc<VmMapping>> {
        let addr = addr & VA_MASK;
        let (_, m) = self.maps.range(..=addr).next_back()?;
        (addr < m.end).then_some(m)
    }

    /// The mappings, to change: the recent lookups are forgotten, since they may point at
    /// mappings the change drops.
    fn maps_mut(&mut self) -> &mut BTreeMap<u64, Arc<VmMapping>> {
        for slot in &mut self.recent {
            *slot.get_mut() = std::ptr::null_mut();
        }
        &mut self.maps
    }

    /// [`AddressSpace::lookup`] through the recent mappings.
    fn find(&self, addr: u64) -> Option<&VmMapping> {
        let a = addr & VA_MASK;
        for slot in &self.recent {
            let p = slot.load(Ordering::Relaxed);
            // SAFETY: a non-null slot points at a mapping in `maps` (it was stored from
            // there, and `maps_mut`, the only way to change `maps`, clears the slots), alive
            // as long as `self` is borrowed.
            if let Some(m) = unsafe { p.as_ref() } {
                if a >= m.start && a < m.end {
                    return Some(m);
                }
            }
        }
        let m = self.lookup(addr)?;
        let slot = self.victim.fetch_add(1, Ordering::Relaxed) % RECENT;
        self.recent[slot].store(Arc::as_ptr(m).cast_mut(), Ordering::Relaxed);
        Some(m)
    }

    /// Host pointer for `len` bytes at `addr`, all inside one mapping that permits `access`.
    pub fn translate(&self, addr: u64, len: u64, access: Access) -> Result<*mut u8, VmFault> {
        let m = self.find(addr).ok_or(VmFault { addr, len, access, reason: "unmapped" })?;
        in_mapping(m, addr, len, access)
    }

    /// Reads bytes, splitting at mapping boundaries.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), VmFault> {
        self.for_each_piece(addr, out.len() as u64, Access::Read, |ptr, done, n| {
            // SAFETY: `ptr` is valid for `n` bytes (checked); `out` is distinct.
            unsafe { std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr().add(done), n) };
        })
    }

    /// Writes bytes, splitting at mapping boundaries.
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), VmFault> {
        self.for_each_piece(addr, data.len() as u64, Access::Write, |ptr, done, n| {
            // SAFETY: `ptr` is valid for `n` bytes (checked); `data` is distinct.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr().add(done), ptr, n) };
        })
    }

    fn for_each_piece(
        &self,
        addr: u64,
        len: u64,
        access: Access,
        mut f: impl FnMut(*mut u8, usize, usize),
    ) -> Result<(), VmFault> {
        let mut done = 0u64;
        while done < len {
            let a = addr.wrapping_add(done);
            let m = self.lookup(a).ok_or(VmFault {
                addr: a,
                len: len - done,
                access,
                reason: "unmapped",
            })?;
            let n = (m.end - (a & VA_MASK)).min(len - done);
            let ptr = in_mapping(m, a, n, access)?;
            f(ptr, done as usize, n as usize);
            done += n;
        }
        Ok(())
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32, VmFault> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn write_u32(&self, addr: u64, value: u32) -> Result<(), VmFault> {
        self.write(addr, &value.to_le_bytes())
    }

    pub fn write_u64(&self, addr: u64, value: u64) -> Result<(), VmFault> {
        self.write(addr, &value.to_le_bytes())
    }

    /// Reads `count` dwords.
    pub fn read_u32s(&self, addr: u64, count: usize) -> Result<Vec<u32>, VmFault> {
        let mut b = vec![0u8; count * 4];
        self.read(addr, &mut b)?;
        Ok(b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    /// Whether any mapping references `gem`.
    pub fn references(&self, gem: &Arc<GemObject>) -> bool {
        self.maps.values().any(|m| Arc::ptr_eq(&m.gem, gem))
    }
}

/// Why a GEM_VA request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VaError {
    Invalid,
    NotFound,
}

/// The per-file VM: the current snapshot plus the rules for changing it.
#[derive(Debug)]
pub struct Vm {
    current: Mutex<Arc<AddressSpace>>,
    chip: Chip,
}

impl Vm {
    pub fn new(chip: Chip) -> Vm {
        Vm { current: Mutex::new(Arc::default()), chip }
    }

    /// The current mappings, for one submission or one CPU-side check. Changes copy the
    /// mapping table only while such a snapshot is alive (`Arc::make_mut`): a submission
    /// never sees a change, and with none in flight a change costs O(log n), not a copy of
    /// every mapping (which made creating n objects O(n²): the 16,384 pipelines of the
    /// conformance suite's `max_concurrent.compute_pipeline` outran its 60 s limit).
    pub fn snapshot(&self) -> Arc<AddressSpace> {
        self.current.lock().clone()
    }

    /// Validates a user VA range and returns its 48-bit form.
    fn check_range(&self, va: u64, size: u64) -> Result<u64, VaError> {
        if va % PAGE_SIZE != 0 || size % PAGE_SIZE != 0 || size == 0 {
            return Err(VaError::Invalid);
        }
        let end = va.checked_add(size).ok_or(VaError::Invalid)?;
        let low = va >= self.chip.va_start && end <= self.chip.va_end;
        let high = va >= self.chip.high_va_start && end <= self.chip.high_va_end;
        if !low && !high {
            return Err(VaError::Invalid);
        }
        Ok(va & VA_MASK)
    }

    /// AMDGPU_VA_OP_MAP: refuses overlaps with existing mappings, as amdgpu does.
    pub fn map(
        &self,
        gem: Arc<GemObject>,
        va: u64,
        offset: u64,
        size: u64,
        flags: u32,
    ) -> Result<(), VaError> {
        let start = self.check_range(va, size)?;
        if offset % PAGE_SIZE != 0 || offset.checked_add(size).is_none_or(|e| e > gem.size) {
            return Err(VaError::Invalid);
        }
        let end = start + size;
        let mut cur = self.current.lock();
        if Self::overlaps(&cur, start, end) {
            return Err(VaError::Invalid);
        }
        let next = Arc::make_mut(&mut *cur);
        next.maps_mut().insert(start, Arc::new(VmMapping { start, end, gem, offset, flags }));
        Ok(())
    }

    /// AMDGPU_VA_OP_REPLACE: like MAP after clearing the range.
    pub fn replace(
        &self,
        gem: Arc<GemObject>,
        va: u64,
        offset: u64,
        size: u64,
        flags: u32,
    ) -> Result<(), VaError> {
        self.clear(va, size)?;
        self.map(gem, va, offset, size, flags)
    }

    fn overlaps(space: &AddressSpace, start: u64, end: u64) -> bool {
        space.maps.range(..end).next_back().is_some_and(|(_, m)| m.end > start)
    }

    /// AMDGPU_VA_OP_UNMAP: removes the mapping of `gem` that starts exactly at `va`.
    pub fn unmap(&self, gem: &Arc<GemObject>, va: u64) -> Result<(), VaError> {
        let start = va & VA_MASK;
        let mut cur = self.current.lock();
        match cur.maps.get(&start) {
            Some(m) if Arc::ptr_eq(&m.gem, gem) => {}
            _ => return Err(VaError::NotFound),
        }
        let next = Arc::make_mut(&mut *cur);
        next.maps_mut().remove(&start);
        Ok(())
    }

    /// AMDGPU_VA_OP_CLEAR: unmaps everything in `[va, va + size)`, splitting partial overlaps.
    pub fn clear(&self, va: u64, size: u64) -> Result<(), VaError> {
        let start = self.check_range(va, size)?;
        let end = start + size;
        let mut cur = self.current.lock();
        let next = Arc::make_mut(&mut *cur);
        let hit: Vec<Arc<VmMapping>> = next
            .maps
            .range(..end)
            .rev()
            .take_while(|(_, m)| m.end > start)
            .map(|(_, m)| m.clone())
            .collect();
        for m in hit {
            next.maps_mut().remove(&m.start);
            if m.start < start {
                let head = VmMapping {
                    start: m.start,
                    end: start,
                    gem: m.gem.clone(),
                    offset: m.offset,
                    flags: m.flags,
                };
                next.maps_mut().insert(head.start, Arc::new(head));
            }
            if m.end > end {
                let tail = VmMapping {
                    start: end,
                    end: m.end,
                    gem: m.gem.clone(),
                    offset: m.offset + (end - m.start),
                    flags: m.flags,
                };
                next.maps_mut().insert(tail.start, Arc::new(tail));
            }
        }
        Ok(())
    }

    /// Drops every mapping of `gem` (its handle was closed).
    pub fn unmap_all(&self, gem: &Arc<GemObject>) {
        let mut cur = self.current.lock();
        if !cur.references(gem) {
            return;
        }
        let next = Arc::make_mut(&mut *cur);
        next.maps_mut().retain(|_, m| !Arc::ptr_eq(&m.gem, gem));
    }
}

impl AddressSpace {
    /// The mappings whose object satisfies `keep` (a submission sees only the BOs in its BO
    /// list plus per-VM BOs, as the kernel makes only those resident).
    pub fn filtered(&self, keep: impl Fn(&Arc<GemObject>) -> bool) -> AddressSpace {
        AddressSpace {
            maps: self
                .maps
                .iter()
                .filter(|(_, m)| keep(&m.gem))
                .map(|(k, m)| (*k, m.clone()))
                .collect(),
            ..AddressSpace::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::gem::MemoryAccounting;

    #[test]
    fn snapshots_never_see_later_changes() {
        let vm = Vm::new(crate::NAVI21);
        let acct = Arc::new(MemoryAccounting::default());
        let gem = || Arc::new(GemObject::new(0x2000, 4, 0, 0, acct.clone()).unwrap());
        let (a, b) = (gem(), gem());
        let base = crate::NAVI21.va_start;
        // No snapshot alive: changed in place.
        vm.map(a.clone(), base, 0, 0x2000, 0).unwrap();
        let before = vm.snapshot();
        vm.map(b.clone(), base + 0x10000, 0, 0x2000, 0).unwrap();
        vm.unmap(&a, base).unwrap();
        assert!(before.lookup(base).is_some(), "the snapshot keeps the unmapped range");
        assert!(before.lookup(base + 0x10000).is_none(), "and does not see the new one");
        let now = vm.snapshot();
        assert!(now.lookup(base).is_none());
        assert!(now.lookup(base + 0x10000).is_some());
        drop((before, now));
        vm.clear(base + 0x10000, 0x1000).unwrap();
        let after = vm.snapshot();
        assert!(after.lookup(base + 0x10000).is_none(), "cleared");
        assert!(after.lookup(base + 0x11000).is_some(), "the tail of a split mapping stays");
    }

    /// Translations remember the mappings they found; a change made in place (no snapshot
    /// alive) must not leave them pointing at a dropped mapping, and a copy starts afresh.
    #[test]
    fn remembered_mappings_follow_changes() {
        let vm = Vm::new(crate::NAVI21);
        let acct = Arc::new(MemoryAccounting::default());
        let gem = || Arc::new(GemObject::new(0x2000, 4, 0, 0, acct.clone()).unwrap());
        let (a, b) = (gem(), gem());
        let base = crate::NAVI21.va_start;
        let rw = uapi::AMDGPU_VM_PAGE_READABLE | uapi::AMDGPU_VM_PAGE_WRITEABLE;
        vm.map(a.clone(), base, 0, 0x2000, rw).unwrap();
        vm.map(b.clone(), base + 0x10000, 0, 0x2000, uapi::AMDGPU_VM_PAGE_READABLE).unwrap();
        let space = vm.snapshot();
        for _ in 0..3 {
            assert!(space.translate(base + 0x100, 4, Access::Write).is_ok());
            assert!(space.translate(base + 0x10ffc, 4, Access::Read).is_ok());
            // A remembered mapping still checks bounds and permissions.
            let cross = space.translate(base + 0x1ffc, 8, Access::Read).unwrap_err();
            assert_eq!(cross.reason, "crosses the end of a mapping");
            let ro = space.translate(base + 0x10000, 4, Access::Write).unwrap_err();
            assert_eq!(ro.reason, "permission");
            assert_eq!(
                space.translate(base + 0x2000, 4, Access::Read).unwrap_err().reason,
                "unmapped"
            );
        }
        let copy = (*space).clone();
        drop(space);
        // In place: the only reference to the space is the VM's.
        vm.unmap(&a, base).unwrap();
        vm.clear(base + 0x10000, 0x1000).unwrap();
        let now = vm.snapshot();
        assert_eq!(now.translate(base + 0x100, 4, Access::Read).unwrap_err().reason, "unmapped");
        assert!(now.translate(base + 0x10ffc, 4, Access::Read).is_err());
        assert!(now.translate(base + 0x11000, 4, Access::Read).is_ok());
        assert!(copy.translate(base + 0x100, 4, Access::Read).is_ok(), "the copy keeps its own");
    }
}
