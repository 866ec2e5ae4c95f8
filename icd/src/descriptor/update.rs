//! `vkUpdateDescriptorSets`: writes descriptors (V#, T#, S# words into set memory, dynamic
//! buffers into the set's host list) and copies descriptors between sets.

use ash::vk;

use super::layout::{Kind, Place};
use super::pool::{DescriptorSet, DynamicBuffer};
use super::vsharp;
use crate::core::buffer::Buffer;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};
use crate::image::sampler::Sampler;
use crate::image::view::{BufferView, ImageView};

/// The address and range a `VkDescriptorBufferInfo` names.
fn resolve(info: &vk::DescriptorBufferInfo) -> VkResult<DynamicBuffer> {
    // SAFETY: the application passes a live buffer (valid usage).
    let buffer = unsafe { Buffer::from_handle(info.buffer) }
        .ok_or(VkError::InvalidUsage("null buffer in a descriptor write"))?;
    let binding = buffer.binding().ok_or(VkError::InvalidUsage("descriptor of unbound buffer"))?;
    // VUID-VkDescriptorBufferInfo-offset-00340: "offset must be less than the size of buffer".
    if info.offset >= buffer.size {
        return Err(VkError::InvalidUsage("descriptor offset outside the buffer"));
    }
    let range = if info.range == vk::WHOLE_SIZE { buffer.size - info.offset } else { info.range };
    Ok(DynamicBuffer { va: binding.gpu_address + info.offset, range })
}

/// What one descriptor write stores.
enum Payload {
    /// A buffer range: a raw V# in set memory, or a dynamic buffer in the set's host list.
    Buffer(DynamicBuffer),
    /// Descriptor words written at the element's offset plus a byte offset (the T# of a
    /// combined image sampler whose sampler is immutable is written alone).
    Words(Vec<u32>, u64),
    /// Nothing to write (a sampler write to a binding with immutable samplers is ignored).
    Nothing,
}

/// Stores one descriptor of binding `number`, element `element` (following into later
/// bindings as the spec's consecutive-binding rule says).
fn store(set: &DescriptorSet, number: u32, element: u32, kind: Kind, p: Payload) -> VkResult<()> {
    let (binding, element) = set
        .layout
        .locate(number, element)
        .ok_or(VkError::InvalidUsage("descriptor write past the last binding"))?;
    // VUID-VkWriteDescriptorSet-descriptorType-00319: the type matches the binding.
    if binding.kind != kind {
        return Err(VkError::InvalidUsage("descriptor type does not match the binding"));
    }
    match (binding.place, p) {
        (Place::Memory(offset), Payload::Buffer(d)) => {
            let at = offset + kind.size() * u64::from(element);
            set.write(at, &vsharp::buffer(d.va, d.range));
        }
        (Place::Memory(offset), Payload::Words(words, within)) => {
            set.write(offset + kind.size() * u64::from(element) + within, &words);
        }
        (Place::Dynamic(index), Payload::Buffer(d)) => {
            set.dynamic.lock()[(index + element) as usize] = d;
        }
        (_, Payload::Nothing) => {}
        (Place::Dynamic(_), Payload::Words(..)) => unreachable!("dynamic kinds are buffers"),
    }
    Ok(())
}

/// The object behind a non-null handle of a descriptor write.
fn live<'a, T: VkObject>(h: T::Handle, what: &'static str) -> VkResult<&'a T> {
    // SAFETY: the application passes live handles in descriptor writes (valid usage).
    unsafe { T::from_handle(h) }.ok_or(VkError::InvalidUsage(what))
}

/// The application's description of one descriptor, whichever structure carries it
/// (`VkWriteDescriptorSet` arrays or an update template's data).
#[derive(Clone, Copy)]
pub enum Info<'a> {
    Buffer(&'a vk::DescriptorBufferInfo),
    Image(&'a vk::DescriptorImageInfo),
    TexelBuffer(vk::BufferView),
}

impl<'a> Info<'a> {
    fn image(self) -> VkResult<&'a vk::DescriptorImageInfo> {
        match self {
            Info::Image(i) => Ok(i),
            _ => Err(VkError::InvalidUsage("descriptor info does not match the type")),
        }
    }
}

/// The payload of one descriptor of `kind` to a binding with or without immutable samplers.
fn payload(kind: Kind, info: Info<'_>, immutable: bool) -> VkResult<Payload> {
    Ok(match kind {
        Kind::UniformBuffer
        | Kind::StorageBuffer
        | Kind::UniformBufferDynamic
        | Kind::StorageBufferDynamic => match info {
            Info::Buffer(b) => Payload::Buffer(resolve(b)?),
            _ => return Err(VkError::InvalidUsage("descriptor info does not match the type")),
        },
        Kind::UniformTexelBuffer | Kind::StorageTexelBuffer => match info {
            Info::TexelBuffer(h) => {
                Payload::Words(live::<BufferView>(h, "null texel buffer view")?.words.to_vec(), 0)
            }
            _ => return Err(VkError::InvalidUsage("descriptor info does not match the type")),
        },
        Kind::SampledImage | Kind::StorageImage => {
            let view = live::<ImageView>(info.image()?.image_view, "null image view")?;
            Payload::Words(view.words().to_vec(), 0)
        }
        Kind::InputAttachment => {
            let view = live::<ImageView>(info.image()?.image_view, "null image view")?;
            Payload::Words(view.input_attachment_words()?.to_vec(), 0)
        }
        Kind::Sampler if immutable => Payload::Nothing,
        Kind::Sampler => {
            let sampler = live::<Sampler>(info.image()?.sampler, "null sampler")?;
            Payload::Words(sampler.words.to_vec(), 0)
        }
        Kind::CombinedImageSampler => {
            let i = info.image()?;
            let mut words = live::<ImageView>(i.image_view, "null image view")?.words().to_vec();
            if !immutable {
                words.extend(live::<Sampler>(i.sampler, "null sampler")?.words);
            }
            Payload::Words(words, 0)
        }
    })
}

/// One descriptor (a write's element, or an update template's element).
pub fn write_one(
    set: &DescriptorSet,
    binding: u32,
    element: u32,
    kind: Kind,
    info: Info<'_>,
) -> VkResult<()> {
    let immutable =
        set.layout.locate(binding, element).is_some_and(|(b, _)| !b.immutable.is_empty());
    store(set, binding, element, kind, payload(kind, info, immutable)?)
}

/// One `VkWriteDescriptorSet`.
pub fn write(set: &DescriptorSet, w: &vk::WriteDescriptorSet<'_>) -> VkResult<()> {
    let kind = Kind::from_vk(w.descriptor_type)?;
    let n = w.descriptor_count;
    for i in 0..n as usize {
        let info = match kind {
            Kind::UniformBuffer
            | Kind::StorageBuffer
            | Kind::UniformBufferDynamic
            | Kind::StorageBufferDynamic => Info::Buffer(&crate::api::array(w.p_buffer_info, n)[i]),
            Kind::UniformTexelBuffer | Kind::StorageTexelBuffer => {
                Info::TexelBuffer(crate::api::array(w.p_texel_buffer_view, n)[i])
            }
            _ => Info::Image(&crate::api::array(w.p_image_info, n)[i]),
        };
        write_one(set, w.dst_binding, w.dst_array_element + i as u32, kind, info)?;
    }
    Ok(())
}

/// One `VkCopyDescriptorSet`: the descriptors' words (or dynamic ranges) move unchanged.
pub fn copy(
    src: &DescriptorSet,
    dst: &DescriptorSet,
    c: &vk::CopyDescriptorSet<'_>,
) -> VkResult<()> {
    for i in 0..c.descriptor_count {
        let (b, e) = src
            .layout
            .locate(c.src_binding, c.src_array_element + i)
            .ok_or(VkError::InvalidUsage("descriptor copy past the last source binding"))?;
        let p = match b.place {
            Place::Memory(offset) => {
                let words = (b.kind.size() / 4) as usize;
                Payload::Words(src.read_words(offset + b.kind.size() * u64::from(e), words), 0)
            }
            Place::Dynamic(index) => Payload::Buffer(src.dynamic.lock()[(index + e) as usize]),
        };
        store(dst, c.dst_binding, c.dst_array_element + i, b.kind, p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ash::vk::{self, Handle};

    use super::*;
    use crate::core::device::DeviceShared;
    use crate::core::memory::DeviceMemory;
    use crate::core::physical_device::Adapter;
    use crate::descriptor::{DescriptorPool, SetLayout};

    #[test]
    fn writes_and_copies_land_as_vsharps() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter.clone()).unwrap());
        let mem_info =
            vk::MemoryAllocateInfo::default().allocation_size(65536).memory_type_index(1);
        let mem = DeviceMemory::allocate(&adapter, &mem_info).unwrap();
        let buffer = Buffer::create(&vk::BufferCreateInfo::default().size(1000)).unwrap();
        buffer.bind(vk::DeviceMemory::from_raw(1), &mem, 256).unwrap();
        let buffer = buffer.into_handle();

        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(2),
            vk::DescriptorSetLayoutBinding::default()
                .binding(1)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .descriptor_count(1),
        ];
        let layout = Arc::new(SetLayout::new(&bindings).unwrap());
        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 4 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                descriptor_count: 2,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default().max_sets(2).pool_sizes(&sizes);
        let pool = DescriptorPool::new(&shared, &info).unwrap();
        let (a, b) = (pool.allocate(&layout).unwrap(), pool.allocate(&layout).unwrap());
        assert_eq!(pool.allocate(&layout).err(), Some(VkError::OutOfPoolMemory));
        // SAFETY: live sets of `pool`.
        let (a, b) = unsafe {
            (DescriptorSet::from_handle(a).unwrap(), DescriptorSet::from_handle(b).unwrap())
        };
        assert_eq!(b.va, a.va + 32);

        let infos = [
            vk::DescriptorBufferInfo { buffer, offset: 16, range: vk::WHOLE_SIZE },
            vk::DescriptorBufferInfo { buffer, offset: 0, range: 64 },
        ];
        let w = vk::WriteDescriptorSet::default()
            .dst_binding(0)
            .dst_array_element(1)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&infos[..1]);
        write(a, &w).unwrap();
        let va = mem.gpu_address() + 256 + 16;
        assert_eq!(a.read(16), vsharp::buffer(va, 984));
        assert_eq!(a.gpu_read(16), a.read(16), "GPU memory holds the same V#");
        let dynamic = w
            .dst_binding(1)
            .dst_array_element(0)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
            .buffer_info(&infos[1..]);
        write(a, &dynamic).unwrap();
        assert_eq!(a.dynamic.lock()[0], DynamicBuffer { va: va - 16, range: 64 });
        let wrong = w.descriptor_type(vk::DescriptorType::UNIFORM_BUFFER);
        assert!(write(a, &wrong).is_err());

        let c = vk::CopyDescriptorSet::default()
            .src_binding(0)
            .src_array_element(1)
            .dst_binding(0)
            .dst_array_element(0)
            .descriptor_count(1);
        copy(a, b, &c).unwrap();
        assert_eq!(b.read(0), a.read(16));
        copy(a, b, &c.src_binding(1).src_array_element(0).dst_binding(1)).unwrap();
        assert_eq!(b.dynamic.lock()[0], a.dynamic.lock()[0]);
        // Element 1 of binding 0 is storage, element 0 of binding 1 is dynamic uniform: a
        // copy running across them into two storage slots mismatches.
        assert!(copy(a, b, &c.descriptor_count(2)).is_err());
        pool.reset();
        // SAFETY: created above, destroyed once.
        drop(unsafe { Buffer::take_handle(buffer) });
    }
}

#[cfg(test)]
mod image_tests {
    use std::sync::Arc;

    use ash::vk::{self, Handle};

    use super::*;
    use crate::core::device::DeviceShared;
    use crate::core::memory::DeviceMemory;
    use crate::core::physical_device::Adapter;
    use crate::descriptor::{DescriptorPool, SetLayout};
    use crate::image::Image;

    fn binding(n: u32, ty: vk::DescriptorType) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default().binding(n).descriptor_type(ty).descriptor_count(1)
    }

    /// T#, S# and typed V# words land at their bindings; immutable samplers are in place at
    /// allocation and survive writes; copies move whole descriptors.
    #[test]
    fn image_sampler_and_texel_descriptors() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter.clone()).unwrap());
        let mem_info =
            vk::MemoryAllocateInfo::default().allocation_size(1 << 20).memory_type_index(1);
        let mem = DeviceMemory::allocate(&adapter, &mem_info).unwrap();
        let image_info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width: 64, height: 32, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .usage(vk::ImageUsageFlags::SAMPLED);
        let image = Image::create(&image_info).unwrap();
        image.bind(vk::DeviceMemory::from_raw(1), &mem, 65536).unwrap();
        let image = image.into_handle();
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            level_count: 1,
            layer_count: 1,
            ..Default::default()
        };
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .components(vk::ComponentMapping { r: vk::ComponentSwizzle::B, ..Default::default() })
            .subresource_range(range);
        let view = ImageView::create(&view_info).unwrap();
        let t = view.words();
        assert_eq!(t[0], ((mem.gpu_address() + 65536) >> 8) as u32);
        assert_eq!(t[3] & 0xfff, 6 | (5 << 3) | (6 << 6) | (7 << 9), "R reads B");
        assert_eq!(t[3] >> 20 & 0x1f, 25, "64 KiB S_X");
        let view = view.into_handle();
        let s_info =
            vk::SamplerCreateInfo::default().border_color(vk::BorderColor::INT_OPAQUE_WHITE);
        let sampler = Sampler::create(&s_info).unwrap();
        let s_words = sampler.words;
        let sampler = sampler.into_handle();
        let buffer = Buffer::create(&vk::BufferCreateInfo::default().size(400)).unwrap();
        buffer.bind(vk::DeviceMemory::from_raw(1), &mem, 0).unwrap();
        let buffer = buffer.into_handle();
        let bv_info = vk::BufferViewCreateInfo::default()
            .buffer(buffer)
            .format(vk::Format::R32_UINT)
            .offset(16)
            .range(vk::WHOLE_SIZE);
        let bview = BufferView::create(&bv_info).unwrap();
        assert_eq!(bview.words[2], 96, "(400 - 16) / 4 texels");
        let bview = bview.into_handle();

        let immutable = [sampler];
        let bindings = [
            binding(0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER),
            binding(1, vk::DescriptorType::SAMPLER).immutable_samplers(&immutable),
            binding(2, vk::DescriptorType::STORAGE_TEXEL_BUFFER),
            binding(3, vk::DescriptorType::SAMPLED_IMAGE),
        ];
        let layout = Arc::new(SetLayout::new(&bindings).unwrap());
        assert_eq!(layout.size, 64 + 16 + 16 + 32);
        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: 2,
            },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::SAMPLER, descriptor_count: 2 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_TEXEL_BUFFER,
                descriptor_count: 2,
            },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::SAMPLED_IMAGE, descriptor_count: 2 },
        ];
        let pool = DescriptorPool::new(
            &shared,
            &vk::DescriptorPoolCreateInfo::default().max_sets(2).pool_sizes(&sizes),
        )
        .unwrap();
        let (a, b) = (pool.allocate(&layout).unwrap(), pool.allocate(&layout).unwrap());
        // SAFETY: live sets of `pool`.
        let (a, b) = unsafe {
            (DescriptorSet::from_handle(a).unwrap(), DescriptorSet::from_handle(b).unwrap())
        };
        assert_eq!(a.read(64), s_words, "immutable sampler written at allocation");
        assert_eq!(a.gpu_read(64), s_words);

        let img = [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: vk::ImageLayout::GENERAL,
        }];
        let w = vk::WriteDescriptorSet::default()
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&img);
        write(a, &w).unwrap();
        assert_eq!(a.read_words(0, 8), t.to_vec());
        assert_eq!(a.read(32), s_words);
        write(a, &w.dst_binding(3).descriptor_type(vk::DescriptorType::SAMPLED_IMAGE)).unwrap();
        assert_eq!(a.read_words(96, 8), t.to_vec());
        let tb = [bview];
        let tw = vk::WriteDescriptorSet::default()
            .dst_binding(2)
            .descriptor_type(vk::DescriptorType::STORAGE_TEXEL_BUFFER)
            .texel_buffer_view(&tb);
        write(a, &tw).unwrap();
        // SAFETY: a live buffer view.
        assert_eq!(a.read(80), unsafe { BufferView::from_handle(bview) }.unwrap().words);
        // A sampler write to an immutable binding is ignored.
        let null = [vk::DescriptorImageInfo::default()];
        write(a, &w.dst_binding(1).descriptor_type(vk::DescriptorType::SAMPLER).image_info(&null))
            .unwrap();
        assert_eq!(a.read(64), s_words);
        // Wrong type for the binding.
        assert!(write(a, &w.dst_binding(3)).is_err());

        let c = vk::CopyDescriptorSet::default().src_binding(0).dst_binding(0).descriptor_count(4);
        copy(a, b, &c).unwrap();
        assert_eq!(b.read_words(0, 32), a.read_words(0, 32));
        pool.reset();
        // SAFETY: created above, destroyed once each.
        unsafe {
            drop(BufferView::take_handle(bview));
            drop(Buffer::take_handle(buffer));
            drop(Sampler::take_handle(sampler));
            drop(ImageView::take_handle(view));
            drop(Image::take_handle(image));
        }
    }
}
