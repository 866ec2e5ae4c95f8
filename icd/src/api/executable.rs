//! `VK_KHR_pipeline_executable_properties`: the compiler's statistics and ISA text for each
//! pipeline (a compute pipeline has one executable, a graphics pipeline two: vertex, fragment).

use ash::vk;

use super::out::write_with;
use super::{obj, reference};
use crate::entry::guard_status;
use crate::error::VkError;
use crate::pipeline::Pipeline;
use ferrum_compiler::amd;

/// Copies `s` into a fixed-size, NUL-terminated C string field.
fn put_str<const N: usize>(dst: &mut [std::ffi::c_char; N], s: &str) {
    dst.fill(0);
    for (d, &b) in dst.iter_mut().zip(s.as_bytes().iter().take(N - 1)) {
        *d = b as std::ffi::c_char;
    }
}

/// The pipeline an executable info names, checking the executable index.
///
/// # Safety
/// `info` must name a live pipeline.
unsafe fn executable<'a>(
    info: &vk::PipelineExecutableInfoKHR<'_>,
) -> Result<(&'a amd::Stats, &'a str), VkError> {
    // SAFETY: forwarded to the caller.
    let p = unsafe { obj::<Pipeline>(info.pipeline)? };
    // VUID-VkPipelineExecutableInfoKHR-executableIndex-03275: "executableIndex must be less
    // than the number of pipeline executables associated with pipeline".
    p.executables()
        .get(info.executable_index as usize)
        .map(|e| (e.1, e.2))
        .ok_or(VkError::InvalidUsage("executableIndex out of range"))
}

pub unsafe extern "system" fn get_pipeline_executable_properties(
    _device: vk::Device,
    p_info: *const vk::PipelineInfoKHR<'_>,
    p_count: *mut u32,
    p_props: *mut vk::PipelineExecutablePropertiesKHR<'_>,
) -> vk::Result {
    guard_status("vkGetPipelineExecutablePropertiesKHR", || {
        // SAFETY: a valid info naming a live pipeline.
        let info = unsafe { reference(p_info)? };
        // SAFETY: as above.
        let stages: Vec<_> =
            unsafe { obj::<Pipeline>(info.pipeline)? }.executables().iter().map(|e| e.0).collect();
        // SAFETY: the application passes a count pointer and room for `*p_count` structures.
        unsafe {
            write_with(p_count, p_props, stages.len(), |p, i| {
                let (name, desc) = match stages[i] {
                    vk::ShaderStageFlags::VERTEX => {
                        ("vertex", "Vertex shader (hardware VS), RDNA2 wave32")
                    }
                    vk::ShaderStageFlags::FRAGMENT => ("fragment", "Pixel shader, RDNA2 wave32"),
                    _ => ("compute", "Compute shader, RDNA2 wave32"),
                };
                p.stages = stages[i];
                put_str(&mut p.name, name);
                put_str(&mut p.description, desc);
                p.subgroup_size = 32;
            })
        }
    })
}

pub unsafe extern "system" fn get_pipeline_executable_statistics(
    _device: vk::Device,
    p_info: *const vk::PipelineExecutableInfoKHR<'_>,
    p_count: *mut u32,
    p_stats: *mut vk::PipelineExecutableStatisticKHR<'_>,
) -> vk::Result {
    guard_status("vkGetPipelineExecutableStatisticsKHR", || {
        // SAFETY: a valid info naming a live pipeline.
        let p = unsafe { executable(reference(p_info)?)? };
        let s = p.0;
        let u = |v: u32| vk::PipelineExecutableStatisticValueKHR { u64: u64::from(v) };
        let rows = [
            ("Instructions", "Machine instructions in the program", u(s.instructions)),
            ("Code size", "Bytes of machine code", u(s.code_size)),
            ("VGPRs", "Vector registers per lane", u(s.vgprs)),
            ("SGPRs", "Scalar registers per wave", u(s.sgprs)),
            ("Spilled VGPRs", "Vector registers spilled to memory", u(s.spilled_vgprs)),
            ("Spilled SGPRs", "Scalar registers spilled", u(s.spilled_sgprs)),
            ("LDS size", "Bytes of workgroup-shared memory", u(s.lds_size)),
            ("Scratch size", "Bytes of scratch memory per lane", u(s.scratch_size)),
            (
                "Compile time",
                "Milliseconds spent in the backend",
                vk::PipelineExecutableStatisticValueKHR { f64: s.compile_ms },
            ),
        ];
        // SAFETY: the application passes a count pointer and room for `*p_count` structures.
        unsafe {
            write_with(p_count, p_stats, rows.len(), |out, i| {
                let (name, desc, value) = rows[i];
                put_str(&mut out.name, name);
                put_str(&mut out.description, desc);
                out.format = if name == "Compile time" {
                    vk::PipelineExecutableStatisticFormatKHR::FLOAT64
                } else {
                    vk::PipelineExecutableStatisticFormatKHR::UINT64
                };
                out.value = value;
            })
        }
    })
}

pub unsafe extern "system" fn get_pipeline_executable_internal_representations(
    _device: vk::Device,
    p_info: *const vk::PipelineExecutableInfoKHR<'_>,
    p_count: *mut u32,
    p_reprs: *mut vk::PipelineExecutableInternalRepresentationKHR<'_>,
) -> vk::Result {
    guard_status("vkGetPipelineExecutableInternalRepresentationsKHR", || {
        // SAFETY: a valid info naming a live pipeline.
        let p = unsafe { executable(reference(p_info)?)? };
        let mut text = p.1.to_string().into_bytes();
        text.push(0);
        let mut truncated = false;
        // SAFETY: the application passes a count pointer and room for `*p_count` structures.
        let status = unsafe {
            write_with(p_count, p_reprs, 1, |r, _| {
                put_str(&mut r.name, "ISA");
                put_str(&mut r.description, "RDNA2 machine code in LLVM assembler syntax");
                r.is_text = vk::TRUE;
                if r.p_data.is_null() {
                    r.data_size = text.len();
                    return;
                }
                // "If pData is not NULL ... at most dataSize bytes will be written and
                // VK_INCOMPLETE returned"; text stays NUL-terminated.
                let n = r.data_size.min(text.len());
                if n > 0 {
                    let mut part = text[..n].to_vec();
                    part[n - 1] = 0;
                    // The application provides `data_size >= n` writable bytes (inside the
                    // unsafe block around `write_with`).
                    std::ptr::copy_nonoverlapping(part.as_ptr(), r.p_data.cast(), n);
                }
                truncated = n < text.len();
                r.data_size = n;
            })?
        };
        Ok(if truncated { vk::Result::INCOMPLETE } else { status })
    })
}
