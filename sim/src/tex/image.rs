//! An image as one T# describes it: its format, surface layout and view (levels, layers),
//! with texel reads and writes through GPU memory.

use std::cell::RefCell;
use std::rc::Rc;

use super::desc::{ty, Tsharp};
use super::format::Format;
use super::surface::Layout;

/// Byte access to GPU memory (VM faults are the implementor's error type).
pub trait Memory {
    type Error;
    fn read(&mut self, addr: u64, out: &mut [u8]) -> Result<(), Self::Error>;
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), Self::Error>;
}

/// A decoded T# ready for texel access.
#[derive(Debug, Clone)]
pub struct Image {
    pub t: Tsharp,
    pub format: Format,
    pub layout: Layout,
    pub base: u64,
}

/// A texel position in absolute resource terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Texel {
    pub x: u32,
    pub y: u32,
    /// Absolute slice: array layer (cube: 6 × cube + face) or 3D depth.
    pub z: u32,
    /// Absolute mip level.
    pub level: u32,
    pub sample: u32,
}

impl Image {
    pub fn new(t: Tsharp) -> Result<Image, String> {
        let format = t.format()?;
        let (base, desc) = t.surface(&format)?;
        let layout = desc.layout().map_err(|e| format!("T# surface: {e}"))?;
        Ok(Image { t, format, layout, base })
    }

    /// [`Image::new`] through a few recent images per host thread: a shader reads the same
    /// few images wave after wave, and building one (the layout's mip chain) cost more than a
    /// wave's texel accesses. An image is a function of its T#, which is the key.
    pub fn cached(t: Tsharp) -> Result<Rc<Image>, String> {
        const KEEP: usize = 4;
        thread_local! {
            static RECENT: RefCell<Vec<Rc<Image>>> = const { RefCell::new(Vec::new()) };
        }
        RECENT.with_borrow_mut(|recent| {
            if let Some(img) = recent.iter().find(|img| img.t == t) {
                return Ok(img.clone());
            }
            let img = Rc::new(Image::new(t)?);
            recent.truncate(KEEP - 1);
            recent.insert(0, img.clone());
            Ok(img)
        })
    }

    /// Size in texels of absolute `level` (width, height, depth or layers): the texture unit
    /// rounds mip sizes down (`max(1, size >> level)`, as Vulkan defines them; Mesa's RADV
    /// notes the floor where block-compressed views meet it), whatever padding the layout has.
    pub fn level_size(&self, level: u32) -> (u32, u32, u32) {
        let shift = |v: u32| v.checked_shr(level).unwrap_or(0).max(1);
        let d = if self.t.ty == ty::D3 { shift(self.t.depth + 1) } else { self.t.slices() };
        let h = if matches!(self.t.ty, ty::D1 | ty::D1_ARRAY) { 1 } else { shift(self.t.height) };
        (shift(self.t.width), h, d)
    }

    /// First and last slice the view reaches.
    pub fn slice_range(&self, level: u32) -> (u32, u32) {
        match self.t.ty {
            ty::D3 if self.t.array_pitch == 0 => (0, self.level_size(level).2 - 1),
            ty::D3 => (self.t.base_array, self.t.depth.min(self.level_size(level).2 - 1)),
            ty::D1 | ty::D2 | ty::D2_MSAA => (0, 0),
            ty::CUBE => (self.t.base_array, 6 * (self.t.depth + 1) - 1),
            _ => (self.t.base_array, self.t.depth),
        }
    }

    pub fn levels(&self) -> (u32, u32) {
        if self.t.msaa() {
            (0, 0)
        } else {
            (self.t.base_level, self.t.last_level)
        }
    }

    pub fn samples(&self) -> u32 {
        if self.t.msaa() {
            1 << self.t.max_mip
        } else {
            1
        }
    }

    /// Whether the texel exists in the resource (and the view).
    pub fn contains(&self, p: &Texel) -> bool {
        let (l0, l1) = self.levels();
        if p.level < l0 || p.level > l1 || p.sample >= self.samples() {
            return false;
        }
        let (w, h, _) = self.level_size(p.level);
        let (z0, z1) = self.slice_range(p.level);
        p.x < w && p.y < h && p.z >= z0 && p.z <= z1
    }

    /// Address of the element holding the texel, and the texel's place in a 4×4 block.
    fn address(&self, p: &Texel) -> (u64, u32, u32) {
        let (bw, bh) = self.format.block();
        let off = self.layout.offset(p.x / bw, p.y / bh, p.z, p.level, p.sample);
        (self.base.wrapping_add(off), p.x % bw, p.y % bh)
    }

    /// The texel's channels as register values (before DST_SEL); the texel must exist.
    pub fn read<M: Memory>(&self, mem: &mut M, p: &Texel) -> Result<[u32; 4], M::Error> {
        let (addr, i, j) = self.address(p);
        let mut buf = [0u8; 16];
        let n = self.format.bytes() as usize;
        mem.read(addr, &mut buf[..n])?;
        Ok(self.format.decode_texel(&buf[..n], i, j))
    }

    /// Writes register values (in memory channel order) to an existing texel.
    pub fn write<M: Memory>(&self, mem: &mut M, p: &Texel, v: [u32; 4]) -> Result<bool, M::Error> {
        let mut buf = [0u8; 16];
        if self.format.encode(v, &mut buf).is_none() {
            return Ok(false);
        }
        let (addr, _, _) = self.address(p);
        mem.write(addr, &buf[..self.format.bytes() as usize])?;
        Ok(true)
    }

    /// The element address of a texel (for atomics), if its element is 4 or 8 bytes.
    pub fn element_address(&self, p: &Texel) -> u64 {
        self.address(p).0
    }

    /// Applies DST_SEL to memory-order channels.
    pub fn swizzle(&self, c: [u32; 4]) -> [u32; 4] {
        let one = if self.format.is_integer() { 1 } else { 1f32.to_bits() };
        self.t.dst_sel.map(|s| match s {
            4..=7 => c[s as usize - 4],
            1 => one,
            _ => 0,
        })
    }

    /// The inverse for stores: memory channel `c` takes the component whose DST_SEL names it
    /// (unnamed channels 0).
    pub fn unswizzle(&self, v: [u32; 4]) -> [u32; 4] {
        std::array::from_fn(|c| {
            (0..4).find(|&k| self.t.dst_sel[k] == 4 + c as u32).map_or(0, |k| v[k])
        })
    }
}
