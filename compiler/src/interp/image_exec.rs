//! Image instructions in the interpreter: resolving handles to descriptors and gathering the
//! named sources for [`super::image::run`].
//!
//! A handle is a `Handle`-space pointer (set, binding, flattened element) before
//! `lower_image_handles` and a resource index afterwards; both resolve to the same entry of
//! [`super::Resources::images`] or [`super::Resources::samplers`], so an image instruction means
//! the same thing at every stage.

use super::exec::{Ctx, IVal};
use super::image::{self, Args};
use super::memory::{Mem, PSpace, IMAGE_TAG, SAMPLER_TAG};
use super::InterpError;
use crate::ir::{ImageInst, ImageOp, Shader, Type, TypeId, Value};

/// Number of handles one element of an array of type `t` spans (for flattened indices).
pub fn flat_len(s: &Shader, ptr_pointee: TypeId) -> u64 {
    fn len(s: &Shader, t: TypeId) -> u64 {
        match s.types.get(t) {
            Type::Array { elem, len: n, .. } => u64::from(*n) * len(s, *elem),
            _ => 1,
        }
    }
    match s.types.get(ptr_pointee) {
        Type::Array { elem, .. } | Type::RuntimeArray { elem, .. } => len(s, *elem),
        _ => 1,
    }
}

impl Ctx<'_> {
    /// (image key, sampler key) of a handle value.
    fn handle_keys(&self, v: Value, mem: &Mem<'_>) -> Result<(u32, u32), InterpError> {
        match self.val(v)? {
            IVal::Ptr(p) => match p.space {
                PSpace::Handle(set, b) => {
                    let k = mem.res.find(set, b, p.addr as u32)?;
                    Ok((k, k))
                }
                _ => Err(InterpError::Invalid("image handle is not a descriptor".into())),
            },
            IVal::Data(d) => {
                let i = *d.first().ok_or_else(|| InterpError::Invalid("empty handle".into()))?;
                Ok((i as u32, d.get(1).copied().unwrap_or(i) as u32))
            }
        }
    }

    fn comps(&self, v: Option<Value>) -> Result<Vec<u64>, InterpError> {
        v.map_or(Ok(Vec::new()), |v| self.data(v))
    }

    fn one(&self, v: Option<Value>) -> Result<Option<u64>, InterpError> {
        Ok(self.comps(v)?.first().copied())
    }

    /// Executes an image instruction.
    pub(super) fn image(
        &self,
        i: &ImageInst,
        dst: Option<Value>,
        mem: &mut Mem<'_>,
    ) -> Result<Option<IVal>, InterpError> {
        let s = i.sources();
        let handle = s.handle.ok_or_else(|| InterpError::Invalid("image sources".into()))?;
        let (ik, sk) = self.handle_keys(handle, mem)?;
        if i.op == ImageOp::Combine {
            let (smp, _) = self.handle_keys(s.data.unwrap_or(handle), mem)?;
            return Ok(Some(IVal::Data(vec![u64::from(ik), u64::from(smp)])));
        }
        let mut a = Args {
            coord: self.comps(s.coord)?,
            coord_bits: s.coord.map_or(32, |c| self.f.ty(c).shape().0),
            dref: self.one(s.dref)?,
            component: self.one(s.component)?,
            bias: self.one(s.bias)?,
            lod: self.one(s.lod)?,
            ddx: self.comps(s.ddx)?,
            ddy: self.comps(s.ddy)?,
            sample: self.one(s.sample)?,
            min_lod: self.one(s.min_lod)?,
            data: self.comps(s.data)?,
            cmp: self.one(s.cmp)?,
            ..Default::default()
        };
        let off = match (i.offset, s.offset) {
            (_, Some(o)) => {
                let bits = self.f.ty(o).shape().0;
                let d = self.data(o)?;
                [0, 1, 2].map(|k| d.get(k).map_or(0, |&x| crate::ir::ops::sext(x, bits)))
            }
            (Some(c), None) => c.map(i64::from),
            (None, None) => [0; 3],
        };
        a.offset = off;
        if let Some((ddx, ddy)) = mem.io.as_deref_mut().and_then(|io| io.grad.take()) {
            // Implicit level of detail: the coordinates' quad differences (see `gfx`).
            (a.ddx, a.ddy) = (ddx, ddy);
        }
        let sampler = if matches!(i.op, ImageOp::Sample | ImageOp::Gather) {
            Some(self.sampler(sk, mem)?)
        } else {
            None
        };
        if ik & IMAGE_TAG == 0 {
            return Err(InterpError::Invalid("image operation on a non-image descriptor".into()));
        }
        if mem.is_helper() && matches!(i.op, ImageOp::Write | ImageOp::Atomic(_)) {
            // Helper invocations write no memory; their atomics return undefined values.
            return Ok(dst.map(|d| IVal::Data(vec![0; usize::from(self.f.ty(d).shape().1)])));
        }
        let img = mem
            .res
            .images
            .get_mut((ik & !IMAGE_TAG) as usize)
            .ok_or_else(|| InterpError::Invalid("bad image index".into()))?;
        let comps = dst.map_or(0, |d| usize::from(self.f.ty(d).shape().1));
        let out = image::run(i.op, i.shape, img, sampler.as_ref(), &a, comps)?;
        Ok(dst.map(|_| IVal::Data(out)))
    }

    fn sampler(&self, key: u32, mem: &Mem<'_>) -> Result<image::Sampler, InterpError> {
        let missing = || InterpError::Invalid("sampling without a sampler".into());
        if key & SAMPLER_TAG != 0 {
            return mem
                .res
                .samplers
                .get((key & !SAMPLER_TAG) as usize)
                .cloned()
                .ok_or_else(missing);
        }
        if key & IMAGE_TAG != 0 {
            let img = mem.res.images.get((key & !IMAGE_TAG) as usize).ok_or_else(missing)?;
            return img.sampler.clone().ok_or_else(missing);
        }
        Err(missing())
    }
}
