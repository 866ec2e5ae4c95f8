//! Pre-decoded programs, cached by GPU address.
//!
//! The code window is fetched once (with execute permission) when a dispatch first uses a
//! program address, and each instruction is decoded the first time a wave reaches it. Shader
//! code is immutable while in flight, which the hardware's instruction cache also assumes; the
//! cache is dropped at every submission and when an ACQUIRE_MEM invalidates the I$.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use ferrum_isa::tables::Form;
use ferrum_isa::Inst;
use parking_lot::Mutex;

use super::lds::DsKind;
use super::valu::Valu;
use super::vmem::Kind;
use crate::kernel::{Access, AddressSpace, VA_MASK};

/// Largest code window fetched per program.
const MAX_CODE_BYTES: u64 = 256 * 1024;

/// One decoded instruction, with the interpreter's per-family preparation done once.
#[derive(Debug, Clone, Copy)]
pub struct Decoded {
    pub inst: Inst,
    /// Length in dwords (1..=3).
    pub len: u8,
    pub form: &'static Form,
    pub prep: Prep,
}

/// What the interpreter derived from an instruction's mnemonic and form.
#[derive(Debug, Clone, Copy)]
pub enum Prep {
    None,
    Valu(Valu),
    /// `None`: a memory instruction the simulator does not implement.
    Vmem(Option<Kind>),
    Ds(Option<DsKind>),
}

fn prepare(inst: &Inst, form: &'static Form) -> Prep {
    let name = inst.op().name();
    match inst {
        Inst::Vop1(_) | Inst::Vop2(_) | Inst::Vopc(_) | Inst::Vop3(_) => {
            Valu::from_inst(inst, form).map_or(Prep::None, Prep::Valu)
        }
        Inst::Mubuf(_) | Inst::Mtbuf(_) | Inst::Flat(_) => {
            Prep::Vmem(super::vmem::kind(name, super::vmem::data_dwords(form)))
        }
        Inst::Ds(_) => Prep::Ds(super::lds::classify(name)),
        _ => Prep::None,
    }
}

pub struct Program {
    pub base: u64,
    words: Vec<u32>,
    slots: Vec<OnceLock<Result<Decoded, String>>>,
}

impl Program {
    /// Fetches the code window starting at `base` (to the end of its mapping, capped).
    pub fn fetch(space: &AddressSpace, base: u64) -> Result<Program, crate::kernel::VmFault> {
        let m = space.lookup(base).ok_or(crate::kernel::VmFault {
            addr: base,
            len: 4,
            access: Access::Execute,
            reason: "unmapped",
        })?;
        let len = (m.end - (base & VA_MASK)).min(MAX_CODE_BYTES);
        let ptr = space.translate(base, len, Access::Execute)?;
        let count = (len / 4) as usize;
        // SAFETY: `translate` checked that `len` bytes are mapped at `ptr`; dword reads are
        // unaligned-safe.
        let words =
            (0..count).map(|i| unsafe { ptr.cast::<u32>().add(i).read_unaligned() }).collect();
        Ok(Program { base, words, slots: (0..count).map(|_| OnceLock::new()).collect() })
    }

    /// The fetched code window.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// The instruction at `pc`, decoding it on first use.
    pub fn at(&self, pc: u64) -> Result<&Decoded, String> {
        let off = pc.wrapping_sub(self.base);
        if off % 4 != 0 || off / 4 >= self.words.len() as u64 {
            return Err(format!("pc {pc:#x} outside the fetched code window at {:#x}", self.base));
        }
        let i = (off / 4) as usize;
        self.slots[i]
            .get_or_init(|| {
                let (inst, len) = ferrum_isa::decode(&self.words[i..])
                    .map_err(|e| format!("undecodable instruction {:#010x}: {e}", self.words[i]))?;
                let form = inst.form().ok_or_else(|| format!("no table form for {inst:?}"))?;
                Ok(Decoded { inst, len: len as u8, form, prep: prepare(&inst, form) })
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Programs by entry address.
#[derive(Default)]
pub struct ProgramCache {
    programs: Mutex<HashMap<u64, Arc<Program>>>,
}

impl ProgramCache {
    pub fn get(
        &self,
        space: &AddressSpace,
        base: u64,
    ) -> Result<Arc<Program>, crate::kernel::VmFault> {
        if let Some(p) = self.programs.lock().get(&base) {
            return Ok(p.clone());
        }
        let p = Arc::new(Program::fetch(space, base)?);
        self.programs.lock().insert(base, p.clone());
        Ok(p)
    }

    pub fn invalidate(&self) {
        self.programs.lock().clear();
    }
}
