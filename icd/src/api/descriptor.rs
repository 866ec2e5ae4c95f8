//! Descriptor set layout, pool, set and update commands.

use ash::vk;

use super::{array, obj, output, reference};
use crate::core::device::Device;
use crate::core::host_memory::HostMemory;
use crate::core::object::VkObject;
use crate::descriptor::{
    update, DescriptorPool, DescriptorSet, DescriptorSetLayout, DescriptorUpdateTemplate,
};
use crate::entry::{guard, guard_value, guard_void};
use crate::error::VkError;

pub unsafe extern "system" fn create_descriptor_set_layout(
    device: vk::Device,
    p_create_info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_layout: *mut vk::DescriptorSetLayout,
) -> vk::Result {
    guard("vkCreateDescriptorSetLayout", || {
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let layout = DescriptorSetLayout::new(info)?;
        // SAFETY: a live device and null or valid callbacks.
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_layout)? } = layout.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_descriptor_set_layout(
    _device: vk::Device,
    layout: vk::DescriptorSetLayout,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyDescriptorSetLayout", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { DescriptorSetLayout::take_handle(layout) });
    })
}

pub unsafe extern "system" fn create_descriptor_pool(
    device: vk::Device,
    p_create_info: *const vk::DescriptorPoolCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::DescriptorPool,
) -> vk::Result {
    guard("vkCreateDescriptorPool", || {
        // SAFETY: a live device and a valid create info.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let pool = DescriptorPool::new(&device.shared, info)?;
        // SAFETY: null or valid callbacks (valid usage).
        let host = unsafe { HostMemory::from_ptr(p_allocator, device.base().host()) };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_pool)? } = pool.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_descriptor_pool(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyDescriptorPool", (), || {
        // SAFETY: a null or live handle, not used afterwards; its sets go with it.
        drop(unsafe { DescriptorPool::take_handle(pool) });
    })
}

pub unsafe extern "system" fn reset_descriptor_pool(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    _flags: vk::DescriptorPoolResetFlags,
) -> vk::Result {
    guard("vkResetDescriptorPool", || {
        // SAFETY: a live handle.
        unsafe { obj::<DescriptorPool>(pool)? }.reset();
        Ok(())
    })
}

pub unsafe extern "system" fn allocate_descriptor_sets(
    _device: vk::Device,
    p_info: *const vk::DescriptorSetAllocateInfo<'_>,
    p_sets: *mut vk::DescriptorSet,
) -> vk::Result {
    guard("vkAllocateDescriptorSets", || {
        // SAFETY: a valid allocate info naming a live pool and live layouts.
        let info = unsafe { reference(p_info)? };
        // SAFETY: as above.
        let pool = unsafe { obj::<DescriptorPool>(info.descriptor_pool)? };
        if p_sets.is_null() {
            return Err(VkError::InvalidUsage("null pDescriptorSets"));
        }
        let layouts = array(info.p_set_layouts, info.descriptor_set_count);
        let mut done = Vec::with_capacity(layouts.len());
        for &l in layouts {
            // SAFETY: a live set layout (valid usage).
            let layout = unsafe { obj::<DescriptorSetLayout>(l)? };
            match pool.allocate(&layout.layout) {
                Ok(set) => done.push(set),
                Err(e) => {
                    // "If the creation of any of those descriptor sets fails, then the
                    // implementation must destroy all successfully created descriptor set
                    // objects from this command, set all entries of the pDescriptorSets array
                    // to VK_NULL_HANDLE and return the error."
                    done.iter().for_each(|&s| pool.free(s));
                    for i in 0..layouts.len() {
                        // SAFETY: room for `descriptorSetCount` handles.
                        unsafe { p_sets.add(i).write(vk::DescriptorSet::null()) };
                    }
                    return Err(e);
                }
            }
        }
        // SAFETY: the application passes room for `descriptorSetCount` handles.
        unsafe { std::ptr::copy_nonoverlapping(done.as_ptr(), p_sets, done.len()) };
        Ok(())
    })
}

pub unsafe extern "system" fn free_descriptor_sets(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    count: u32,
    p_sets: *const vk::DescriptorSet,
) -> vk::Result {
    guard("vkFreeDescriptorSets", || {
        // SAFETY: a live pool.
        let pool = unsafe { obj::<DescriptorPool>(pool)? };
        // VUID-vkFreeDescriptorSets-descriptorPool-00312: "descriptorPool must have been
        // created with the VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT flag".
        if !pool.flags.contains(vk::DescriptorPoolCreateFlags::FREE_DESCRIPTOR_SET) {
            return Err(VkError::InvalidUsage("pool without FREE_DESCRIPTOR_SET"));
        }
        array(p_sets, count).iter().filter(|s| **s != vk::DescriptorSet::null()).for_each(|&s| {
            pool.free(s);
        });
        Ok(())
    })
}

pub unsafe extern "system" fn update_descriptor_sets(
    _device: vk::Device,
    write_count: u32,
    p_writes: *const vk::WriteDescriptorSet<'_>,
    copy_count: u32,
    p_copies: *const vk::CopyDescriptorSet<'_>,
) {
    guard_void("vkUpdateDescriptorSets", || {
        for w in array(p_writes, write_count) {
            // SAFETY: a live set (valid usage).
            update::write(unsafe { obj::<DescriptorSet>(w.dst_set)? }, w)?;
        }
        for c in array(p_copies, copy_count) {
            // SAFETY: live sets (valid usage).
            let (src, dst) =
                unsafe { (obj::<DescriptorSet>(c.src_set)?, obj::<DescriptorSet>(c.dst_set)?) };
            update::copy(src, dst, c)?;
        }
        Ok(())
    })
}

pub unsafe extern "system" fn create_descriptor_update_template(
    device: vk::Device,
    p_create_info: *const vk::DescriptorUpdateTemplateCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_template: *mut vk::DescriptorUpdateTemplate,
) -> vk::Result {
    guard("vkCreateDescriptorUpdateTemplate", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: the application passes a valid input structure.
        let template = DescriptorUpdateTemplate::new(unsafe { reference(p_create_info)? })?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_template)? } = template.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_descriptor_update_template(
    _device: vk::Device,
    template: vk::DescriptorUpdateTemplate,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyDescriptorUpdateTemplate", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { DescriptorUpdateTemplate::take_handle(template) });
    })
}

pub unsafe extern "system" fn update_descriptor_set_with_template(
    _device: vk::Device,
    set: vk::DescriptorSet,
    template: vk::DescriptorUpdateTemplate,
    p_data: *const std::ffi::c_void,
) {
    guard_void("vkUpdateDescriptorSetWithTemplate", || {
        // SAFETY: live handles (valid usage).
        let (set, template) =
            unsafe { (obj::<DescriptorSet>(set)?, obj::<DescriptorUpdateTemplate>(template)?) };
        // SAFETY: pData holds what the template's entries describe (valid usage).
        unsafe { template.update(set, p_data) }
    })
}

/// `vkGetDescriptorSetLayoutSupport` (VK_KHR_maintenance3): a layout is supported exactly
/// when `vkCreateDescriptorSetLayout` would create it.
pub unsafe extern "system" fn get_descriptor_set_layout_support(
    _device: vk::Device,
    p_create_info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    p_support: *mut vk::DescriptorSetLayoutSupport<'_>,
) {
    guard_void("vkGetDescriptorSetLayoutSupport", || {
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let supported = DescriptorSetLayout::new(info).is_ok();
        // SAFETY: the application passes a writable output structure.
        unsafe { output(p_support)? }.supported = supported.into();
        Ok(())
    })
}
