//! Checks every struct size, field offset, ioctl number and constant in `uapi` against the
//! system's `drm.h` / `amdgpu_drm.h` (libdrm-dev), by compiling and running a C program.

use core::mem::{offset_of, size_of};
use std::collections::HashMap;
use std::process::Command;

use ferrum_winsys::uapi::*;

/// One fact: a C expression and the value our Rust definition gives for it.
struct Check {
    c_expr: String,
    rust: u64,
}

macro_rules! layout {
    ($checks:ident, $cty:literal, $rty:ty { $($cf:literal => $($rf:ident).+),* $(,)? }) => {
        $checks.push(Check { c_expr: format!("sizeof({})", $cty), rust: size_of::<$rty>() as u64 });
        $(
            $checks.push(Check {
                c_expr: format!("offsetof({}, {})", $cty, $cf),
                rust: offset_of!($rty, $($rf).+) as u64,
            });
        )*
    };
}

macro_rules! values {
    ($checks:ident, $($name:ident),* $(,)?) => {
        $( $checks.push(Check { c_expr: stringify!($name).to_string(), rust: $name as u64 }); )*
    };
}

fn drm_checks(c: &mut Vec<Check>) {
    layout!(c, "struct drm_version", DrmVersion {
        "version_major" => version_major, "version_minor" => version_minor,
        "version_patchlevel" => version_patchlevel, "name_len" => name_len, "name" => name,
        "date_len" => date_len, "date" => date, "desc_len" => desc_len, "desc" => desc,
    });
    layout!(c, "struct drm_get_cap", DrmGetCap { "capability" => capability, "value" => value });
    layout!(c, "struct drm_gem_close", DrmGemClose { "handle" => handle, "pad" => pad });
    layout!(c, "struct drm_prime_handle", DrmPrimeHandle {
        "handle" => handle, "flags" => flags, "fd" => fd,
    });
    layout!(c, "struct drm_syncobj_create", DrmSyncobjCreate { "handle" => handle, "flags" => flags });
    layout!(c, "struct drm_syncobj_destroy", DrmSyncobjDestroy { "handle" => handle, "pad" => pad });
    layout!(c, "struct drm_syncobj_handle", DrmSyncobjHandle {
        "handle" => handle, "flags" => flags, "fd" => fd, "pad" => pad,
    });
    layout!(c, "struct drm_syncobj_transfer", DrmSyncobjTransfer {
        "src_handle" => src_handle, "dst_handle" => dst_handle, "src_point" => src_point,
        "dst_point" => dst_point, "flags" => flags, "pad" => pad,
    });
    layout!(c, "struct drm_syncobj_wait", DrmSyncobjWait {
        "handles" => handles, "timeout_nsec" => timeout_nsec, "count_handles" => count_handles,
        "flags" => flags, "first_signaled" => first_signaled, "pad" => pad,
    });
    layout!(c, "struct drm_syncobj_timeline_wait", DrmSyncobjTimelineWait {
        "handles" => handles, "points" => points, "timeout_nsec" => timeout_nsec,
        "count_handles" => count_handles, "flags" => flags, "first_signaled" => first_signaled,
        "pad" => pad,
    });
    layout!(c, "struct drm_syncobj_array", DrmSyncobjArray {
        "handles" => handles, "count_handles" => count_handles, "pad" => pad,
    });
    layout!(c, "struct drm_syncobj_timeline_array", DrmSyncobjTimelineArray {
        "handles" => handles, "points" => points, "count_handles" => count_handles,
        "flags" => flags,
    });
    values!(
        c,
        DRM_IOCTL_VERSION,
        DRM_IOCTL_GEM_CLOSE,
        DRM_IOCTL_GET_CAP,
        DRM_IOCTL_PRIME_HANDLE_TO_FD,
        DRM_IOCTL_PRIME_FD_TO_HANDLE,
        DRM_IOCTL_SYNCOBJ_CREATE,
        DRM_IOCTL_SYNCOBJ_DESTROY,
        DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
        DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
        DRM_IOCTL_SYNCOBJ_WAIT,
        DRM_IOCTL_SYNCOBJ_RESET,
        DRM_IOCTL_SYNCOBJ_SIGNAL,
        DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
        DRM_IOCTL_SYNCOBJ_QUERY,
        DRM_IOCTL_SYNCOBJ_TRANSFER,
        DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
        DRM_CAP_SYNCOBJ,
        DRM_CAP_SYNCOBJ_TIMELINE,
        DRM_CLOEXEC,
        DRM_RDWR,
        DRM_SYNCOBJ_CREATE_SIGNALED,
        DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
        DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
        DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED,
        DRM_COMMAND_BASE
    );
}

fn amdgpu_gem_checks(c: &mut Vec<Check>) {
    layout!(c, "union drm_amdgpu_gem_create", DrmAmdgpuGemCreate {
        "in.bo_size" => in_.bo_size, "in.alignment" => in_.alignment,
        "in.domains" => in_.domains, "in.domain_flags" => in_.domain_flags,
        "out.handle" => out.handle, "out._pad" => out._pad,
    });
    layout!(c, "union drm_amdgpu_gem_mmap", DrmAmdgpuGemMmap {
        "in.handle" => in_.handle, "in._pad" => in_._pad, "out.addr_ptr" => out.addr_ptr,
    });
    layout!(c, "union drm_amdgpu_gem_wait_idle", DrmAmdgpuGemWaitIdle {
        "in.handle" => in_.handle, "in.flags" => in_.flags, "in.timeout" => in_.timeout,
        "out.status" => out.status, "out.domain" => out.domain,
    });
    layout!(c, "struct drm_amdgpu_gem_va", DrmAmdgpuGemVa {
        "handle" => handle, "_pad" => _pad, "operation" => operation, "flags" => flags,
        "va_address" => va_address, "offset_in_bo" => offset_in_bo, "map_size" => map_size,
    });
    layout!(c, "struct drm_amdgpu_gem_op", DrmAmdgpuGemOp {
        "handle" => handle, "op" => op, "value" => value,
    });
    layout!(c, "union drm_amdgpu_ctx", DrmAmdgpuCtx {
        "in.op" => in_.op, "in.flags" => in_.flags, "in.ctx_id" => in_.ctx_id,
        "in.priority" => in_.priority, "out.alloc.ctx_id" => out.alloc.ctx_id,
        "out.state.flags" => out.state.flags, "out.state.hangs" => out.state.hangs,
        "out.state.reset_status" => out.state.reset_status, "out.pstate.flags" => out.pstate.flags,
    });
    layout!(c, "struct drm_amdgpu_bo_list_in", DrmAmdgpuBoListIn {
        "operation" => operation, "list_handle" => list_handle, "bo_number" => bo_number,
        "bo_info_size" => bo_info_size, "bo_info_ptr" => bo_info_ptr,
    });
    layout!(c, "struct drm_amdgpu_bo_list_entry", DrmAmdgpuBoListEntry {
        "bo_handle" => bo_handle, "bo_priority" => bo_priority,
    });
}

fn amdgpu_cs_checks(c: &mut Vec<Check>) {
    layout!(c, "struct drm_amdgpu_cs_chunk", DrmAmdgpuCsChunk {
        "chunk_id" => chunk_id, "length_dw" => length_dw, "chunk_data" => chunk_data,
    });
    layout!(c, "union drm_amdgpu_cs", DrmAmdgpuCs {
        "in.ctx_id" => in_.ctx_id, "in.bo_list_handle" => in_.bo_list_handle,
        "in.num_chunks" => in_.num_chunks, "in.flags" => in_.flags, "in.chunks" => in_.chunks,
        "out.handle" => out.handle,
    });
    layout!(c, "struct drm_amdgpu_cs_chunk_ib", DrmAmdgpuCsChunkIb {
        "_pad" => _pad, "flags" => flags, "va_start" => va_start, "ib_bytes" => ib_bytes,
        "ip_type" => ip_type, "ip_instance" => ip_instance, "ring" => ring,
    });
    layout!(c, "struct drm_amdgpu_cs_chunk_dep", DrmAmdgpuCsChunkDep {
        "ip_type" => ip_type, "ip_instance" => ip_instance, "ring" => ring, "ctx_id" => ctx_id,
        "handle" => handle,
    });
    layout!(c, "struct drm_amdgpu_cs_chunk_fence", DrmAmdgpuCsChunkFence {
        "handle" => handle, "offset" => offset,
    });
    layout!(c, "struct drm_amdgpu_cs_chunk_sem", DrmAmdgpuCsChunkSem { "handle" => handle });
    layout!(c, "struct drm_amdgpu_cs_chunk_syncobj", DrmAmdgpuCsChunkSyncobj {
        "handle" => handle, "flags" => flags, "point" => point,
    });
    layout!(c, "union drm_amdgpu_wait_cs", DrmAmdgpuWaitCs {
        "in.handle" => in_.handle, "in.timeout" => in_.timeout, "in.ip_type" => in_.ip_type,
        "in.ip_instance" => in_.ip_instance, "in.ring" => in_.ring, "in.ctx_id" => in_.ctx_id,
        "out.status" => out.status,
    });
    layout!(c, "struct drm_amdgpu_fence", DrmAmdgpuFence {
        "ctx_id" => ctx_id, "ip_type" => ip_type, "ip_instance" => ip_instance, "ring" => ring,
        "seq_no" => seq_no,
    });
    layout!(c, "union drm_amdgpu_wait_fences", DrmAmdgpuWaitFences {
        "in.fences" => in_.fences, "in.fence_count" => in_.fence_count,
        "in.wait_all" => in_.wait_all, "in.timeout_ns" => in_.timeout_ns,
        "out.status" => out.status, "out.first_signaled" => out.first_signaled,
    });
}

fn amdgpu_info_checks(c: &mut Vec<Check>) {
    layout!(c, "struct drm_amdgpu_info", DrmAmdgpuInfo {
        "return_pointer" => return_pointer, "return_size" => return_size, "query" => query,
        "query_hw_ip.type" => args.query_hw_ip.type_,
        "query_hw_ip.ip_instance" => args.query_hw_ip.ip_instance,
        "read_mmr_reg.dword_offset" => args.read_mmr_reg.dword_offset,
        "read_mmr_reg.count" => args.read_mmr_reg.count,
        "read_mmr_reg.instance" => args.read_mmr_reg.instance,
        "read_mmr_reg.flags" => args.read_mmr_reg.flags,
        "query_fw.fw_type" => args.query_fw.fw_type,
        "query_fw.ip_instance" => args.query_fw.ip_instance,
        "query_fw.index" => args.query_fw.index,
    });
    layout!(c, "struct drm_amdgpu_query_fw", DrmAmdgpuQueryFw {
        "fw_type" => fw_type, "ip_instance" => ip_instance, "index" => index, "_pad" => _pad,
    });
    layout!(c, "struct drm_amdgpu_info_firmware", DrmAmdgpuInfoFirmware {
        "ver" => ver, "feature" => feature,
    });
    layout!(c, "struct drm_amdgpu_info_vram_gtt", DrmAmdgpuInfoVramGtt {
        "vram_size" => vram_size, "vram_cpu_accessible_size" => vram_cpu_accessible_size,
        "gtt_size" => gtt_size,
    });
    layout!(c, "struct drm_amdgpu_heap_info", DrmAmdgpuHeapInfo {
        "total_heap_size" => total_heap_size, "usable_heap_size" => usable_heap_size,
        "heap_usage" => heap_usage, "max_allocation" => max_allocation,
    });
    layout!(c, "struct drm_amdgpu_memory_info", DrmAmdgpuMemoryInfo {
        "vram" => vram, "cpu_accessible_vram" => cpu_accessible_vram, "gtt" => gtt,
    });
    layout!(c, "struct drm_amdgpu_info_hw_ip", DrmAmdgpuInfoHwIp {
        "hw_ip_version_major" => hw_ip_version_major, "hw_ip_version_minor" => hw_ip_version_minor,
        "capabilities_flags" => capabilities_flags, "ib_start_alignment" => ib_start_alignment,
        "ib_size_alignment" => ib_size_alignment, "available_rings" => available_rings,
        "_pad" => _pad,
    });
    layout!(c, "struct drm_amdgpu_info_device", DrmAmdgpuInfoDevice {
        "device_id" => device_id, "chip_rev" => chip_rev, "external_rev" => external_rev,
        "pci_rev" => pci_rev, "family" => family, "num_shader_engines" => num_shader_engines,
        "num_shader_arrays_per_engine" => num_shader_arrays_per_engine,
        "gpu_counter_freq" => gpu_counter_freq, "max_engine_clock" => max_engine_clock,
        "max_memory_clock" => max_memory_clock, "cu_active_number" => cu_active_number,
        "cu_ao_mask" => cu_ao_mask, "cu_bitmap" => cu_bitmap,
        "enabled_rb_pipes_mask" => enabled_rb_pipes_mask, "num_rb_pipes" => num_rb_pipes,
        "num_hw_gfx_contexts" => num_hw_gfx_contexts, "_pad" => _pad, "ids_flags" => ids_flags,
        "virtual_address_offset" => virtual_address_offset,
        "virtual_address_max" => virtual_address_max,
        "virtual_address_alignment" => virtual_address_alignment,
        "pte_fragment_size" => pte_fragment_size, "gart_page_size" => gart_page_size,
        "ce_ram_size" => ce_ram_size, "vram_type" => vram_type, "vram_bit_width" => vram_bit_width,
        "vce_harvest_config" => vce_harvest_config,
        "gc_double_offchip_lds_buf" => gc_double_offchip_lds_buf,
        "prim_buf_gpu_addr" => prim_buf_gpu_addr, "pos_buf_gpu_addr" => pos_buf_gpu_addr,
        "cntl_sb_buf_gpu_addr" => cntl_sb_buf_gpu_addr, "param_buf_gpu_addr" => param_buf_gpu_addr,
        "prim_buf_size" => prim_buf_size, "pos_buf_size" => pos_buf_size,
        "cntl_sb_buf_size" => cntl_sb_buf_size, "param_buf_size" => param_buf_size,
        "wave_front_size" => wave_front_size, "num_shader_visible_vgprs" => num_shader_visible_vgprs,
        "num_cu_per_sh" => num_cu_per_sh, "num_tcc_blocks" => num_tcc_blocks,
        "gs_vgt_table_depth" => gs_vgt_table_depth, "gs_prim_buffer_depth" => gs_prim_buffer_depth,
        "max_gs_waves_per_vgt" => max_gs_waves_per_vgt, "_pad1" => _pad1,
        "cu_ao_bitmap" => cu_ao_bitmap, "high_va_offset" => high_va_offset,
        "high_va_max" => high_va_max,
        "pa_sc_tile_steering_override" => pa_sc_tile_steering_override,
        "tcc_disabled_mask" => tcc_disabled_mask,
    });
}

fn amdgpu_values(c: &mut Vec<Check>) {
    values!(
        c,
        DRM_IOCTL_AMDGPU_GEM_CREATE,
        DRM_IOCTL_AMDGPU_GEM_MMAP,
        DRM_IOCTL_AMDGPU_CTX,
        DRM_IOCTL_AMDGPU_BO_LIST,
        DRM_IOCTL_AMDGPU_CS,
        DRM_IOCTL_AMDGPU_INFO,
        DRM_IOCTL_AMDGPU_GEM_WAIT_IDLE,
        DRM_IOCTL_AMDGPU_GEM_VA,
        DRM_IOCTL_AMDGPU_WAIT_CS,
        DRM_IOCTL_AMDGPU_GEM_OP,
        DRM_IOCTL_AMDGPU_WAIT_FENCES,
        AMDGPU_CTX_OP_ALLOC_CTX,
        AMDGPU_CTX_OP_FREE_CTX,
        AMDGPU_CTX_OP_QUERY_STATE,
        AMDGPU_CTX_OP_QUERY_STATE2,
        AMDGPU_CTX_NO_RESET,
        AMDGPU_CTX_GUILTY_RESET,
        AMDGPU_CTX_INNOCENT_RESET,
        AMDGPU_CTX_UNKNOWN_RESET,
        AMDGPU_CTX_QUERY2_FLAGS_RESET,
        AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST,
        AMDGPU_CTX_QUERY2_FLAGS_GUILTY,
        AMDGPU_CHUNK_ID_IB,
        AMDGPU_CHUNK_ID_FENCE,
        AMDGPU_CHUNK_ID_DEPENDENCIES,
        AMDGPU_CHUNK_ID_SYNCOBJ_IN,
        AMDGPU_CHUNK_ID_SYNCOBJ_OUT,
        AMDGPU_CHUNK_ID_BO_HANDLES,
        AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES,
        AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT,
        AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL,
        AMDGPU_IB_FLAG_CE,
        AMDGPU_IB_FLAG_PREAMBLE,
        AMDGPU_IB_FLAG_PREEMPT,
        AMDGPU_IB_FLAG_TC_WB_NOT_INVALIDATE,
        AMDGPU_IB_FLAG_EMIT_MEM_SYNC,
        AMDGPU_HW_IP_GFX,
        AMDGPU_HW_IP_COMPUTE,
        AMDGPU_HW_IP_DMA,
        AMDGPU_HW_IP_NUM,
        AMDGPU_VA_OP_MAP,
        AMDGPU_VA_OP_UNMAP,
        AMDGPU_VA_OP_CLEAR,
        AMDGPU_VA_OP_REPLACE,
        AMDGPU_VM_DELAY_UPDATE,
        AMDGPU_VM_PAGE_READABLE,
        AMDGPU_VM_PAGE_WRITEABLE,
        AMDGPU_VM_PAGE_EXECUTABLE,
        AMDGPU_VM_PAGE_PRT,
        AMDGPU_VM_MTYPE_MASK,
        AMDGPU_VM_MTYPE_DEFAULT,
        AMDGPU_VM_MTYPE_NC,
        AMDGPU_VM_MTYPE_WC,
        AMDGPU_VM_MTYPE_CC,
        AMDGPU_VM_MTYPE_UC,
        AMDGPU_VM_MTYPE_RW,
        AMDGPU_GEM_DOMAIN_CPU,
        AMDGPU_GEM_DOMAIN_GTT,
        AMDGPU_GEM_DOMAIN_VRAM,
        AMDGPU_GEM_DOMAIN_GDS,
        AMDGPU_GEM_DOMAIN_GWS,
        AMDGPU_GEM_DOMAIN_OA,
        AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED,
        AMDGPU_GEM_CREATE_NO_CPU_ACCESS,
        AMDGPU_GEM_CREATE_CPU_GTT_USWC,
        AMDGPU_GEM_CREATE_VRAM_CLEARED,
        AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS,
        AMDGPU_GEM_CREATE_VM_ALWAYS_VALID,
        AMDGPU_GEM_CREATE_EXPLICIT_SYNC,
        AMDGPU_INFO_ACCEL_WORKING,
        AMDGPU_INFO_HW_IP_INFO,
        AMDGPU_INFO_HW_IP_COUNT,
        AMDGPU_INFO_TIMESTAMP,
        AMDGPU_INFO_FW_VERSION,
        AMDGPU_INFO_VRAM_USAGE,
        AMDGPU_INFO_GTT_USAGE,
        AMDGPU_INFO_VRAM_GTT,
        AMDGPU_INFO_READ_MMR_REG,
        AMDGPU_INFO_DEV_INFO,
        AMDGPU_INFO_VIS_VRAM_USAGE,
        AMDGPU_INFO_MEMORY,
        AMDGPU_INFO_VRAM_LOST_COUNTER,
        AMDGPU_INFO_FW_GFX_ME,
        AMDGPU_INFO_FW_GFX_PFP,
        AMDGPU_INFO_FW_GFX_CE,
        AMDGPU_INFO_FW_GFX_RLC,
        AMDGPU_INFO_FW_GFX_MEC,
        AMDGPU_INFO_FW_SDMA,
        AMDGPU_IDS_FLAGS_FUSION,
        AMDGPU_IDS_FLAGS_PREEMPTION,
        AMDGPU_IDS_FLAGS_TMZ,
        AMDGPU_VRAM_TYPE_GDDR6,
        AMDGPU_CTX_PRIORITY_NORMAL
    );
    // Negative constants are compared through their i64 value.
    for (name, v) in [
        ("AMDGPU_CTX_PRIORITY_UNSET", AMDGPU_CTX_PRIORITY_UNSET),
        ("AMDGPU_CTX_PRIORITY_VERY_LOW", AMDGPU_CTX_PRIORITY_VERY_LOW),
        ("AMDGPU_CTX_PRIORITY_LOW", AMDGPU_CTX_PRIORITY_LOW),
        ("AMDGPU_CTX_PRIORITY_HIGH", AMDGPU_CTX_PRIORITY_HIGH),
        ("AMDGPU_CTX_PRIORITY_VERY_HIGH", AMDGPU_CTX_PRIORITY_VERY_HIGH),
    ] {
        c.push(Check { c_expr: format!("(long long)({name}) + 4096"), rust: (v + 4096) as u64 });
    }
}

#[test]
fn uapi_matches_system_headers() {
    let mut checks = Vec::new();
    drm_checks(&mut checks);
    amdgpu_gem_checks(&mut checks);
    amdgpu_cs_checks(&mut checks);
    amdgpu_info_checks(&mut checks);
    amdgpu_values(&mut checks);
    assert!(checks.len() > 300, "{} checks", checks.len());

    let mut src = String::from(
        "#include <stddef.h>\n#include <stdio.h>\n#include <fcntl.h>\n\
         #include <drm.h>\n#include <amdgpu_drm.h>\nint main(void) {\n",
    );
    for (i, check) in checks.iter().enumerate() {
        src += &format!("  printf(\"{i} %llu\\n\", (unsigned long long)({}));\n", check.c_expr);
    }
    src += "  return 0;\n}\n";

    let dir = std::env::temp_dir().join(format!("ferrum-uapi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c_file = dir.join("layout.c");
    let exe = dir.join("layout");
    std::fs::write(&c_file, src).unwrap();
    let cc = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=gnu11", "-I/usr/include/libdrm", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .output()
        .expect("a C compiler (cc) is installed");
    assert!(cc.status.success(), "cc failed:\n{}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let c_values: HashMap<usize, u64> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (i, v) = l.split_once(' ').unwrap();
            (i.parse().unwrap(), v.parse().unwrap())
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();

    let mismatches: Vec<String> = checks
        .iter()
        .enumerate()
        .filter(|(i, c)| c_values[i] != c.rust)
        .map(|(i, c)| format!("{}: C {:#x}, Rust {:#x}", c.c_expr, c_values[&i], c.rust))
        .collect();
    assert!(mismatches.is_empty(), "UAPI mismatches:\n{}", mismatches.join("\n"));
}
