//! MIMG: image loads, stores, atomics, sampling, gathers and queries, with the T#/S# in
//! SGPRs and the per-lane addresses in VGPRs (listed one by one with NSA).
//!
//! Address VGPRs, in order (RDNA2 ISA "Image Address VGPRs"): offset (`_o`), bias (`_b`),
//! z-compare (`_c`), gradients (`_d`: ds/dh, dt/dh, dr/dh, ds/dv, dt/dv, dr/dv for the
//! image's dimensions), coordinates (x, y, z / slice / face, as the dim needs; MSAA adds the
//! fragment), then LOD (`_l`, `load_mip`) or the LOD clamp (`_cl`). With A16 the coordinate
//! group (coordinates + LOD/clamp/fragment) is packed two 16-bit values per VGPR; offset,
//! bias, z-compare and 32-bit gradients keep a VGPR each; `_g16` gradients pack each
//! direction's values two per VGPR. The count is checked against the ISA's tables, which
//! is how these layouts were derived (LLVM's per-dim address counts).
//!
//! Loads return their VGPRs at once but stay outstanding until `s_waitcnt vmcnt`, like
//! MUBUF loads. Out-of-range loads return 0, out-of-range stores and atomics are dropped.

use ferrum_isa::tables::{Enc, MimgInfo};
use ferrum_isa::Mimg;

use super::vmem::{atomic_apply, atomic_rmw, AtomicOp};
use super::wave::{f16_to_f32, f32_to_f16, fault, Counter, Fault, Wave, LANES, R};
use super::Mem;
use crate::kernel::Translator;
use crate::tex::desc::{ty, Ssharp, Tsharp};
use crate::tex::image::{Image, Memory, Texel};
use crate::tex::sample::{cube_direction, cube_project, sample, Request};

/// What an image opcode does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Load { mip: bool },
    Store { mip: bool },
    Atomic(AtomicOp),
    Resinfo,
    Sample(Flags),
    Gather(Flags),
    GetLod,
}

/// Operand flags of sample/gather opcodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Flags {
    c: bool,
    d: bool,
    l: bool,
    b: bool,
    lz: bool,
    cl: bool,
    o: bool,
    /// 16-bit gradients, `dims` halves per direction packed from a new VGPR each.
    g16: bool,
}

fn classify(name: &str) -> Option<Class> {
    let rest = name.strip_prefix("image_")?;
    Some(match rest {
        "load" => Class::Load { mip: false },
        "load_mip" => Class::Load { mip: true },
        "store" => Class::Store { mip: false },
        "store_mip" => Class::Store { mip: true },
        "get_resinfo" => Class::Resinfo,
        "get_lod" => Class::GetLod,
        _ => {
            if let Some(op) = rest.strip_prefix("atomic_") {
                return Some(Class::Atomic(match op {
                    "swap" => AtomicOp::Swap,
                    "cmpswap" => AtomicOp::CmpSwap,
                    "add" => AtomicOp::Add,
                    "sub" => AtomicOp::Sub,
                    "smin" => AtomicOp::Smin,
                    "umin" => AtomicOp::Umin,
                    "smax" => AtomicOp::Smax,
                    "umax" => AtomicOp::Umax,
                    "and" => AtomicOp::And,
                    "or" => AtomicOp::Or,
                    "xor" => AtomicOp::Xor,
                    "inc" => AtomicOp::Inc,
                    "dec" => AtomicOp::Dec,
                    _ => return None,
                }));
            }
            let (gather, tail) = if let Some(t) = rest.strip_prefix("sample") {
                (false, t)
            } else {
                (true, rest.strip_prefix("gather4")?)
            };
            let mut f = Flags::default();
            for part in tail.split('_').filter(|p| !p.is_empty()) {
                match part {
                    "c" => f.c = true,
                    // Coarse derivatives take the same operands.
                    "d" | "cd" => f.d = true,
                    "g16" => f.g16 = true,
                    "l" => f.l = true,
                    "b" => f.b = true,
                    "lz" => f.lz = true,
                    "cl" => f.cl = true,
                    "o" => f.o = true,
                    _ => return None,
                }
            }
            if gather {
                Class::Gather(f)
            } else {
                Class::Sample(f)
            }
        }
    })
}

/// GPU memory seen through the VM, with faults as shader faults.
struct VmMem<'a>(Translator<'a>);

impl Memory for VmMem<'_> {
    type Error = Fault;
    fn read(&mut self, addr: u64, out: &mut [u8]) -> R<()> {
        Ok(self.0.read(addr, out)?)
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> R<()> {
        Ok(self.0.write(addr, data)?)
    }
}

/// Coordinates the dim needs (without the MSAA fragment).
fn coord_count(dim: u8) -> usize {
    match dim {
        0 => 1,
        1 | 4 | 6 => 2,
        _ => 3,
    }
}

/// The per-lane address operands, as 32-bit slots and the coordinate group.
struct Addr {
    /// One row per VGPR slot before the coordinate group (offset, bias, compare, gradients).
    head: Vec<[u32; LANES]>,
    /// Coordinate-group values per lane, unpacked to 32 bits (A16 halves extended: floats
    /// to f32 bits when `float`, integers zero-extended).
    coords: Vec<[u32; LANES]>,
}

fn read_addr(w: &Wave, i: &Mimg, head: usize, group: usize, float: bool) -> R<Addr> {
    let form = Enc::Mimg.form_of(i.op).ok_or_else(|| Fault::Shader("MIMG form".into()))?;
    let info = MimgInfo::get(form.code).ok_or_else(|| Fault::Shader("MIMG info".into()))?;
    let expected = info.addr_count(i.dim, i.a16) as usize;
    let group_regs = if i.a16 { group.div_ceil(2) } else { group };
    if head + group_regs != expected {
        return fault(format!(
            "address layout of {} VGPRs does not match the ISA's {expected} (dim {}, a16 {})",
            head + group_regs,
            i.dim,
            i.a16
        ));
    }
    let reg = |k: usize| if i.nsa { i.vaddr[k] as u32 } else { i.vaddr[0] as u32 + k as u32 };
    let mut rows = Vec::with_capacity(expected);
    for k in 0..expected {
        rows.push(*w.vrow(reg(k))?);
    }
    let coords = if i.a16 {
        (0..group)
            .map(|c| {
                let row = &rows[head + c / 2];
                std::array::from_fn(|l| {
                    let h = (row[l] >> (16 * (c % 2))) as u16;
                    if float {
                        f16_to_f32(h).to_bits()
                    } else {
                        h as u32
                    }
                })
            })
            .collect()
    } else {
        rows[head..].to_vec()
    };
    rows.truncate(head);
    Ok(Addr { head: rows, coords })
}

/// Executes one MIMG instruction; `border_table` is the TA_CS_BC_BASE_ADDR table.
pub fn exec(w: &mut Wave, i: &Mimg, mem: &Mem<'_>, border_table: u64) -> R<()> {
    let name = i.op.name();
    let class = classify(name).ok_or_else(|| Fault::Shader(format!("{name} is not modelled")))?;
    if i.tfe || i.lwe {
        return fault("TFE/LWE are not modelled");
    }
    let words = if i.r128 { 4 } else { 8 };
    let t = Tsharp::parse(&w.sread_range(i.srsrc as usize, words)?).map_err(Fault::Shader)?;
    // DIM says how many coordinates the instruction sends. A 1D/2D instruction on a
    // one-dimension-higher array T# sends no layer and reads slice BASE_ARRAY: RADV describes
    // every 1D/2D view of a layered image with an array T# and ACO takes DIM from the shader.
    let unlayered = (i.dim == 0 && t.ty == ty::D1_ARRAY) || (i.dim == 1 && t.ty == ty::D2_ARRAY);
    if i.dim as u32 != t.ty - 8 && !(i.dim == 5 && t.ty == ty::CUBE) && !unlayered {
        return fault(format!("instruction dim {} on a T# of type {}", i.dim, t.ty));
    }
    let img = Image::cached(t).map_err(Fault::Shader)?;
    let mut vm = VmMem(Translator::new(mem.space));
    match class {
        Class::Load { mip } => load(w, i, &img, &mut vm, mip),
        Class::Store { mip } => store(w, i, &img, &mut vm, mip),
        Class::Atomic(op) => atomic(w, i, &img, mem, op),
        Class::Resinfo => resinfo(w, i, &img),
        Class::Sample(f) | Class::Gather(f) => {
            let s = Ssharp::parse(&w.sread_range(i.ssamp as usize, 4)?).map_err(Fault::Shader)?;
            let gather = matches!(class, Class::Gather(_));
            let border = if s.border_color_type == 3 {
                let mut b = [0u8; 16];
                vm.read(border_table.wrapping_add(16 * s.border_color_ptr as u64), &mut b)?;
                Some(std::array::from_fn(|c| {
                    u32::from_le_bytes(b[4 * c..4 * c + 4].try_into().unwrap())
                }))
            } else {
                None
            };
            sample_op(w, i, &img, &s, &mut vm, f, gather, border)
        }
        Class::GetLod => {
            let s = Ssharp::parse(&w.sread_range(i.ssamp as usize, 4)?).map_err(Fault::Shader)?;
            get_lod(w, i, &img, &s)
        }
    }
}

/// The texel a load/store/atomic names: coordinates, then the mip (`_mip`) and fragment.
fn texel_at(img: &Image, dim: u8, c: &[u32], mip: bool) -> Texel {
    let n = coord_count(dim);
    let (l0, _) = img.levels();
    let level = l0 + if mip { c[n] } else { 0 };
    let (z0, _) = img.slice_range(level);
    let sample = if dim >= 6 { c[n + mip as usize] } else { 0 };
    let (x, y, z) = match dim {
        0 => (c[0], 0, z0),
        4 => (c[0], 0, z0.wrapping_add(c[1])),
        6 => (c[0], c[1], 0),
        // Slice 0 of a 2D T#, BASE_ARRAY of a 2D-array one (see `exec`).
        1 => (c[0], c[1], z0),
        _ => (c[0], c[1], z0.wrapping_add(c[2])),
    };
    Texel { x, y, z, level, sample }
}

fn group_len(dim: u8, mip: bool) -> usize {
    coord_count(dim) + mip as usize + (dim >= 6) as usize
}

/// Writes per-lane results, the dmask-selected components, into the data VGPRs.
fn write_result(w: &mut Wave, i: &Mimg, vals: &[[u32; 4]; LANES], all4: bool) -> R<()> {
    let exec = w.exec();
    let comps: Vec<usize> =
        if all4 { (0..4).collect() } else { (0..4).filter(|c| i.dmask >> c & 1 != 0).collect() };
    let regs = if i.d16 { comps.len().div_ceil(2) } else { comps.len() };
    w.vwritable(i.vdata as u32, regs as u32)?;
    for r in 0..regs {
        let row: [u32; LANES] = std::array::from_fn(|l| {
            if !i.d16 {
                return vals[l][comps[r]];
            }
            let half = |k: usize| comps.get(k).map_or(0, |&c| vals[l][c]);
            (half(2 * r) & 0xffff) | (half(2 * r + 1) & 0xffff) << 16
        });
        w.vwrite(i.vdata as u32 + r as u32, exec, &row)?;
    }
    w.add_pending(Counter::Vm, true, i.vdata as u32, regs as u32);
    Ok(())
}

/// D16 results: floats to f16, integers truncated (by `write_result`).
fn to_d16(img: &Image, v: [u32; 4]) -> [u32; 4] {
    if img.format.is_integer() {
        v
    } else {
        v.map(|b| f32_to_f16(f32::from_bits(b)) as u32)
    }
}

fn load(w: &mut Wave, i: &Mimg, img: &Image, vm: &mut VmMem<'_>, mip: bool) -> R<()> {
    let a = read_addr(w, i, 0, group_len(i.dim, mip), false)?;
    let exec = w.exec();
    let mut vals = [[0u32; 4]; LANES];
    for (l, v) in vals.iter_mut().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        let c: Vec<u32> = a.coords.iter().map(|r| r[l]).collect();
        let p = texel_at(img, i.dim, &c, mip);
        if img.contains(&p) {
            *v = img.swizzle(img.read(vm, &p)?);
            if i.d16 {
                *v = to_d16(img, *v);
            }
        }
    }
    write_result(w, i, &vals, false)
}

/// Store data: one VGPR per dmask component (halves with D16), in API component order.
fn store_data(w: &Wave, i: &Mimg, img: &Image, lane: usize) -> [u32; 4] {
    let mut v = [0u32; 4];
    let comps = (0..4).filter(|c| i.dmask >> c & 1 != 0);
    for (k, c) in comps.enumerate() {
        let raw = if i.d16 {
            let r = w.v[i.vdata as usize + k / 2][lane];
            let h = (r >> (16 * (k % 2))) & 0xffff;
            if img.format.is_integer() {
                h
            } else {
                f16_to_f32(h as u16).to_bits()
            }
        } else {
            w.v[i.vdata as usize + k][lane]
        };
        v[c] = raw;
    }
    v
}

fn store(w: &mut Wave, i: &Mimg, img: &Image, vm: &mut VmMem<'_>, mip: bool) -> R<()> {
    let a = read_addr(w, i, 0, group_len(i.dim, mip), false)?;
    let n = (i.dmask & 15).count_ones();
    w.vreadable(i.vdata as u32, if i.d16 { n.div_ceil(2) } else { n })?;
    let exec = w.exec();
    for l in (0..LANES).filter(|l| exec >> l & 1 != 0) {
        let c: Vec<u32> = a.coords.iter().map(|r| r[l]).collect();
        let p = texel_at(img, i.dim, &c, mip);
        if img.contains(&p) {
            let v = img.unswizzle(store_data(w, i, img, l));
            if !img.write(vm, &p, v)? {
                return fault(format!("store to format {} (not writable)", img.format.code));
            }
        }
    }
    Ok(())
}

fn atomic(w: &mut Wave, i: &Mimg, img: &Image, mem: &Mem<'_>, op: AtomicOp) -> R<()> {
    let bytes = img.format.bytes();
    if bytes != 4 || !img.format.is_integer() {
        return fault(format!("atomic on format {}: only 32-bit integer formats", img.format.code));
    }
    let a = read_addr(w, i, 0, group_len(i.dim, false), false)?;
    let dd = if op == AtomicOp::CmpSwap { 2 } else { 1 };
    w.vreadable(i.vdata as u32, dd)?;
    let exec = w.exec();
    let mut ret = [0u32; LANES];
    for l in (0..LANES).filter(|l| exec >> l & 1 != 0) {
        let c: Vec<u32> = a.coords.iter().map(|r| r[l]).collect();
        let p = texel_at(img, i.dim, &c, false);
        if !img.contains(&p) {
            continue;
        }
        let src = w.v[i.vdata as usize][l] as u64;
        let cmp = if dd == 2 { w.v[i.vdata as usize + 1][l] as u64 } else { 0 };
        let addr = img.element_address(&p);
        ret[l] = atomic_rmw(mem, addr, false, |o| atomic_apply(op, o, src, cmp, false))? as u32;
    }
    if i.glc {
        w.vwrite(i.vdata as u32, exec, &ret)?;
        w.add_pending(Counter::Vm, true, i.vdata as u32, 1);
    }
    Ok(())
}

/// `image_get_resinfo`: width, height, depth (or layers), level count of mip `lod`.
fn resinfo(w: &mut Wave, i: &Mimg, img: &Image) -> R<()> {
    let a = read_addr(w, i, 0, 1, false)?;
    let exec = w.exec();
    let (l0, l1) = img.levels();
    let mut vals = [[0u32; 4]; LANES];
    for (l, v) in vals.iter_mut().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        let level = l0.saturating_add(a.coords[0][l]);
        let (wd, h, d) = img.level_size(level.min(15));
        let (z0, z1) = img.slice_range(level.min(15));
        let depth = match img.t.ty {
            ty::D3 => d,
            ty::CUBE => (z1 + 1 - z0) / 6,
            ty::D1 | ty::D2 | ty::D2_MSAA => 1,
            _ => z1 + 1 - z0,
        };
        let levels = if img.t.msaa() { img.samples() } else { l1 - l0 + 1 };
        *v = if level > l1 { [0, 0, 0, levels] } else { [wd, h, depth, levels] };
    }
    write_result(w, i, &vals, false)
}

/// Explicit or quad-derived gradients to a LOD (isotropic: the longer axis).
fn lod_from_gradients(img: &Image, dx: [f32; 3], dy: [f32; 3], unnorm: bool) -> f32 {
    let (l0, _) = img.levels();
    let (wd, h, d) = img.level_size(l0);
    let scale = if unnorm { [1.0; 3] } else { [wd as f32, h as f32, d as f32] };
    let len = |g: [f32; 3]| (0..3).map(|k| (g[k] * scale[k]).powi(2)).sum::<f32>().sqrt();
    len(dx).max(len(dy)).log2()
}

/// The face a cube request's layer coordinate (`8 × cube + face`) names.
fn cube_face_of(r: &Request) -> u32 {
    let id = r.layer.unwrap_or(0.0);
    let id = if id.is_nan() { 0 } else { id.max(0.0).round_ties_even() as u32 };
    (id % 8).min(5)
}

/// A lane's coordinate as a quad neighbour sees it for derivatives. On a cube, a lane on
/// another face than `face` (the differentiating lane's) is first carried onto `face`'s
/// plane through its direction, so that quads straddling a cube edge get the derivative of
/// the continuous direction field (Vulkan "Cube Map Derivative Transformation") instead of
/// the jump between unrelated face coordinates.
fn quad_coord(r: &Request, face: Option<u32>) -> [f32; 3] {
    let Some(face) = face else { return r.coord };
    let own = cube_face_of(r);
    if own == face {
        return r.coord;
    }
    let d = cube_direction(own, r.coord[0] as f64, r.coord[1] as f64);
    match cube_project(face, d) {
        Some((s, t)) => [s as f32, t as f32, 0.0],
        None => r.coord,
    }
}

fn dims_of(img: &Image) -> usize {
    match img.t.ty {
        ty::D1 | ty::D1_ARRAY => 1,
        ty::D3 => 3,
        _ => 2,
    }
}

/// Per lane: the sampling request for this lane's operands.
fn requests(
    w: &Wave,
    i: &Mimg,
    img: &Image,
    s: &Ssharp,
    f: Flags,
    gather: bool,
) -> R<[Request; LANES]> {
    let dims = dims_of(img);
    let per_dir = if f.g16 { dims.div_ceil(2) } else { dims };
    let grads = if f.d { 2 * per_dir } else { 0 };
    let head = f.o as usize + f.b as usize + f.c as usize + grads;
    let ncoord = coord_count(i.dim);
    let group = ncoord + (f.l || f.cl) as usize;
    let a = read_addr(w, i, head, group, true)?;
    let unnorm = i.unorm || s.force_unnormalized;
    let cube = img.t.ty == ty::CUBE;
    let fl = |r: &[u32; LANES], l: usize| f32::from_bits(r[l]);
    let mut out = [Request::default(); LANES];
    for (l, r) in out.iter_mut().enumerate() {
        let mut k = 0;
        let mut next = || {
            k += 1;
            &a.head[k - 1]
        };
        if f.o {
            let o = next()[l];
            let sx = |b: u32| ((o >> b) as i32) << 26 >> 26;
            r.offset = [sx(0), sx(8), sx(16)];
        }
        let bias = if f.b { fl(next(), l) } else { 0.0 };
        if f.c {
            let mut z = fl(next(), l);
            if matches!(
                img.format.kind,
                crate::tex::format::Kind::Plain(_, crate::tex::format::Num::Unorm)
            ) || img.format.kind == crate::tex::format::Kind::FloatClamp
            {
                z = z.clamp(0.0, 1.0);
            }
            r.compare = Some(z);
        }
        let c: Vec<f32> = a.coords.iter().map(|row| fl(row, l)).collect();
        r.unnorm = unnorm;
        for (d, v) in r.coord.iter_mut().enumerate().take(dims.min(ncoord)) {
            *v = if cube { c[d] - 1.0 } else { c[d] };
        }
        if dims < ncoord || cube {
            r.layer = Some(c[ncoord - 1]);
        }
        if f.d {
            let rows: Vec<u32> = (0..grads).map(|_| next()[l]).collect();
            let grad = |dir: usize, k: usize| {
                if f.g16 {
                    let h = rows[dir * per_dir + k / 2] >> (16 * (k % 2));
                    f16_to_f32(h as u16)
                } else {
                    f32::from_bits(rows[dir * per_dir + k])
                }
            };
            let mut dx = [0.0; 3];
            let mut dy = [0.0; 3];
            for k in 0..dims {
                (dx[k], dy[k]) = (grad(0, k), grad(1, k));
            }
            r.lod = lod_from_gradients(img, dx, dy, unnorm);
        }
        if f.l {
            r.lod = c[ncoord];
        }
        if f.cl {
            r.min_lod = Some(c[ncoord]);
        }
        r.lod += bias;
        if gather {
            r.gather = Some((i.dmask & 15).trailing_zeros().min(3) as usize);
        }
    }
    // Implicit LOD: derivatives across each 2×2 quad of lanes (x: lane 1 − 0, y: lane 2 − 0).
    if !(f.l || f.lz || f.d || gather) {
        let base = out;
        for (l, r) in out.iter_mut().enumerate() {
            let q = l & !3;
            let at = |k: usize| quad_coord(&base[k], cube.then(|| cube_face_of(&base[l])));
            let d = |a: usize| {
                let (p, p0) = (at(q + a), at(q));
                let mut g = [0.0; 3];
                for (k, v) in g.iter_mut().enumerate().take(dims) {
                    *v = p[k] - p0[k];
                }
                g
            };
            r.lod += lod_from_gradients(img, d(1), d(2), unnorm);
        }
    }
    if f.lz {
        for r in out.iter_mut() {
            r.lod = 0.0;
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn sample_op(
    w: &mut Wave,
    i: &Mimg,
    img: &Image,
    s: &Ssharp,
    vm: &mut VmMem<'_>,
    f: Flags,
    gather: bool,
    border: Option<[u32; 4]>,
) -> R<()> {
    if img.t.msaa() {
        return fault("sampling a multisampled image");
    }
    let mut reqs = requests(w, i, img, s, f, gather)?;
    let exec = w.exec();
    let mut vals = [[0u32; 4]; LANES];
    for (l, v) in vals.iter_mut().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        reqs[l].border = border;
        *v = sample(img, s, vm, &reqs[l])?;
        if i.d16 {
            *v = to_d16(img, *v);
        }
    }
    write_result(w, i, &vals, gather)
}

/// `image_get_lod`: (the level accessed relative to the base level, the computed LOD).
fn get_lod(w: &mut Wave, i: &Mimg, img: &Image, s: &Ssharp) -> R<()> {
    let reqs = requests(w, i, img, s, Flags::default(), false)?;
    let exec = w.exec();
    let (l0, l1) = img.levels();
    let mut vals = [[0u32; 4]; LANES];
    for (l, v) in vals.iter_mut().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        let raw = reqs[l].lod + s.lod_bias;
        let clamped = raw.min(s.max_lod).max(s.min_lod).min((l1 - l0) as f32).max(0.0);
        // x is the level the sampler would access (what OpImageQueryLod reports): the
        // base level without mipmapping, the nearest level with MIP_FILTER POINT (rounded
        // as `tex::sample` picks it), the fractional level with LINEAR.
        let accessed = match s.mip_filter {
            0 => 0.0,
            1 => clamped.round(),
            _ => clamped,
        };
        *v = [accessed.to_bits(), raw.to_bits(), 0, 0];
    }
    write_result(w, i, &vals, false)
}
