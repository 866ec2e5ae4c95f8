//! Memory selection: scalar loads for uniform push-constant and uniform-buffer reads, MUBUF for
//! storage buffers and divergent uniform-buffer reads, GLOBAL for buffer device addresses, DS
//! for workgroup memory, and the atomics of each. Vector accesses use the widest form the
//! hardware has (dwordx2/x3/x4, b64/b128 where the alignment allows). Scalar loads are
//! selected one value at a time; [`crate::amd::smem_merge`] later merges neighbouring ones.
//! The constant of an `iadd(base, constant)` address goes into the instruction's immediate
//! offset where that is exact, so that neighbouring accesses share their address registers and
//! [`crate::amd::vmem_merge`] can merge them.

use ferrum_isa::Opcode as O;

use super::build::{self, SmemOff, Src};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::ops::AluOp;
use crate::ir::{AtomicOp, InstKind, Space, Value};

/// Largest MUBUF immediate offset (12 bits, unsigned).
const MAX_VMEM_OFFSET: u64 = 4095;
/// Largest GLOBAL immediate offset we use (the field is 12-bit signed on GFX10; negative
/// offsets are left alone).
const MAX_GLOBAL_OFFSET: u64 = 2047;
/// Largest DS immediate offset (16 bits, unsigned).
const MAX_DS_OFFSET: u64 = 0xffff;
/// Bytes past an access's address that its last split part starts at (the second dwordx4 of
/// a 64-bit vec4 starts 16 bytes in): a folded GLOBAL constant leaves this much room.
const MAX_CHUNK_BYTES: u64 = 16;

pub(super) fn smem_op(dw: u8, buffer: bool) -> O {
    match (dw, buffer) {
        (1, false) => O::S_LOAD_DWORD,
        (2, false) => O::S_LOAD_DWORDX2,
        (4, false) => O::S_LOAD_DWORDX4,
        (8, false) => O::S_LOAD_DWORDX8,
        (1, true) => O::S_BUFFER_LOAD_DWORD,
        (2, true) => O::S_BUFFER_LOAD_DWORDX2,
        (4, true) => O::S_BUFFER_LOAD_DWORDX4,
        (_, _) => O::S_BUFFER_LOAD_DWORDX8,
    }
}

fn mubuf_op(dw: u8, bits: u8, load: bool) -> O {
    match (bits, dw, load) {
        (8, _, true) => O::BUFFER_LOAD_UBYTE,
        (16, _, true) => O::BUFFER_LOAD_USHORT,
        (8, _, false) => O::BUFFER_STORE_BYTE,
        (16, _, false) => O::BUFFER_STORE_SHORT,
        (_, 1, true) => O::BUFFER_LOAD_DWORD,
        (_, 2, true) => O::BUFFER_LOAD_DWORDX2,
        (_, 3, true) => O::BUFFER_LOAD_DWORDX3,
        (_, _, true) => O::BUFFER_LOAD_DWORDX4,
        (_, 1, false) => O::BUFFER_STORE_DWORD,
        (_, 2, false) => O::BUFFER_STORE_DWORDX2,
        (_, 3, false) => O::BUFFER_STORE_DWORDX3,
        (_, _, false) => O::BUFFER_STORE_DWORDX4,
    }
}

pub(super) fn global_op(dw: u8, bits: u8, load: bool) -> O {
    match (bits, dw, load) {
        (8, _, true) => O::GLOBAL_LOAD_UBYTE,
        (16, _, true) => O::GLOBAL_LOAD_USHORT,
        (8, _, false) => O::GLOBAL_STORE_BYTE,
        (16, _, false) => O::GLOBAL_STORE_SHORT,
        (_, 1, true) => O::GLOBAL_LOAD_DWORD,
        (_, 2, true) => O::GLOBAL_LOAD_DWORDX2,
        (_, 3, true) => O::GLOBAL_LOAD_DWORDX3,
        (_, _, true) => O::GLOBAL_LOAD_DWORDX4,
        (_, 1, false) => O::GLOBAL_STORE_DWORD,
        (_, 2, false) => O::GLOBAL_STORE_DWORDX2,
        (_, 3, false) => O::GLOBAL_STORE_DWORDX3,
        (_, _, false) => O::GLOBAL_STORE_DWORDX4,
    }
}

fn ds_op(dw: u8, bits: u8, load: bool) -> O {
    match (bits, dw, load) {
        (8, _, true) => O::DS_READ_U8,
        (16, _, true) => O::DS_READ_U16,
        (8, _, false) => O::DS_WRITE_B8,
        (16, _, false) => O::DS_WRITE_B16,
        (_, 1, true) => O::DS_READ_B32,
        (_, 2, true) => O::DS_READ_B64,
        (_, 3, true) => O::DS_READ_B96,
        (_, _, true) => O::DS_READ_B128,
        (_, 1, false) => O::DS_WRITE_B32,
        (_, 2, false) => O::DS_WRITE_B64,
        (_, 3, false) => O::DS_WRITE_B96,
        (_, _, false) => O::DS_WRITE_B128,
    }
}

/// Splits `total` dwords into accesses of at most `max` dwords: (dword offset, dwords).
/// `natural` (LDS) requires each access aligned to its size (16 bytes for 3 or 4 dwords);
/// vector and scalar memory only need dword alignment.
pub(super) fn chunks(
    total: u8,
    max: u8,
    align: u32,
    pow2_only: bool,
    natural: bool,
) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut at = 0u8;
    while at < total {
        let byte = u32::from(at) * 4;
        let known = if byte == 0 { align } else { align.min(1 << byte.trailing_zeros()) };
        let mut n = (total - at).min(max);
        while n > 1 {
            let size_ok = !pow2_only || n.is_power_of_two();
            let need = if n >= 3 { 16 } else { u32::from(n) * 4 };
            if size_ok && (!natural || known >= need) {
                break;
            }
            n -= 1;
        }
        out.push((at, n));
        at += n;
    }
    out
}

/// Alignment known at byte `pos` of an access whose start is `align`-aligned.
fn unit_align(align: u32, pos: u32) -> u32 {
    if pos == 0 {
        align
    } else {
        align.min(1 << pos.trailing_zeros())
    }
}

/// The access unit (4, 2 or `size` bytes) at byte `pos` of a narrow vector with `left` bytes
/// to go, and how many such units follow (dwords run together; shorts and bytes one at a time).
fn narrow_unit(align: u32, pos: u32, left: u32, size: u32) -> (u32, u32) {
    let a = unit_align(align, pos);
    if a >= 4 && left >= 4 {
        (4, left / 4)
    } else if a >= 2 && left >= 2 && size <= 2 {
        (2, 1)
    } else {
        (size, 1)
    }
}

fn mask_bits(bits: u8) -> u64 {
    (1u64 << bits) - 1
}

impl Isel<'_> {
    /// Components of a loaded or stored value as dwords.
    fn flatten(&self, v: &[MVal], bits: u8) -> Vec<MVal> {
        let mut out = Vec::new();
        for &c in v {
            match (c, bits) {
                (MVal::Const(x), 64) => {
                    out.push(MVal::Const(x & 0xffff_ffff));
                    out.push(MVal::Const(x >> 32));
                }
                (MVal::Reg(r, cl), 64) => {
                    out.push(MVal::Reg(r, cl));
                    out.push(MVal::Reg(r.at(1), cl));
                }
                (x, _) => out.push(x),
            }
        }
        out
    }

    /// Regroups loaded dwords into components.
    fn unflatten(&mut self, d: Value, dwords: Vec<MVal>) -> Result<(), BackendError> {
        let (bits, _) = self.shape(d);
        let comps = if bits == 64 {
            let mut out = Vec::new();
            for p in dwords.chunks(2) {
                out.push(self.pair(p[0], p[1])?);
            }
            out
        } else {
            dwords
        };
        self.set(d, comps);
        Ok(())
    }

    pub(super) fn select_load(
        &mut self,
        space: Space,
        d: Value,
        addr: Value,
        align: u32,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(d);
        let uniform = !self.is_div(d);
        if bits < 32 && n != 1 {
            let comps = self.load_narrow_vector(space, addr, align, bits, n, uniform)?;
            self.set(d, comps);
            return Ok(());
        }
        let dwords = self.load_dwords(space, addr, align, 0, bits, n, uniform)?;
        self.unflatten(d, dwords)
    }

    /// A vector of 8- or 16-bit components: the bytes in units as wide as their alignment
    /// allows (dwords, shorts, bytes), each unit split into components by shifts (the upper
    /// bits of a narrow component are unspecified). Never reads past the vector's last byte.
    fn load_narrow_vector(
        &mut self,
        space: Space,
        addr: Value,
        align: u32,
        bits: u8,
        n: u8,
        uniform: bool,
    ) -> Result<Vec<MVal>, BackendError> {
        let size = u32::from(bits / 8);
        let total = size * u32::from(n);
        let mut comps = Vec::new();
        let mut pos = 0;
        while pos < total {
            let (unit, count) = narrow_unit(align, pos, total - pos, size);
            let ubits = if unit == 4 { 32 } else { unit as u8 * 8 };
            let at_align = unit_align(align, pos);
            let words =
                self.load_dwords(space, addr, at_align, pos, ubits, count as u8, uniform)?;
            for w in words {
                for k in 0..unit / size {
                    let sh = MVal::Const(u64::from(k * size * 8));
                    comps.push(self.alu_comp(AluOp::Ushr, 32, 32, &[w, sh], uniform)?);
                }
            }
            pos += unit * count;
        }
        Ok(comps)
    }

    /// Loads `n` components of `bits` (1 component when narrower than 32 bits) as dwords.
    #[allow(clippy::too_many_arguments)]
    fn load_dwords(
        &mut self,
        space: Space,
        addr: Value,
        align: u32,
        byte: u32,
        bits: u8,
        n: u8,
        uniform: bool,
    ) -> Result<Vec<MVal>, BackendError> {
        let total = if bits == 64 { 2 * n } else { n };
        let mut dwords = Vec::new();
        match space {
            Space::Push | Space::Buffer => {
                let at = (align, byte);
                self.load_buffer_dwords(space, addr, at, bits, total, uniform, &mut dwords)?;
            }
            Space::Global => {
                let (a, c) = self.global_base(addr)?;
                for (at, dw) in chunks(total, 4, align, false, false) {
                    let r = self.vreg(RegClass::V, dw);
                    let extra = c + byte + u32::from(at) * 4;
                    self.global_access(a, extra, Some((r, dw)), None, bits, true)?;
                    dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::V)));
                }
            }
            Space::Shared => {
                let (a, c) = self.lds_base(addr)?;
                for (at, dw) in chunks(total, 4, align, false, true) {
                    let r = self.vreg(RegClass::V, dw);
                    let (va, o) = self.lds_addr(a, c + byte + u32::from(at) * 4)?;
                    self.emit(build::ds(ds_op(dw, bits, true), Some((r, dw)), va, &[], o));
                    dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::V)));
                }
            }
            Space::Constant => {
                self.load_constant_dwords(addr, (align, byte), bits, total, uniform, &mut dwords)?;
            }
            Space::Scratch => {
                let mut off = self.comp(addr, 0)?;
                if byte != 0 {
                    let b = MVal::Const(byte.into());
                    off = self.alu_comp(AluOp::Iadd, 32, 32, &[off, b], uniform)?;
                }
                dwords.extend(self.scratch_load(off, total, bits)?);
            }
        }
        Ok(dwords)
    }

    /// Push-constant and descriptor-buffer loads: scalar loads when the value is uniform and
    /// the memory read-only (uniform buffers, push constants), MUBUF/GLOBAL otherwise.
    #[allow(clippy::too_many_arguments)]
    fn load_buffer_dwords(
        &mut self,
        space: Space,
        addr: Value,
        (align, byte): (u32, u32),
        bits: u8,
        total: u8,
        uniform: bool,
        dwords: &mut Vec<MVal>,
    ) -> Result<(), BackendError> {
        let narrow = bits < 32;
        let (base, off) = self.buffer_addr(space, addr)?;
        let ubo = match base {
            None => true,
            Some(id) => {
                let (set, binding, _) = self.res[id as usize];
                self.layout.get(set, binding).is_some_and(|b| b.kind.is_uniform())
            }
        };
        let soff = if uniform && ubo && !narrow && !matches!(off, MVal::Const(_)) {
            self.in_sgpr(off, 1, true)?
        } else {
            None
        };
        let scalar_ok = matches!(off, MVal::Const(_)) || soff.is_some();
        if uniform && ubo && !narrow && scalar_ok {
            for (at, dw) in chunks(total, 8, align, true, false) {
                let r = self.vreg(RegClass::S, dw);
                let o = match off {
                    MVal::Const(c) => SmemOff::Imm(c as u32 + byte + u32::from(at) * 4),
                    _ => {
                        let s = soff.expect("scalar offset");
                        if at == 0 && byte == 0 {
                            SmemOff::Reg(s)
                        } else {
                            let t = self.vreg(RegClass::S, 1);
                            self.emit(build::sop2(
                                O::S_ADD_U32,
                                Some(t),
                                Src::R(s, RegClass::S),
                                Src::I(byte + u32::from(at) * 4),
                                1,
                            ));
                            SmemOff::Reg(t)
                        }
                    }
                };
                let (baseref, bw, buf) = match base {
                    None => (self.inputs.push, 2, false),
                    Some(id) => (self.vsharp(id)?, 4, true),
                };
                self.emit(build::smem_load(smem_op(dw, buf), r, dw, baseref, bw, o));
                dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::S)));
            }
        } else {
            let (base, off, c) = self.vmem_addr(space, addr)?;
            for (at, dw) in chunks(total, 4, align, false, false) {
                let r = self.vreg(RegClass::V, dw);
                self.vmem(base, off, c + byte + u32::from(at) * 4, r, dw, bits, true)?;
                dwords.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::V)));
            }
        }
        Ok(())
    }

    pub(super) fn select_store(
        &mut self,
        space: Space,
        addr: Value,
        value: Value,
        align: u32,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(value);
        let v = self.get(value)?;
        let total = if bits == 64 { 2 * n } else { n };
        let dwords = self.flatten(&v, bits);
        if bits < 32 && n != 1 {
            let uniform = !self.is_div(value);
            return self.store_narrow_vector(space, addr, align, bits, &dwords, uniform);
        }
        for (at, dw) in chunks(total, 4, align, false, space == Space::Shared) {
            // Store data must be consecutive VGPRs.
            let part = &dwords[at as usize..(at + dw) as usize];
            let data = self.consecutive_v(part)?;
            self.store_chunk(space, addr, data, dw, bits, u32::from(at) * 4)?;
        }
        Ok(())
    }

    /// A vector of 8- or 16-bit components: components packed into units as wide as their
    /// alignment allows (dwords, shorts, bytes), one store per unit.
    fn store_narrow_vector(
        &mut self,
        space: Space,
        addr: Value,
        align: u32,
        bits: u8,
        comps: &[MVal],
        uniform: bool,
    ) -> Result<(), BackendError> {
        let size = u32::from(bits / 8);
        let total = size * comps.len() as u32;
        let mut pos = 0;
        while pos < total {
            let (unit, count) = narrow_unit(align, pos, total - pos, size);
            let mut words = Vec::new();
            for u in 0..count {
                let first = ((pos + u * unit) / size) as usize;
                let mut acc = MVal::Const(0);
                for k in 0..unit / size {
                    let c = comps[first + k as usize];
                    if unit == size {
                        acc = c;
                        break;
                    }
                    let m = MVal::Const(mask_bits(bits));
                    let low = self.alu_comp(AluOp::Iand, 32, 32, &[c, m], uniform)?;
                    let sh = MVal::Const(u64::from(k * size * 8));
                    let part = self.alu_comp(AluOp::Ishl, 32, 32, &[low, sh], uniform)?;
                    acc = self.alu_comp(AluOp::Ior, 32, 32, &[acc, part], uniform)?;
                }
                words.push(acc);
            }
            let ubits = if unit == 4 { 32 } else { unit as u8 * 8 };
            let natural = space == Space::Shared;
            let at_align = unit_align(align, pos);
            for (at, dw) in
                chunks(count as u8, if unit == 4 { 4 } else { 1 }, at_align, false, natural)
            {
                let data = self.consecutive_v(&words[at as usize..(at + dw) as usize])?;
                let byte = pos + u32::from(at) * unit;
                self.store_chunk(space, addr, data, dw, ubits, byte)?;
            }
            pos += unit * count;
        }
        Ok(())
    }

    /// One store of `dw` dwords (or one narrow component) at `byte` past the address.
    fn store_chunk(
        &mut self,
        space: Space,
        addr: Value,
        data: RegRef,
        dw: u8,
        bits: u8,
        byte: u32,
    ) -> Result<(), BackendError> {
        match space {
            Space::Buffer => {
                let (base, off, c) = self.vmem_addr(space, addr)?;
                self.vmem(base, off, c + byte, data, dw, bits, false)?;
            }
            Space::Global => {
                let (a, c) = self.global_base(addr)?;
                self.global_access(a, c + byte, None, Some((data, dw)), bits, false)?;
            }
            Space::Shared => {
                let (a, c) = self.lds_base(addr)?;
                let (va, o) = self.lds_addr(a, c + byte)?;
                self.emit(build::ds(ds_op(dw, bits, false), None, va, &[(data, dw)], o));
            }
            Space::Scratch => {
                let off = self.comp(addr, 0)?;
                self.scratch_store(off, byte, data, dw, bits)?;
            }
            _ => return Err(unsupported(format!("stores to {space:?} memory"))),
        }
        Ok(())
    }

    /// `vals` in consecutive VGPRs (reusing a register range when they already are).
    fn consecutive_v(&mut self, vals: &[MVal]) -> Result<RegRef, BackendError> {
        if let MVal::Reg(first, RegClass::V) = vals[0] {
            let run = vals.iter().enumerate().all(|(i, v)| {
                matches!(v, MVal::Reg(r, RegClass::V) if r.vreg == first.vreg && r.off == first.off + i as u8)
            });
            if run {
                return Ok(first);
            }
        }
        let r = self.vreg(RegClass::V, vals.len() as u8);
        for (i, &v) in vals.iter().enumerate() {
            let s = self.src(v)?;
            self.emit(build::vop1(O::V_MOV_B32, r.at(i as u8), s));
        }
        Ok(r)
    }

    /// (resource, byte offset) of a push (`None`) or buffer address.
    fn buffer_addr(
        &mut self,
        space: Space,
        addr: Value,
    ) -> Result<(Option<u32>, MVal), BackendError> {
        if space == Space::Push {
            return Ok((None, self.comp(addr, 0)?));
        }
        let id = match self.comp(addr, 0)? {
            MVal::Res(id) => id,
            // A resource chosen at run time (a φ or select of buffer pointers).
            code => {
                self.res.push((super::DYNAMIC_SET, 0, code));
                self.res.len() as u32 - 1
            }
        };
        Ok((Some(id), self.comp(addr, 1)?))
    }

    /// One MUBUF (buffer) or GLOBAL-with-SGPR-base (push) access of `dw` dwords at
    /// `off + extra` bytes.
    #[allow(clippy::too_many_arguments)]
    fn vmem(
        &mut self,
        base: Option<u32>,
        off: MVal,
        extra: u32,
        data: RegRef,
        dw: u8,
        bits: u8,
        load: bool,
    ) -> Result<(), BackendError> {
        let Some(id) = base else {
            // Push constants read per lane: global_load with the push block as SGPR base.
            let voff = self.offset_v(off, extra)?;
            let push = self.inputs.push;
            let op = global_op(dw, bits, load);
            self.emit(build::global(op, Some((data, dw)), None, voff, Some(push), 0, false));
            return Ok(());
        };
        let op = mubuf_op(dw, bits, load);
        let (voff, soff, imm) = match off {
            MVal::Const(c) if c + u64::from(extra) <= MAX_VMEM_OFFSET => {
                (None, Src::I(0), (c as u32 + extra) as u16)
            }
            MVal::Const(c) => {
                let s = self.vreg(RegClass::S, 1);
                self.emit(build::sop1(O::S_MOV_B32, s, Src::I(c as u32 + extra), 1));
                (None, Src::R(s, RegClass::S), 0)
            }
            MVal::Reg(r, RegClass::S) if u64::from(extra) <= MAX_VMEM_OFFSET => {
                (None, Src::R(r, RegClass::S), extra as u16)
            }
            MVal::Reg(r, RegClass::S) => {
                let s = self.vreg(RegClass::S, 1);
                self.emit(build::sop2(
                    O::S_ADD_U32,
                    Some(s),
                    Src::R(r, RegClass::S),
                    Src::I(extra),
                    1,
                ));
                (None, Src::R(s, RegClass::S), 0)
            }
            MVal::Reg(r, RegClass::V) if u64::from(extra) <= MAX_VMEM_OFFSET => {
                (Some(r), Src::I(0), extra as u16)
            }
            MVal::Reg(_, RegClass::V) => (Some(self.offset_v(off, extra)?), Src::I(0), 0),
            MVal::Res(_) => return Err(unsupported("resource as offset")),
        };
        self.with_rsrc(id, |s, vsharp| {
            s.emit(build::mubuf(op, data, dw, load, voff, vsharp, soff, imm, false));
            Ok(())
        })
    }

    /// A 32-bit VGPR byte offset `off + extra`.
    fn offset_v(&mut self, off: MVal, extra: u32) -> Result<RegRef, BackendError> {
        let v = match off {
            MVal::Const(c) => MVal::Const(c + u64::from(extra)),
            other if extra != 0 => {
                self.bin(None, O::V_ADD_NC_U32, false, other, MVal::Const(u64::from(extra)))?
            }
            other => other,
        };
        self.in_vgpr(v, 1)
    }

    /// A GLOBAL access at 64-bit address `a` + `extra`.
    fn global_access(
        &mut self,
        a: MVal,
        extra: u32,
        dst: Option<(RegRef, u8)>,
        data: Option<(RegRef, u8)>,
        bits: u8,
        load: bool,
    ) -> Result<(), BackendError> {
        let dw = dst.or(data).map_or(1, |x| x.1);
        let op = global_op(dw, bits, load);
        if u64::from(extra) > MAX_GLOBAL_OFFSET {
            return Err(unsupported(format!("global offset {extra} beyond the immediate")));
        }
        match a {
            MVal::Reg(r, RegClass::V) => {
                self.emit(build::global(op, dst, data, r, None, extra as i16, false));
            }
            other => {
                let s = self.in_sgpr(other, 2, true)?.expect("scalar address");
                let z = self.in_vgpr(MVal::Const(0), 1)?;
                self.emit(build::global(op, dst, data, z, Some(s), extra as i16, false));
            }
        }
        Ok(())
    }

    /// LDS address VGPR and immediate offset.
    fn lds_addr(&mut self, a: MVal, extra: u32) -> Result<(RegRef, u16), BackendError> {
        match a {
            MVal::Const(c) if c + u64::from(extra) <= MAX_DS_OFFSET => {
                let z = self.in_vgpr(MVal::Const(0), 1)?;
                Ok((z, (c as u32 + extra) as u16))
            }
            other if u64::from(extra) <= MAX_DS_OFFSET => {
                Ok((self.in_vgpr(other, 1)?, extra as u16))
            }
            other => {
                let sum =
                    self.bin(None, O::V_ADD_NC_U32, false, other, MVal::Const(extra.into()))?;
                Ok((self.in_vgpr(sum, 1)?, 0))
            }
        }
    }

    /// `addr` as (base, constant) when it is `iadd(base, constant)` (the form
    /// [`crate::passes::opt_split_offsets`] leaves); for descriptor-buffer addresses the
    /// constant is the offset half of a `(0, c)` pair.
    ///
    /// An address that is live out of a loop with divergent exits stays whole: selection keeps
    /// each lane's last copy of it, not of its base.
    fn split_addr(&self, space: Space, addr: Value) -> Option<(Value, u64)> {
        if self.div.temporal[addr.0 as usize] {
            return None;
        }
        let Some(InstKind::Alu(AluOp::Iadd, s)) = self.bounds.def(addr) else { return None };
        [(s[0], s[1]), (s[1], s[0])].into_iter().find_map(|(b, k)| {
            match (space, self.bounds.def(k)?) {
                (Space::Buffer, InstKind::Const(c)) if c.len() == 2 && c[0] == 0 => Some((b, c[1])),
                (Space::Buffer, _) => None,
                (_, InstKind::Const(c)) if c.len() == 1 => Some((b, c[0])),
                _ => None,
            }
        })
    }

    /// (resource, offset, immediate) of a descriptor-buffer access by MUBUF. The address's
    /// constant moves into the immediate only when `offset + constant` provably stays below
    /// 2^32: the IR's offset wraps there, the hardware's VGPR offset + immediate does not (its
    /// per-dword range check adds with saturation, as LLVM's AMDGPUUsage describes under
    /// "Relaxed Buffer OOB Mode", and the simulator adds without wrapping), so a wrapped
    /// in-range offset would become an out-of-range access.
    fn vmem_addr(
        &mut self,
        space: Space,
        addr: Value,
    ) -> Result<(Option<u32>, MVal, u32), BackendError> {
        if space == Space::Buffer {
            if let Some((b, c)) = self.split_addr(space, addr) {
                // A part past the field's reach gets its own addition in `vmem`.
                let no_wrap = self.bounds.max(b, 1).is_some_and(|m| m + c <= u64::from(u32::MAX));
                if c <= MAX_VMEM_OFFSET && no_wrap {
                    let (res, off) = self.buffer_addr(space, b)?;
                    return Ok((res, off, c as u32));
                }
            }
        }
        let (res, off) = self.buffer_addr(space, addr)?;
        Ok((res, off, 0))
    }

    /// (64-bit base, immediate) of a GLOBAL access: the 64-bit addition of a small constant is
    /// exactly what the instruction's offset does.
    fn global_base(&mut self, addr: Value) -> Result<(MVal, u32), BackendError> {
        match self.split_addr(Space::Global, addr) {
            Some((b, c)) if c <= MAX_GLOBAL_OFFSET - MAX_CHUNK_BYTES => {
                Ok((self.comp(b, 0)?, c as u32))
            }
            _ => Ok((self.comp(addr, 0)?, 0)),
        }
    }

    /// (base, immediate) of an LDS access. DS adds its VGPR address and offset modulo 2^32, as
    /// the IR does, so any constant that fits the 16-bit field moves into it.
    fn lds_base(&mut self, addr: Value) -> Result<(MVal, u32), BackendError> {
        match self.split_addr(Space::Shared, addr) {
            Some((b, c)) if c <= MAX_DS_OFFSET => Ok((self.comp(b, 0)?, c as u32)),
            _ => Ok((self.comp(addr, 0)?, 0)),
        }
    }

    pub(super) fn select_atomic(
        &mut self,
        space: Space,
        op: AtomicOp,
        dst: Option<Value>,
        addr: Value,
        srcs: &[Value],
    ) -> Result<(), BackendError> {
        let bits =
            srcs.first().map_or(32, |&s| self.shape(s).0).max(dst.map_or(0, |d| self.shape(d).0));
        if bits != 32 && bits != 64 {
            return Err(unsupported(format!("{bits}-bit atomics")));
        }
        // Components of 64-bit atomics are register pairs.
        let w: u8 = if bits == 64 { 2 } else { 1 };
        match op {
            AtomicOp::Load => {
                let d = dst.ok_or_else(|| unsupported("atomic load without result"))?;
                return self.select_load(
                    if space == Space::Push { Space::Push } else { space },
                    d,
                    addr,
                    4,
                );
            }
            AtomicOp::Store => return self.select_store(space, addr, srcs[0], u32::from(w) * 4),
            _ => {}
        }
        let data = self.comp(srcs[0], 0)?;
        let cmp = if op == AtomicOp::CmpXchg { Some(self.comp(srcs[1], 0)?) } else { None };
        let ret = dst.is_some();
        let result = match space {
            Space::Buffer => self.buffer_atomic(op, addr, data, cmp, ret, w)?,
            Space::Global => {
                let (a, c) = self.global_base(addr)?;
                let vals: Vec<MVal> = std::iter::once(data).chain(cmp).collect();
                let dd = self.consecutive_v(&self.flatten(&vals, bits))?;
                let r = self.vreg(RegClass::V, w);
                let av = self.in_vgpr(a, 2)?;
                let op = wide(global_atomic(op), w);
                let dst = if ret { Some((r, w)) } else { None };
                let n = vals.len() as u8 * w;
                self.emit(build::global(op, dst, Some((dd, n)), av, None, c as i16, ret));
                r
            }
            Space::Shared => {
                let (a, c) = self.lds_base(addr)?;
                let (va, o) = self.lds_addr(a, c)?;
                let r = self.vreg(RegClass::V, w);
                let dv = self.in_vgpr(data, w)?;
                let operands: Vec<(RegRef, u8)> = match cmp {
                    // ds_cmpst: data0 is the comparator, data1 the new value.
                    Some(c) => vec![(self.in_vgpr(c, w)?, w), (dv, w)],
                    None => vec![(dv, w)],
                };
                self.emit(build::ds(wide(ds_atomic(op), w), Some((r, w)), va, &operands, o));
                r
            }
            other => return Err(unsupported(format!("atomics on {other:?} memory"))),
        };
        if let Some(d) = dst {
            self.set(d, vec![MVal::Reg(result, RegClass::V)]);
        }
        Ok(())
    }

    /// A MUBUF atomic; returns the register that receives the old value when `ret`.
    fn buffer_atomic(
        &mut self,
        op: AtomicOp,
        addr: Value,
        data: MVal,
        cmp: Option<MVal>,
        ret: bool,
        w: u8,
    ) -> Result<RegRef, BackendError> {
        let space = Space::Buffer;
        let (base, off, c) = self.vmem_addr(space, addr)?;
        let vals: Vec<MVal> = std::iter::once(data).chain(cmp).collect();
        let dwords = self.flatten(&vals, if w == 2 { 64 } else { 32 });
        let dw = dwords.len() as u8;
        // vdata is read and (with glc) overwritten with the old value: a fresh register.
        let d = self.vreg(RegClass::V, dw);
        for (i, &v) in dwords.iter().enumerate() {
            let s = self.src(v)?;
            self.emit(build::vop1(O::V_MOV_B32, d.at(i as u8), s));
        }
        let imm = u64::from(c);
        let (voff, soff, imm) = match off {
            MVal::Const(k) if k + imm <= MAX_VMEM_OFFSET => (None, Src::I(0), (k + imm) as u16),
            MVal::Reg(r, RegClass::S) => (None, Src::R(r, RegClass::S), imm as u16),
            MVal::Reg(r, RegClass::V) => (Some(r), Src::I(0), imm as u16),
            other => (Some(self.offset_v(other, c)?), Src::I(0), 0),
        };
        self.with_rsrc(base.expect("buffer"), |s, vsharp| {
            let aop = wide(buffer_atomic(op), w);
            let mut mi = build::mubuf(aop, d, dw, false, voff, vsharp, soff, imm, ret);
            if ret {
                mi.defs.push(crate::amd::mir::RegOp {
                    slot: crate::amd::mir::Slot::Vdata,
                    reg: d,
                    dwords: w,
                });
            }
            s.emit(mi);
            Ok(())
        })?;
        Ok(d)
    }
}

/// The 64-bit form of a 32-bit atomic (`_x2` / `_u64` / `_i64` / `_b64` by name).
fn wide(op: O, w: u8) -> O {
    if w == 1 {
        return op;
    }
    let name = op.name();
    let candidates = [
        format!("{name}_x2"),
        name.replace("_u32", "_u64"),
        name.replace("_i32", "_i64"),
        name.replace("_b32", "_b64"),
    ];
    O::all().find(|o| candidates.iter().any(|c| c != name && o.name() == c)).unwrap_or(op)
}

fn buffer_atomic(op: AtomicOp) -> O {
    match op {
        AtomicOp::Add => O::BUFFER_ATOMIC_ADD,
        AtomicOp::Imin => O::BUFFER_ATOMIC_SMIN,
        AtomicOp::Umin => O::BUFFER_ATOMIC_UMIN,
        AtomicOp::Imax => O::BUFFER_ATOMIC_SMAX,
        AtomicOp::Umax => O::BUFFER_ATOMIC_UMAX,
        AtomicOp::And => O::BUFFER_ATOMIC_AND,
        AtomicOp::Or => O::BUFFER_ATOMIC_OR,
        AtomicOp::Xor => O::BUFFER_ATOMIC_XOR,
        AtomicOp::CmpXchg => O::BUFFER_ATOMIC_CMPSWAP,
        _ => O::BUFFER_ATOMIC_SWAP,
    }
}

fn global_atomic(op: AtomicOp) -> O {
    match op {
        AtomicOp::Add => O::GLOBAL_ATOMIC_ADD,
        AtomicOp::Imin => O::GLOBAL_ATOMIC_SMIN,
        AtomicOp::Umin => O::GLOBAL_ATOMIC_UMIN,
        AtomicOp::Imax => O::GLOBAL_ATOMIC_SMAX,
        AtomicOp::Umax => O::GLOBAL_ATOMIC_UMAX,
        AtomicOp::And => O::GLOBAL_ATOMIC_AND,
        AtomicOp::Or => O::GLOBAL_ATOMIC_OR,
        AtomicOp::Xor => O::GLOBAL_ATOMIC_XOR,
        AtomicOp::CmpXchg => O::GLOBAL_ATOMIC_CMPSWAP,
        _ => O::GLOBAL_ATOMIC_SWAP,
    }
}

fn ds_atomic(op: AtomicOp) -> O {
    match op {
        AtomicOp::Add => O::DS_ADD_RTN_U32,
        AtomicOp::Imin => O::DS_MIN_RTN_I32,
        AtomicOp::Umin => O::DS_MIN_RTN_U32,
        AtomicOp::Imax => O::DS_MAX_RTN_I32,
        AtomicOp::Umax => O::DS_MAX_RTN_U32,
        AtomicOp::And => O::DS_AND_RTN_B32,
        AtomicOp::Or => O::DS_OR_RTN_B32,
        AtomicOp::Xor => O::DS_XOR_RTN_B32,
        AtomicOp::CmpXchg => O::DS_CMPST_RTN_B32,
        _ => O::DS_WRXCHG_RTN_B32,
    }
}
