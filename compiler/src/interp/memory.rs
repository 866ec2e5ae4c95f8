//! Memory of an interpreted dispatch: descriptor buffers, global (buffer-device-address)
//! allocations, push constants, workgroup memory and per-invocation private memory.

use super::InterpError;
use crate::ir::{IoSlot, SysVal};

/// A descriptor-bound buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// Element of a descriptor array (0 for plain bindings).
    pub index: u32,
    /// Contents.
    pub data: Vec<u8>,
}

/// An allocation reachable through 64-bit global addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalBuffer {
    /// Base address.
    pub addr: u64,
    /// Contents.
    pub data: Vec<u8>,
}

/// Everything a dispatch reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Descriptor buffers; a resource index is a position in this list.
    pub buffers: Vec<Buffer>,
    /// Buffer-device-address allocations.
    pub globals: Vec<GlobalBuffer>,
    /// Push-constant bytes.
    pub push: Vec<u8>,
    /// Images, combined image/samplers and texel buffers.
    pub images: Vec<super::image::Image>,
    /// Separate samplers.
    pub samplers: Vec<super::image::Sampler>,
}

/// Tag of resource-index values that name an entry of [`Resources::images`].
pub const IMAGE_TAG: u32 = 1 << 30;
/// Tag of resource-index values that name an entry of [`Resources::samplers`].
pub const SAMPLER_TAG: u32 = 1 << 29;

impl Resources {
    /// The resource index of `(set, binding)[index]`.
    /// Image and sampler descriptors are found in their own lists, and their index carries
    /// [`IMAGE_TAG`] or [`SAMPLER_TAG`].
    pub fn find(&self, set: u32, binding: u32, index: u32) -> Result<u32, InterpError> {
        let key = |s: u32, b: u32, i: u32| s == set && b == binding && i == index;
        if let Some(p) = self.buffers.iter().position(|b| key(b.set, b.binding, b.index)) {
            return Ok(p as u32);
        }
        if let Some(p) = self.images.iter().position(|b| key(b.set, b.binding, b.index)) {
            return Ok(p as u32 | IMAGE_TAG);
        }
        if let Some(p) = self.samplers.iter().position(|b| key(b.set, b.binding, b.index)) {
            return Ok(p as u32 | SAMPLER_TAG);
        }
        Err(InterpError::Unbound { set, binding, index })
    }
}

/// Which memory a pointer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PSpace {
    /// A descriptor buffer (resource index).
    Buffer(u32),
    /// An array of descriptors not yet indexed.
    DescArray(u32, u32),
    /// Global memory.
    Global,
    /// Push constants.
    Push,
    /// Workgroup memory.
    Shared,
    /// Per-invocation private/function memory.
    Private,
    /// Per-invocation scratch (after lowering).
    Scratch,
    /// The shader's constant data (read by the interpreter from the shader itself).
    Constant,
    /// A system value (address = byte offset of the component).
    SysVal(SysVal),
    /// Descriptors of an image/sampler binding (set, binding); the address is the flattened
    /// array element.
    Handle(u32, u32),
    /// A graphics input or output slot; the address is the component within it.
    Io {
        /// The vec4 slot.
        slot: IoSlot,
        /// An output (read back) rather than an input.
        output: bool,
    },
    /// A built-in block variable (`gl_PerVertex`) before its member is chosen.
    IoBlock {
        /// The variable.
        var: u32,
        /// An output block rather than an input one.
        output: bool,
    },
}

/// An interpreter pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ptr {
    /// Memory.
    pub space: PSpace,
    /// Byte address within it.
    pub addr: u64,
}

/// The byte stores one invocation can reach.
pub struct Mem<'a> {
    /// Shared resources.
    pub res: &'a mut Resources,
    /// The workgroup's LDS.
    pub shared: &'a mut Vec<u8>,
    /// This invocation's private memory.
    pub private: &'a mut Vec<u8>,
    /// This invocation's scratch.
    pub scratch: &'a mut Vec<u8>,
    /// This invocation's graphics inputs and outputs (vertex and fragment stages).
    pub io: Option<&'a mut super::gfx::LaneIo>,
}

fn slice<'b>(
    data: &'b mut [u8],
    addr: u64,
    len: usize,
    what: &'static str,
) -> Result<&'b mut [u8], InterpError> {
    let a = usize::try_from(addr).map_err(|_| InterpError::OutOfBounds { space: what, addr })?;
    data.get_mut(a..a.saturating_add(len)).ok_or(InterpError::OutOfBounds { space: what, addr })
}

impl Mem<'_> {
    /// The `len` bytes at `p`.
    pub fn bytes(&mut self, p: Ptr, len: usize) -> Result<&mut [u8], InterpError> {
        match p.space {
            PSpace::Buffer(h) => {
                let b = self.res.buffers.get_mut(h as usize).ok_or(InterpError::OutOfBounds {
                    space: "buffer index",
                    addr: u64::from(h),
                })?;
                slice(&mut b.data, p.addr, len, "buffer")
            }
            PSpace::Global => {
                for g in &mut self.res.globals {
                    if p.addr >= g.addr && p.addr + len as u64 <= g.addr + g.data.len() as u64 {
                        return slice(&mut g.data, p.addr - g.addr, len, "global");
                    }
                }
                Err(InterpError::OutOfBounds { space: "global", addr: p.addr })
            }
            PSpace::Push => slice(&mut self.res.push, p.addr, len, "push constants"),
            PSpace::Shared => slice(self.shared, p.addr, len, "shared"),
            PSpace::Private => slice(self.private, p.addr, len, "private"),
            PSpace::Scratch => slice(self.scratch, p.addr, len, "scratch"),
            PSpace::SysVal(_)
            | PSpace::Constant
            | PSpace::DescArray(..)
            | PSpace::Handle(..)
            | PSpace::Io { .. }
            | PSpace::IoBlock { .. } => {
                Err(InterpError::Invalid("memory access to a non-memory pointer".into()))
            }
        }
    }

    /// Reads a `size`-byte little-endian value.
    pub fn read(&mut self, p: Ptr, size: usize) -> Result<u64, InterpError> {
        let b = self.bytes(p, size)?;
        let mut w = [0u8; 8];
        w[..size].copy_from_slice(b);
        Ok(u64::from_le_bytes(w))
    }

    /// Writes a `size`-byte little-endian value. A helper invocation's writes to memory other
    /// invocations see have no effect (Vulkan "Helper Invocations").
    pub fn write(&mut self, p: Ptr, size: usize, v: u64) -> Result<(), InterpError> {
        if self.is_helper() && matches!(p.space, PSpace::Buffer(_) | PSpace::Global) {
            return Ok(());
        }
        let b = self.bytes(p, size)?;
        b.copy_from_slice(&v.to_le_bytes()[..size]);
        Ok(())
    }

    /// Whether this invocation is a fragment helper (no memory side effects).
    pub fn is_helper(&self) -> bool {
        self.io.as_ref().is_some_and(|io| io.helper)
    }

    /// Size of the buffer behind a resource index.
    pub fn buffer_size(&self, h: u32) -> Result<u64, InterpError> {
        self.res
            .buffers
            .get(h as usize)
            .map(|b| b.data.len() as u64)
            .ok_or(InterpError::OutOfBounds { space: "buffer index", addr: u64::from(h) })
    }
}

/// Reads a `size`-byte little-endian value of a shader's constant data; reading outside it is
/// an error (the backend's loads never leave it: `opt_constant_arrays` clamps the indices).
pub fn read_constant(data: &[u8], addr: u64, size: usize) -> Result<u64, InterpError> {
    let oob = InterpError::OutOfBounds { space: "constant data", addr };
    let a = usize::try_from(addr).map_err(|_| oob.clone())?;
    let b = data.get(a..a.saturating_add(size)).ok_or(oob)?;
    let mut w = [0u8; 8];
    w[..size].copy_from_slice(b);
    Ok(u64::from_le_bytes(w))
}
