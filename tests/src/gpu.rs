//! A small Vulkan "application" layer for the end-to-end tests: a device with one queue,
//! host-visible buffers, one-shot command buffers. The same code drives Ferrum and lavapipe in
//! differential tests.

use std::ffi::CStr;

use ash_loaded::{vk, Device, Instance};

/// A buffer in host-visible, host-coherent memory, mapped for its whole life.
pub struct HostBuffer {
    pub buffer: vk::Buffer,
    pub memory: vk::DeviceMemory,
    pub size: u64,
    ptr: *mut u8,
}

// SAFETY: the mapping is plain memory owned by the buffer; the tests synchronise GPU access
// with fences and give each thread its own buffer.
unsafe impl Send for HostBuffer {}
// SAFETY: as above; shared references only read.
unsafe impl Sync for HostBuffer {}

impl HostBuffer {
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping covers `size` bytes while the buffer lives; tests read it only
        // when the GPU is idle.
        unsafe { std::slice::from_raw_parts(self.ptr, self.size as usize) }
    }

    pub fn write(&self, offset: usize, data: &[u8]) {
        assert!(offset + data.len() <= self.size as usize);
        // SAFETY: in range of the mapping (checked above).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr.add(offset), data.len()) };
    }

    pub fn u32s(&self) -> Vec<u32> {
        self.bytes().chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    pub fn u64_at(&self, offset: usize) -> u64 {
        u64::from_le_bytes(self.bytes()[offset..offset + 8].try_into().unwrap())
    }
}

/// An image bound to its own memory, with one view (see [`Gpu::viewed_image`]).
pub struct ViewedImage {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
}

impl ViewedImage {
    /// Destroys the view, the image and its memory.
    pub fn destroy(self, device: &Device) {
        // SAFETY: the GPU is done with the image (callers wait first); each object once.
        unsafe {
            device.destroy_image_view(self.view, None);
            device.destroy_image(self.image, None);
            device.free_memory(self.memory, None);
        }
    }
}

/// A device with one queue of `family` and a resettable command pool.
pub struct Gpu {
    pub device: Device,
    pub queue: vk::Queue,
    pub family: u32,
    pub pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// Images `transfer_image` made, destroyed with their memory before the device.
    owned_images: std::sync::Mutex<Vec<(vk::Image, vk::DeviceMemory)>>,
}

impl Gpu {
    /// A device on `pd` with `queue_count` queues of `family` (queue 0 used by the helpers)
    /// and the given device extensions; timeline semaphores and synchronization2 are enabled
    /// when their extensions are named.
    pub fn new(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        family: u32,
        queue_count: u32,
        extensions: &[&CStr],
    ) -> Gpu {
        let prios = vec![1.0; queue_count as usize];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prios)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let mut timeline = vk::PhysicalDeviceTimelineSemaphoreFeatures::default()
            .timeline_semaphore(extensions.contains(&c"VK_KHR_timeline_semaphore"));
        let mut sync2 = vk::PhysicalDeviceSynchronization2Features::default()
            .synchronization2(extensions.contains(&c"VK_KHR_synchronization2"));
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .push_next(&mut timeline)
            .push_next(&mut sync2);
        // SAFETY: valid create infos on live handles.
        unsafe { Self::create(instance, pd, &info, family) }
    }

    /// A device with one queue of `family` and these core features enabled.
    pub fn with_features(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        family: u32,
        features: &vk::PhysicalDeviceFeatures,
    ) -> Gpu {
        let prios = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prios)];
        let info =
            vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(features);
        // SAFETY: valid create infos on live handles.
        unsafe { Self::create(instance, pd, &info, family) }
    }

    /// A device with one queue of `family`, these device extensions, and the features of
    /// `features` and the structures chained to it enabled.
    pub fn with_feature_chain(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        family: u32,
        extensions: &[&CStr],
        features: &mut vk::PhysicalDeviceFeatures2<'_>,
    ) -> Gpu {
        let prios = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prios)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .push_next(features);
        // SAFETY: valid create infos on live handles.
        unsafe { Self::create(instance, pd, &info, family) }
    }

    /// The queue, pool and memory properties for a freshly created device.
    ///
    /// # Safety
    /// `device` must be a live device of `pd` with a queue of `family`.
    /// Creates the device (under the loader lock) and wraps it; every object is destroyed in
    /// Drop.
    ///
    /// # Safety
    /// `info` must be a valid create info for `pd`, a live physical device of `instance`.
    unsafe fn create(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        info: &vk::DeviceCreateInfo<'_>,
        family: u32,
    ) -> Gpu {
        // SAFETY: as the caller promises.
        unsafe {
            // Valid usage: families must be queried before they are used.
            instance.get_physical_device_queue_family_properties(pd);
            let device = {
                let _loader = crate::loader_lock();
                instance.create_device(pd, info, None).expect("vkCreateDevice")
            };
            Self::around(instance, pd, device, family)
        }
    }

    unsafe fn around(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        device: Device,
        family: u32,
    ) -> Gpu {
        // SAFETY: forwarded to the caller.
        unsafe {
            let queue = device.get_device_queue(family, 0);
            let pool_info = vk::CommandPoolCreateInfo::default()
                .queue_family_index(family)
                .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
            let pool = device.create_command_pool(&pool_info, None).expect("vkCreateCommandPool");
            let memory = instance.get_physical_device_memory_properties(pd);
            Gpu { device, queue, family, pool, memory, owned_images: Default::default() }
        }
    }

    /// A host-visible, coherent buffer usable for transfers, storage and uniform texel-buffer views.
    pub fn host_buffer(&self, size: u64) -> HostBuffer {
        self.make_host_buffer(size, false, vk::BufferUsageFlags::empty())
    }

    /// A host buffer that storage texel-buffer views may also use (their format must then
    /// support STORAGE_TEXEL_BUFFER, VUID-VkBufferViewCreateInfo-buffer-00934).
    pub fn storage_texel_buffer(&self, size: u64) -> HostBuffer {
        self.make_host_buffer(size, false, vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER)
    }

    /// A host buffer whose device address shaders may use (the device must have been created
    /// with `bufferDeviceAddress`); the address is [`Gpu::device_address`].
    pub fn addressable_buffer(&self, size: u64) -> HostBuffer {
        self.make_host_buffer(size, true, vk::BufferUsageFlags::empty())
    }

    /// `vkGetBufferDeviceAddress` through VK_KHR_buffer_device_address.
    pub fn device_address(&self, instance: &Instance, b: &HostBuffer) -> u64 {
        let bda = {
            let _loader = crate::loader_lock();
            ash_loaded::khr::buffer_device_address::Device::new(instance, &self.device)
        };
        let info = vk::BufferDeviceAddressInfo::default().buffer(b.buffer);
        // SAFETY: a live buffer created with SHADER_DEVICE_ADDRESS usage.
        unsafe { bda.get_buffer_device_address(&info) }
    }

    fn make_host_buffer(
        &self,
        size: u64,
        addressable: bool,
        extra: vk::BufferUsageFlags,
    ) -> HostBuffer {
        let mut usage = extra
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::INDIRECT_BUFFER
            | vk::BufferUsageFlags::INDEX_BUFFER
            | vk::BufferUsageFlags::VERTEX_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER;
        if addressable {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let info = vk::BufferCreateInfo::default().size(size).usage(usage);
        // SAFETY: valid create and allocate infos; the memory type index comes from the
        // device's own properties.
        unsafe {
            let buffer = self.device.create_buffer(&info, None).expect("vkCreateBuffer");
            let req = self.device.get_buffer_memory_requirements(buffer);
            let want =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
            let index = (0..types.len())
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0 && types[i].property_flags.contains(want)
                })
                .expect("host-visible coherent memory type") as u32;
            let mut flags = vk::MemoryAllocateFlagsInfo::default()
                .flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let mut alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(index);
            if addressable {
                alloc = alloc.push_next(&mut flags);
            }
            let memory = self.device.allocate_memory(&alloc, None).expect("vkAllocateMemory");
            self.device.bind_buffer_memory(buffer, memory, 0).expect("vkBindBufferMemory");
            let ptr = self
                .device
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .expect("vkMapMemory") as *mut u8;
            std::ptr::write_bytes(ptr, 0, size as usize);
            HostBuffer { buffer, memory, size, ptr }
        }
    }

    /// Allocates memory for `image` (the first memory type it allows, device-local where the
    /// device has one) and binds it; the caller frees the memory after destroying the image.
    pub fn bind_image_memory(&self, image: vk::Image) -> vk::DeviceMemory {
        // SAFETY: a live image of this device without memory; the type index comes from the
        // device's own properties.
        unsafe {
            let req = self.device.get_image_memory_requirements(image);
            let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
            let allowed = |i: usize| req.memory_type_bits & (1 << i) != 0;
            let local = vk::MemoryPropertyFlags::DEVICE_LOCAL;
            let index = (0..types.len())
                .find(|&i| allowed(i) && types[i].property_flags.contains(local))
                .or_else(|| (0..types.len()).find(|&i| allowed(i)))
                .expect("a memory type for the image") as u32;
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(index);
            let memory = self.device.allocate_memory(&alloc, None).expect("vkAllocateMemory");
            self.device.bind_image_memory(image, memory, 0).expect("vkBindImageMemory");
            memory
        }
    }

    /// The image `info` describes, bound to fresh memory ([`Gpu::bind_image_memory`]), and a
    /// view of `view_type` over `range` in the image's format; the caller destroys it.
    pub fn viewed_image(
        &self,
        info: &vk::ImageCreateInfo<'_>,
        view_type: vk::ImageViewType,
        range: vk::ImageSubresourceRange,
    ) -> ViewedImage {
        // SAFETY: a valid create info on this live device.
        let image = unsafe { self.device.create_image(info, None) }.expect("vkCreateImage");
        let memory = self.bind_image_memory(image);
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_type)
            .format(info.format)
            .subresource_range(range);
        // SAFETY: a view of a live image bound to memory.
        let view =
            unsafe { self.device.create_image_view(&view_info, None) }.expect("vkCreateImageView");
        ViewedImage { image, memory, view }
    }

    /// An optimally tiled, single-sampled image usable as transfer source and destination,
    /// bound to fresh memory; both live as long as this `Gpu` (destroyed before the device).
    pub fn transfer_image(
        &self,
        ty: vk::ImageType,
        format: vk::Format,
        extent: vk::Extent3D,
        levels: u32,
        layers: u32,
    ) -> vk::Image {
        let info = vk::ImageCreateInfo::default()
            .image_type(ty)
            .format(format)
            .extent(extent)
            .mip_levels(levels)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
        // SAFETY: a valid create info on this live device.
        let image = unsafe { self.device.create_image(&info, None) }.expect("vkCreateImage");
        let memory = self.bind_image_memory(image);
        self.owned_images.lock().unwrap().push((image, memory));
        image
    }

    pub fn destroy_buffer(&self, b: HostBuffer) {
        // SAFETY: the GPU no longer uses the buffer (callers wait first).
        unsafe {
            self.device.destroy_buffer(b.buffer, None);
            self.device.free_memory(b.memory, None);
        }
    }

    /// Allocates command buffers of `level` from the pool.
    pub fn command_buffers(&self, level: vk::CommandBufferLevel, n: u32) -> Vec<vk::CommandBuffer> {
        let info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(level)
            .command_buffer_count(n);
        // SAFETY: a valid allocate info on a live pool.
        unsafe { self.device.allocate_command_buffers(&info) }.expect("vkAllocateCommandBuffers")
    }

    /// Records a one-time-submit primary command buffer.
    pub fn record(&self, f: impl FnOnce(&Device, vk::CommandBuffer)) -> vk::CommandBuffer {
        let cb = self.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: a fresh command buffer of this device.
        unsafe {
            self.device.begin_command_buffer(cb, &begin).expect("vkBeginCommandBuffer");
            f(&self.device, cb);
            self.device.end_command_buffer(cb).expect("vkEndCommandBuffer");
        }
        cb
    }

    /// Submits with a fence and waits for it.
    pub fn submit_wait(&self, cbs: &[vk::CommandBuffer]) {
        // SAFETY: executable command buffers of this device; the fence is waited for and
        // destroyed here.
        unsafe {
            let fence = self.device.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
            let submit = vk::SubmitInfo::default().command_buffers(cbs);
            self.device.queue_submit(self.queue, &[submit], fence).expect("vkQueueSubmit");
            self.device.wait_for_fences(&[fence], true, u64::MAX).expect("vkWaitForFences");
            self.device.destroy_fence(fence, None);
        }
    }

    /// Records, submits and waits, then frees the command buffer.
    pub fn run(&self, f: impl FnOnce(&Device, vk::CommandBuffer)) {
        let cb = self.record(f);
        self.submit_wait(&[cb]);
        // SAFETY: the command buffer finished executing.
        unsafe { self.device.free_command_buffers(self.pool, &[cb]) };
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: children before the device; the device is idle after the wait.
        unsafe {
            let _ = self.device.device_wait_idle();
            for (image, memory) in self.owned_images.get_mut().unwrap().drain(..) {
                self.device.destroy_image(image, None);
                self.device.free_memory(memory, None);
            }
            self.device.destroy_command_pool(self.pool, None);
            let _loader = crate::loader_lock();
            self.device.destroy_device(None);
        }
    }
}

/// A global memory barrier: `access.0` of `stages.0` before `access.1` of `stages.1`.
pub fn memory_barrier(
    device: &Device,
    cb: vk::CommandBuffer,
    stages: (vk::PipelineStageFlags, vk::PipelineStageFlags),
    access: (vk::AccessFlags, vk::AccessFlags),
) {
    let barrier = vk::MemoryBarrier::default().src_access_mask(access.0).dst_access_mask(access.1);
    let none = vk::DependencyFlags::empty();
    // SAFETY: a command buffer in the recording state.
    unsafe { device.cmd_pipeline_barrier(cb, stages.0, stages.1, none, &[barrier], &[], &[]) };
}

/// A memory barrier from transfer writes to host reads (what an application needs before
/// mapping results).
pub fn transfer_to_host(device: &Device, cb: vk::CommandBuffer) {
    let stages = (vk::PipelineStageFlags::TRANSFER, vk::PipelineStageFlags::HOST);
    memory_barrier(
        device,
        cb,
        stages,
        (vk::AccessFlags::TRANSFER_WRITE, vk::AccessFlags::HOST_READ),
    );
}

/// A transfer-to-transfer barrier (write after write / read after write between copies).
pub fn transfer_to_transfer(device: &Device, cb: vk::CommandBuffer) {
    let transfer = vk::PipelineStageFlags::TRANSFER;
    let access = (
        vk::AccessFlags::TRANSFER_WRITE,
        vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
    );
    memory_barrier(device, cb, (transfer, transfer), access);
}

/// Moves `range` of each of `images` from layout `old` to `new`, after earlier transfer
/// writes and before later transfer reads and writes (the transition between the steps of a
/// copy, blit or clear test).
pub fn transfer_transition(
    device: &Device,
    cb: vk::CommandBuffer,
    images: &[vk::Image],
    range: vk::ImageSubresourceRange,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
) {
    let barriers: Vec<_> = images
        .iter()
        .map(|&image| {
            vk::ImageMemoryBarrier::default()
                .old_layout(old)
                .new_layout(new)
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(range)
        })
        .collect();
    // SAFETY: a command buffer in the recording state; live images of its device.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &barriers,
        );
    }
}
