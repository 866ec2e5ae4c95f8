//! The compiler's corpus (GLSL and SPIR-V assembly, plus `tests/corpus`, shaders for driver
//! features the compiler's corpus does not exercise) as real Vulkan compute pipelines,
//! differential against lavapipe: each shader runs with the inputs its `//!` (or `;!`)
//! directives describe (the same ones the compiler's interpreter tests use) on both drivers,
//! validation on, and every buffer must come back byte-identical.
//!
//! Both devices run with the features listed at `corpus_device` (64-bit, 16-bit, 8-bit and
//! float16 types, 8/16-bit storage, 64-bit buffer atomics, scalar block layout, buffer device
//! addresses, storage-buffer variable pointers). Memory the corpus reaches only by address
//! (`global`) is a buffer with a device address, patched into push constants, buffers and
//! globals as the address directives say; address slots are compared relative to the global
//! they point into, since the two drivers place memory differently. Shaders that need anything
//! else (other capabilities or SPIR-V extensions) or whose result Vulkan 1.0 leaves undefined
//! (non-uniform descriptor indexing) are skipped and listed; a shader Ferrum's compiler cannot
//! compile yet fails pipeline creation cleanly and is listed too. The test fails on any byte
//! difference, and if fewer shaders run than did when it was written.
//!
//! Exceptions, each narrow and checked another way:
//! - Shaders built on GLSL.std.450 functions that Vulkan lets implementations approximate
//!   (exp2, inversesqrt, length, normalize ...) compare as f32 within a stated ULP bound, because
//!   two correct drivers need not agree to the bit there ("Precision and Operation of SPIR-V
//!   Instructions" in the Vulkan spec).
//! - Where this Debian's lavapipe is known to be wrong, those bytes are checked against the
//!   value the GLSL specification's formula gives instead.
//! - Results SPIR-V leaves undefined (integer division by zero, INT64_MIN / -1) are not
//!   compared; the compiler's tests pin them against the IR interpreter.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ash_loaded::vk;
use ferrum_tests::gpu::{Gpu, HostBuffer};
use ferrum_tests::shaders::{compute_spirv, spvasm_for_vulkan_1_0};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// A buffer the directives declare.
struct BufSpec {
    set: u32,
    binding: u32,
    index: u32,
    data: Vec<u8>,
}

/// Which bytes an address directive patches.
#[derive(Clone, Copy)]
enum SlotIn {
    Push,
    Buf(u32, u32),
    Global(usize),
}

/// Eight bytes at `offset` of `target` receive the device address of global `global`.
#[derive(Clone, Copy)]
struct AddrSlot {
    target: SlotIn,
    offset: usize,
    global: usize,
}

struct Case {
    name: String,
    words: Vec<u32>,
    groups: [u32; 3],
    bufs: Vec<BufSpec>,
    push: Vec<u8>,
    spec: Vec<(u32, u32)>,
    /// Contents of the buffers shaders reach only through device addresses (`global`).
    globals: Vec<Vec<u8>>,
    /// Where the address of a global goes before the run (`pushaddr`, `bufaddr`, `globaladdr`).
    addr_slots: Vec<AddrSlot>,
    /// (set, binding) → uniform (true) or storage (false), from the GLSL declarations.
    kinds: BTreeMap<(u32, u32), bool>,
}

/// Deterministic contents by name (the interpreter tests' patterns).
fn fill(init: &str, words: usize) -> Vec<u8> {
    let mut seed = 0x1234_5678u32;
    (0..words)
        .flat_map(|i| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let w = match init {
                "zero" => 0,
                "ramp" => i as u32,
                "framp" => (i as f32 * 0.5 + 1.0).to_bits(),
                "rand" => (seed >> 8) % 1000,
                "frand" => (((seed >> 8) % 64) as f32 / 8.0 - 4.0).to_bits(),
                "bytes" => u32::from_le_bytes([
                    (4 * i) as u8,
                    (4 * i + 1) as u8,
                    (4 * i + 2) as u8,
                    (4 * i + 3) as u8,
                ]),
                other => panic!("unknown init {other}"),
            };
            w.to_le_bytes()
        })
        .collect()
}

/// Uniform or storage for each `layout(... binding = N ...) uniform|buffer` declaration.
fn declared_kinds(src: &str) -> BTreeMap<(u32, u32), bool> {
    let mut out = BTreeMap::new();
    for line in src.lines() {
        let Some(start) = line.find("layout(") else { continue };
        let Some(close) = line[start..].find(')') else { continue };
        let args = &line[start + 7..start + close];
        let rest = &line[start + close + 1..];
        let num = |key: &str| {
            args.split(',').find_map(|a| {
                let (k, v) = a.split_once('=')?;
                (k.trim() == key).then(|| v.trim().parse::<u32>().ok()).flatten()
            })
        };
        let Some(binding) = num("binding") else { continue };
        let set = num("set").unwrap_or(0);
        let words: Vec<&str> = rest.split_whitespace().collect();
        if words.contains(&"uniform") {
            out.insert((set, binding), true);
        } else if words.contains(&"buffer") {
            out.insert((set, binding), false);
        }
    }
    out
}

/// SPIR-V capabilities the test enables on both devices (see `corpus_device`): Shader; Float64,
/// Int64 and Int16 through the core features; Float16 and Int8 through
/// VK_KHR_shader_float16_int8; StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess
/// and StoragePushConstant16 through VK_KHR_16bit_storage; StorageBuffer8BitAccess and
/// UniformAndStorageBuffer8BitAccess through VK_KHR_8bit_storage; Int64Atomics through
/// VK_KHR_shader_atomic_int64; PhysicalStorageBufferAddresses through
/// VK_KHR_buffer_device_address; VariablePointersStorageBuffer through VK_KHR_variable_pointers.
const ENABLED_CAPABILITIES: [u32; 14] =
    [1, 10, 11, 22, 9, 39, 4433, 4434, 4435, 4448, 4449, 12, 5347, 4441];

/// SPIR-V extensions the device extensions enabled in `corpus_device` allow.
const ENABLED_SPIRV_EXTENSIONS: [&str; 5] = [
    "SPV_KHR_variable_pointers",
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_physical_storage_buffer",
];

/// A device of `pd` with everything the capabilities above need enabled.
fn corpus_device(h: &Harness, pd: vk::PhysicalDevice, family: u32) -> Gpu {
    let extensions = [
        c"VK_KHR_storage_buffer_storage_class",
        c"VK_KHR_16bit_storage",
        c"VK_KHR_8bit_storage",
        c"VK_KHR_shader_float16_int8",
        c"VK_EXT_scalar_block_layout",
        c"VK_KHR_shader_atomic_int64",
        c"VK_KHR_buffer_device_address",
        // On a 1.0 device, VkMemoryAllocateFlagsInfo (the DEVICE_ADDRESS allocation flag)
        // belongs to VK_KHR_device_group.
        c"VK_KHR_device_group",
        c"VK_KHR_variable_pointers",
    ];
    let mut s16 = vk::PhysicalDevice16BitStorageFeatures::default()
        .storage_buffer16_bit_access(true)
        .uniform_and_storage_buffer16_bit_access(true)
        .storage_push_constant16(true);
    let mut s8 = vk::PhysicalDevice8BitStorageFeatures::default()
        .storage_buffer8_bit_access(true)
        .uniform_and_storage_buffer8_bit_access(true);
    let mut f16 = vk::PhysicalDeviceShaderFloat16Int8Features::default()
        .shader_float16(true)
        .shader_int8(true);
    let mut scalar =
        vk::PhysicalDeviceScalarBlockLayoutFeatures::default().scalar_block_layout(true);
    let mut atomic64 = vk::PhysicalDeviceShaderAtomicInt64Features::default()
        .shader_buffer_int64_atomics(true)
        .shader_shared_int64_atomics(true);
    let mut bda =
        vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
    let mut vp = vk::PhysicalDeviceVariablePointersFeatures::default()
        .variable_pointers_storage_buffer(true);
    let core = vk::PhysicalDeviceFeatures::default()
        .shader_int64(true)
        .shader_float64(true)
        .shader_int16(true);
    let mut features = vk::PhysicalDeviceFeatures2::default()
        .features(core)
        .push_next(&mut s16)
        .push_next(&mut s8)
        .push_next(&mut f16)
        .push_next(&mut scalar)
        .push_next(&mut atomic64)
        .push_next(&mut bda)
        .push_next(&mut vp);
    Gpu::with_feature_chain(&h.instance, pd, family, &extensions, &mut features)
}

/// The string operand of an OpExtension instruction (nul-terminated, little-endian words).
fn extension_name(operands: &[u32]) -> String {
    let bytes: Vec<u8> = operands.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Capabilities and extensions a shader declares beyond what the test enables (SPIR-V
/// OpCapability = 17, OpExtension = 10).
fn needs_beyond_shader(words: &[u32]) -> Option<String> {
    let mut i = 5;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if len == 0 {
            return Some("malformed SPIR-V".into());
        }
        match op {
            17 if !ENABLED_CAPABILITIES.contains(&words[i + 1]) => {
                return Some(format!("capability {}", words[i + 1]))
            }
            10 => {
                let name = extension_name(&words[i + 1..(i + len).min(words.len())]);
                if !ENABLED_SPIRV_EXTENSIONS.contains(&name.as_str()) {
                    return Some(format!("SPIR-V extension {name}"));
                }
            }
            _ => {}
        }
        i += len;
    }
    None
}

fn load(path: &Path) -> Result<Case, String> {
    let src = std::fs::read_to_string(path).unwrap();
    // Non-uniform descriptor indexing is undefined behaviour without the descriptor indexing
    // features (lavapipe, for one, reads the first lane's descriptor), so there is no oracle.
    if src.contains("GL_EXT_nonuniform_qualifier") {
        return Err("non-uniform descriptor indexing (undefined in Vulkan 1.0)".into());
    }
    let mut case = Case {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        words: Vec::new(),
        groups: [1, 1, 1],
        bufs: Vec::new(),
        push: Vec::new(),
        spec: Vec::new(),
        globals: Vec::new(),
        addr_slots: Vec::new(),
        kinds: declared_kinds(&src),
    };
    for line in src.lines() {
        let Some(d) = line.trim().strip_prefix("//!").or_else(|| line.trim().strip_prefix(";!"))
        else {
            continue;
        };
        let t: Vec<&str> = d.split_whitespace().collect();
        let n = |i: usize| t[i].parse::<u64>().unwrap();
        match t[0] {
            "groups" => case.groups = [n(1) as u32, n(2) as u32, n(3) as u32],
            "buf" => case.bufs.push(BufSpec {
                set: n(1) as u32,
                binding: n(2) as u32,
                index: if t.len() > 5 { n(5) as u32 } else { 0 },
                data: fill(t[3], n(4) as usize),
            }),
            "push" => case.push = fill(t[1], n(2) as usize),
            "spec" => case.spec.push((n(1) as u32, n(2) as u32)),
            "global" => {
                if n(1) as usize != case.globals.len() {
                    return Err("globals must be declared in order".into());
                }
                case.globals.push(fill(t[2], n(3) as usize));
            }
            "pushaddr" => case.addr_slots.push(AddrSlot {
                target: SlotIn::Push,
                offset: n(1) as usize,
                global: n(2) as usize,
            }),
            "bufaddr" => case.addr_slots.push(AddrSlot {
                target: SlotIn::Buf(n(1) as u32, n(2) as u32),
                offset: n(3) as usize,
                global: n(4) as usize,
            }),
            "globaladdr" => case.addr_slots.push(AddrSlot {
                target: SlotIn::Global(n(1) as usize),
                offset: n(2) as usize,
                global: n(3) as usize,
            }),
            other => return Err(format!("uses the unknown directive `{other}`")),
        }
    }
    // Vulkan 1.0 consumes SPIR-V 1.0, so the corpus is compiled for that environment.
    case.words = if path.extension().is_some_and(|e| e == "spvasm") {
        spvasm_for_vulkan_1_0(&src)?
    } else {
        std::panic::catch_unwind(|| compute_spirv(&src))
            .map_err(|_| "does not compile for Vulkan 1.0".to_string())?
    };
    if let Some(why) = needs_beyond_shader(&case.words) {
        return Err(format!("needs {why}"));
    }
    Ok(case)
}

/// Whether a module decorates anything Block (OpDecorate = 71, Block = 2).
fn has_block_decoration(words: &[u32]) -> bool {
    let mut i = 5;
    while i + 2 < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == 71 && words[i + 2] == 2 {
            return true;
        }
        i += len.max(1);
    }
    false
}

/// Validation messages a case produced, less the layer false positive the module docs describe.
fn unexcused(case: &Case, messages: &[String]) -> Vec<String> {
    let false_positive = "VUID-RuntimeSpirv-uniformAndStorageBuffer16BitAccess-06332";
    let excusable = !has_block_decoration(&case.words);
    messages.iter().filter(|m| !(excusable && m.contains(false_positive))).cloned().collect()
}

/// The case's buffers and globals in memory and its push constants, with every address
/// directive applied (addresses differ between drivers, so they are patched in here).
struct Inputs {
    bufs: Vec<HostBuffer>,
    globals: Vec<HostBuffer>,
    addrs: Vec<u64>,
    push: Vec<u8>,
}

fn inputs(instance: &ash_loaded::Instance, gpu: &Gpu, case: &Case) -> Inputs {
    let globals: Vec<HostBuffer> =
        case.globals.iter().map(|g| gpu.addressable_buffer(g.len() as u64)).collect();
    let addrs: Vec<u64> = globals.iter().map(|g| gpu.device_address(instance, g)).collect();
    let mut push = case.push.clone();
    let mut buf_data: Vec<Vec<u8>> = case.bufs.iter().map(|b| b.data.clone()).collect();
    let mut global_data = case.globals.clone();
    for slot in &case.addr_slots {
        let data = match slot.target {
            SlotIn::Push => &mut push,
            SlotIn::Buf(set, binding) => {
                let i = case.bufs.iter().position(|b| b.set == set && b.binding == binding);
                &mut buf_data[i.expect("bufaddr names a declared buffer")]
            }
            SlotIn::Global(g) => &mut global_data[g],
        };
        data[slot.offset..slot.offset + 8].copy_from_slice(&addrs[slot.global].to_le_bytes());
    }
    for (h, data) in globals.iter().zip(&global_data) {
        h.write(0, data);
    }
    let bufs = buf_data
        .iter()
        .map(|data| {
            let h = gpu.host_buffer(data.len() as u64);
            h.write(0, data);
            h
        })
        .collect();
    Inputs { bufs, globals, addrs, push }
}

/// The buffers and then the globals after a run. An address slot the shader left pointing
/// into a global is rewritten relative to that global's start, so the two drivers' different
/// address spaces compare equal exactly when the pointers name the same bytes.
fn outputs(case: &Case, inputs: &Inputs) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = inputs.bufs.iter().map(|b| b.bytes().to_vec()).collect();
    let mut globals: Vec<Vec<u8>> = inputs.globals.iter().map(|b| b.bytes().to_vec()).collect();
    for slot in &case.addr_slots {
        let data = match slot.target {
            SlotIn::Push => continue,
            SlotIn::Buf(set, binding) => {
                let i = case.bufs.iter().position(|b| b.set == set && b.binding == binding);
                &mut out[i.unwrap()]
            }
            SlotIn::Global(g) => &mut globals[g],
        };
        let bytes = &mut data[slot.offset..slot.offset + 8];
        let value = u64::from_le_bytes(bytes.try_into().unwrap());
        let base = inputs.addrs[slot.global];
        let len = case.globals[slot.global].len() as u64;
        if (base..base + len).contains(&value) {
            bytes.copy_from_slice(&(value - base).to_le_bytes());
        }
    }
    out.extend(globals);
    out
}

/// Runs one case; `Err` when pipeline creation fails (the compiler cannot handle it).
fn run(
    instance: &ash_loaded::Instance,
    gpu: &Gpu,
    case: &Case,
) -> Result<Vec<Vec<u8>>, vk::Result> {
    let d = &gpu.device;
    let io = inputs(instance, gpu, case);
    let bufs = &io.bufs;
    let max_set = case.bufs.iter().map(|b| b.set).max().unwrap_or(0);
    let mut counts: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for b in &case.bufs {
        let c = counts.entry((b.set, b.binding)).or_default();
        *c = (*c).max(b.index + 1);
    }
    let ty = |key: &(u32, u32)| {
        if case.kinds.get(key).copied().unwrap_or(false) {
            vk::DescriptorType::UNIFORM_BUFFER
        } else {
            vk::DescriptorType::STORAGE_BUFFER
        }
    };
    // SAFETY: valid create infos on live handles; everything is destroyed before returning.
    let result = unsafe {
        let mut set_layouts = Vec::new();
        for set in 0..=max_set {
            let bindings: Vec<_> = counts
                .iter()
                .filter(|(k, _)| k.0 == set)
                .map(|(k, &c)| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(k.1)
                        .descriptor_type(ty(k))
                        .descriptor_count(c)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            set_layouts.push(d.create_descriptor_set_layout(&info, None).unwrap());
        }
        let range = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: case.push.len() as u32,
        }];
        let mut pl_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
        if !case.push.is_empty() {
            pl_info = pl_info.push_constant_ranges(&range);
        }
        let layout = d.create_pipeline_layout(&pl_info, None).unwrap();
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&case.words), None)
            .unwrap();
        let entries: Vec<_> = case
            .spec
            .iter()
            .enumerate()
            .map(|(i, &(id, _))| vk::SpecializationMapEntry {
                constant_id: id,
                offset: 4 * i as u32,
                size: 4,
            })
            .collect();
        let spec_data: Vec<u8> = case.spec.iter().flat_map(|&(_, v)| v.to_le_bytes()).collect();
        let spec = vk::SpecializationInfo::default().map_entries(&entries).data(&spec_data);
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main")
            .specialization_info(&spec);
        let info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout);
        let created = d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None);
        let result = match created {
            Err((_, e)) => Err(e),
            Ok(p) => {
                let pipeline = p[0];
                // Shaders reaching memory only through device addresses have an empty set;
                // pool sizes must still be non-zero.
                let total: u32 = counts.values().sum::<u32>().max(1);
                let sizes = [
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::STORAGE_BUFFER,
                        descriptor_count: total,
                    },
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::UNIFORM_BUFFER,
                        descriptor_count: total,
                    },
                ];
                let pool = d
                    .create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default()
                            .max_sets(set_layouts.len() as u32)
                            .pool_sizes(&sizes),
                        None,
                    )
                    .unwrap();
                let sets = d
                    .allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default()
                            .descriptor_pool(pool)
                            .set_layouts(&set_layouts),
                    )
                    .unwrap();
                for (b, h) in case.bufs.iter().zip(bufs) {
                    let info = [vk::DescriptorBufferInfo {
                        buffer: h.buffer,
                        offset: 0,
                        range: vk::WHOLE_SIZE,
                    }];
                    let w = vk::WriteDescriptorSet::default()
                        .dst_set(sets[b.set as usize])
                        .dst_binding(b.binding)
                        .dst_array_element(b.index)
                        .descriptor_type(ty(&(b.set, b.binding)))
                        .buffer_info(&info);
                    d.update_descriptor_sets(&[w], &[]);
                }
                gpu.run(|d, cb| {
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
                    d.cmd_bind_descriptor_sets(
                        cb,
                        vk::PipelineBindPoint::COMPUTE,
                        layout,
                        0,
                        &sets,
                        &[],
                    );
                    if !case.push.is_empty() {
                        d.cmd_push_constants(
                            cb,
                            layout,
                            vk::ShaderStageFlags::COMPUTE,
                            0,
                            &io.push,
                        );
                    }
                    let [x, y, z] = case.groups;
                    d.cmd_dispatch(cb, x, y, z);
                    ferrum_tests::kernel::compute_to_host(d, cb);
                });
                d.destroy_descriptor_pool(pool, None);
                d.destroy_pipeline(pipeline, None);
                Ok(outputs(case, &io))
            }
        };
        d.destroy_shader_module(module, None);
        d.destroy_pipeline_layout(layout, None);
        set_layouts.iter().for_each(|&l| d.destroy_descriptor_set_layout(l, None));
        result
    };
    io.bufs.into_iter().chain(io.globals).for_each(|b| gpu.destroy_buffer(b));
    result
}

/// The ULP bound for shaders whose results go through approximated GLSL.std.450 functions. The
/// spec allows e.g. 3 ULP for exp2 and 2 ULP for inversesqrt, and the shader sums several such
/// terms, so a few ULP of the final value is the honest bound; exact elsewhere.
fn ulp_tolerance(shader: &str) -> u32 {
    match shader {
        "glsl_math" => 8,
        _ => 0,
    }
}

/// Bytes where lavapipe is known to be wrong: (shader, buffer, byte offset, what the GLSL
/// specification says belongs there).
fn lavapipe_deviations() -> Vec<(&'static str, usize, usize, [u8; 4])> {
    // packSnorm4x8(vec4(-1.0, 0.5, 0.0, 1.0)) (GLSL 4.60, 8.4): each component is
    // round(clamp(c, -1, +1) * 127.0) in one byte. This Debian's lavapipe returns 0xffffff81,
    // the first byte sign-extended over the other three.
    let snorm = |c: f32| ((c.clamp(-1.0, 1.0) * 127.0).round() as i8) as u8;
    let packed = [snorm(-1.0), snorm(0.5), snorm(0.0), snorm(1.0)];
    let mut out = vec![("glsl_packing", 1, 8, packed)];
    out.extend(signed_modulo_deviations());
    out.extend(loop_exit_deviations());
    out
}

/// vmem_loop_exit reads `v`, last assigned in a loop that lanes leave at different
/// iterations, after the loop. This Debian's lavapipe returns `x[4k+1] + k` without the
/// `v * 3` term for the lanes that leave through `v % 64 < g` (as if `v` were 0 after the
/// loop); the shader's own loop, run here on its inputs, gives every lane's value.
fn loop_exit_deviations() -> Vec<(&'static str, usize, usize, [u8; 4])> {
    let input = fill("rand", 600);
    let x = |k: usize| u32::from_le_bytes(input[4 * k..4 * k + 4].try_into().unwrap());
    (0..64u32)
        .map(|g| {
            let mut k = 0u32;
            let v = loop {
                let v = x(k as usize * 4 + 1);
                if v % 64 < g || k == 30 {
                    break v;
                }
                k += 1;
            };
            let o = x(k as usize * 4 + 1).wrapping_add(v.wrapping_mul(3)).wrapping_add(k);
            ("vmem_loop_exit", 1, 4 * g as usize, o.to_le_bytes())
        })
        .collect()
}

/// int64_signed_divide's `%` is OpSMod, whose non-zero result takes the sign of Operand 2
/// (x - d * floor(x / d)); this Debian's lavapipe returns the truncated remainder (OpSRem's
/// value) for 64-bit operands of opposite signs. The shader's own formulas, recomputed here
/// from its inputs, give the values the SPIR-V specification requires wherever the two differ.
fn signed_modulo_deviations() -> Vec<(&'static str, usize, usize, [u8; 4])> {
    let input = fill("rand", 16);
    let a = |k: usize| i64::from_le_bytes(input[8 * k..8 * k + 8].try_into().unwrap());
    let floor_mod = |x: i64, d: i64| ((x as i128 % d as i128 + d as i128) % d as i128) as i64;
    let trunc_rem = |x: i64, d: i64| (x as i128 % d as i128) as i64;
    let mut out = Vec::new();
    for i in 0..8usize {
        let mut x = a(i).wrapping_mul(-7_046_029_254_386_353_131).wrapping_add((i as i64) << 59);
        let mut d = a((i + 3) & 7) - 500;
        d = if i == 1 { d << 37 } else { d };
        d = if i == 2 { x.wrapping_neg() } else { d };
        d = if i == 3 { 0 } else { d };
        x = if i == 4 { i64::MIN } else { x };
        d = if i == 4 { -1 } else { d };
        d = if i == 5 { d | i64::MIN } else { d };
        x = if i == 6 { x.wrapping_neg() } else { x };
        // r[i] = x % d (lanes 3 and 4 are undefined, see undefined_results); m[i] likewise.
        let cases =
            [(64 + 8 * i, x, d, i != 3 && i != 4), (128 + 8 * i, x >> 3, d + i as i64, true)];
        for (at, x, d, defined) in cases {
            if defined && d != 0 && floor_mod(x, d) != trunc_rem(x, d) {
                let b = floor_mod(x, d).to_le_bytes();
                out.push(("int64_signed_divide", 1, at, b[..4].try_into().unwrap()));
                out.push(("int64_signed_divide", 1, at + 4, b[4..].try_into().unwrap()));
            }
        }
    }
    out
}

/// Results SPIR-V leaves undefined, which two correct drivers need not agree on: (shader,
/// buffer, byte range). Integer division or remainder by zero and the overflowing
/// INT64_MIN / -1 ("OpSDiv ... behavior is undefined if Operand 2 is 0, or if Operand 2 is -1
/// and Operand 1 is the minimum representable value"); the compiler's own tests pin Ferrum's
/// values for these lanes against the IR interpreter instead.
fn undefined_results() -> Vec<(&'static str, usize, std::ops::Range<usize>)> {
    vec![
        // lane 4 divides by zero: q[4], r[4]
        ("int64_divide", 1, 32..40),
        ("int64_divide", 1, 160..168),
        // lane 3 divides by zero, lane 4 is INT64_MIN / -1: q[3..5], r[3..5]
        ("int64_signed_divide", 1, 24..40),
        ("int64_signed_divide", 1, 88..104),
        // the same lanes of OpSRem: r[3..5]
        ("int64_srem", 1, 24..40),
        // lane 2 divides by zero: uq[2]
        ("int64_div_uniform", 1, 208..216),
        // lane 3 is INT64_MIN / -1 and INT64_MIN % -1: o[3][4..6]
        ("int64_div_const", 1, 416..432),
    ]
}

/// GLSL's `%` with a negative operand, which GLSL leaves undefined and glslang turns into
/// OpSMod: this Debian's lavapipe computes OpSRem's value wherever the operands' signs differ
/// (see [`signed_modulo_deviations`]). The compiler's own tests check these words against the
/// IR interpreter and against SPIR-V's OpSMod definition (compiler/tests/div_random.rs), so
/// here they are left out rather than recomputed.
fn lavapipe_signed_modulo() -> Vec<(&'static str, usize, std::ops::Range<usize>)> {
    // sm[0..8] (64-bit) and w[4..8] (32-bit `/` and `%` by a negated divisor).
    let mut out = vec![("int64_div_uniform", 1, 320..384), ("int64_div_uniform", 1, 464..480)];
    for lane in 0..8 {
        for k in [1, 3, 5, 7, 9, 11] {
            let at = lane * 128 + k * 8;
            out.push(("int64_div_const", 1, at..at + 8));
        }
    }
    out
}

/// Ferrum's buffers against lavapipe's, with the exceptions the module docs describe.
fn compare(shader: &str, got: &[Vec<u8>], want: &[Vec<u8>]) -> Result<(), String> {
    let ulps = ulp_tolerance(shader);
    let deviations: Vec<_> = lavapipe_deviations().into_iter().filter(|d| d.0 == shader).collect();
    let undefined: Vec<_> = undefined_results()
        .into_iter()
        .chain(lavapipe_signed_modulo())
        .filter(|u| u.0 == shader)
        .collect();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g.len() != w.len() {
            return Err(format!("buffer {i} has {} bytes, lavapipe {}", g.len(), w.len()));
        }
        for at in (0..g.len()).step_by(4) {
            let (gw, ww) = (&g[at..(at + 4).min(g.len())], &w[at..(at + 4).min(w.len())]);
            if undefined.iter().any(|u| u.1 == i && u.2.contains(&at)) {
                continue;
            }
            if let Some(d) = deviations.iter().find(|d| d.1 == i && d.2 == at) {
                if gw != d.3 {
                    return Err(format!(
                        "buffer {i} byte {at}: ferrum {gw:02x?}, the GLSL spec says {:02x?}",
                        d.3
                    ));
                }
                continue;
            }
            if gw == ww || within_ulps(gw, ww, ulps) {
                continue;
            }
            return Err(format!(
                "buffer {i} differs at byte {at}: ferrum {:02x?} lavapipe {:02x?}",
                &g[at..(at + 8).min(g.len())],
                &w[at..(at + 8).min(w.len())]
            ));
        }
    }
    Ok(())
}

/// Shaders whose results Vulkan leaves partly to the implementation, so that lavapipe is no
/// oracle for them (the compiler's tests check them against the IR interpreter and the host).
/// Measured against this Debian's lavapipe: 316 differing words over the nine shaders, mostly
/// one f16 ULP, round() of halves, the sign of zero and out-of-range conversions; lavapipe's
/// frexp of f16 subnormals is wrong (lane 0 of f16_frexp: 0x357 is 0.8349609375 * 2^-14, as
/// Ferrum returns, lavapipe says 0.9175). f16_geometric's f32 refract differs by ~1e-3
/// relative because its normal comes from an f16 normalize (each driver's f16 rounding), and
/// mod() differs where x / y is large: lavapipe evaluates x - y * floor(x / y) at the
/// operands' precision and loses the low bits to cancellation, Ferrum evaluates it in f64
/// (both are within GLSL's precision for mod, which is inherited from that formula).
fn no_single_answer(shader: &str) -> Option<&'static str> {
    match shader {
        "f16_alu" | "f16_convert" | "f16_frexp" | "f16_geometric" | "f16_matrix_inverse"
        | "f16_mod" | "f16_modf" | "f16_modf_struct" | "double_pack_ops" => Some(
            "f16 precision, round() of halves, the sign of zero and out-of-range conversions \
             are the implementation's choice (checked against the interpreter instead)",
        ),
        _ => None,
    }
}

/// Whether two little-endian f32 words are finite and at most `ulps` representable values apart.
fn within_ulps(a: &[u8], b: &[u8], ulps: u32) -> bool {
    let (Ok(a), Ok(b)) = (<[u8; 4]>::try_from(a), <[u8; 4]>::try_from(b)) else { return false };
    let (a, b) = (f32::from_le_bytes(a), f32::from_le_bytes(b));
    if ulps == 0 || !a.is_finite() || !b.is_finite() {
        return false;
    }
    // Map floats onto a monotonic integer line so that adjacent floats differ by one.
    let key = |f: f32| {
        let bits = f.to_bits() as i32;
        if bits < 0 {
            i32::MIN.wrapping_sub(bits) as i64
        } else {
            bits as i64
        }
    };
    (key(a) - key(b)).unsigned_abs() <= u64::from(ulps)
}

#[test]
fn ulp_distance_is_counted_across_zero() {
    let w = |f: f32| f.to_le_bytes();
    assert!(within_ulps(&w(1.0), &w(f32::from_bits(1.0f32.to_bits() + 2)), 2));
    assert!(!within_ulps(&w(1.0), &w(f32::from_bits(1.0f32.to_bits() + 3)), 2));
    assert!(within_ulps(&w(-0.0), &w(f32::from_bits(1)), 1));
    assert!(!within_ulps(&w(f32::NAN), &w(f32::NAN), 8));
    assert!(!within_ulps(&w(1.0), &w(1.0000001), 0));
}

/// The compiler's corpus, and this crate's shaders for driver features it does not exercise.
fn corpus_dirs() -> [PathBuf; 2] {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    [here.join("../compiler/tests/corpus"), here.join("corpus")]
}

#[test]
fn corpus_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[c"VK_KHR_device_group_creation"]);
    let lvp = corpus_device(&h, h.physical_device_named("llvmpipe"), 0);
    let ours = corpus_device(&h, h.physical_device_named("Ferrum"), 1);
    let mut paths: Vec<PathBuf> = corpus_dirs()
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("corpus directory"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp" || e == "spvasm"))
        .collect();
    paths.sort();
    let (mut passed, mut skipped, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for path in &paths {
        let case = match load(path) {
            Ok(c) => c,
            Err(why) => {
                skipped.push(format!("{}: {why}", path.file_stem().unwrap().to_string_lossy()));
                continue;
            }
        };
        // Order-dependent results have no single right answer: `atomics_shared` mixes atomic
        // operations on one word between invocations, and in `atomics_ssbo` the invocation
        // whose compare-and-swap wins (and so the stored value) depends on which runs first.
        if matches!(case.name.as_str(), "atomics_shared" | "atomics_ssbo") {
            skipped.push(format!("{}: result depends on invocation order", case.name));
            continue;
        }
        if let Some(why) = no_single_answer(&case.name) {
            skipped.push(format!("{}: {why}", case.name));
            continue;
        }
        let seen = h.messages().len();
        let want = run(&h.instance, &lvp, &case)
            .unwrap_or_else(|e| panic!("{}: lavapipe: {e}", case.name));
        let got = run(&h.instance, &ours, &case);
        let messages = unexcused(&case, &h.messages()[seen..]);
        if !messages.is_empty() {
            failures.push(format!("{}: validation: {}", case.name, messages.join("\n")));
            continue;
        }
        match got {
            Err(e) => skipped.push(format!("{}: Ferrum cannot compile it ({e})", case.name)),
            Ok(got) => match compare(&case.name, &got, &want) {
                Ok(()) => passed.push(case.name.clone()),
                Err(why) => failures.push(format!("{}: {why}", case.name)),
            },
        }
    }
    eprintln!("corpus: {} identical to lavapipe: {}", passed.len(), passed.join(" "));
    eprintln!("corpus: {} skipped:\n  {}", skipped.len(), skipped.join("\n  "));
    assert!(failures.is_empty(), "differences from lavapipe:\n{}", failures.join("\n"));
    // Measured: 79 of 100 with 64-bit, 16-bit, 8-bit and float16 types, 64-bit atomics,
    // scalar block layout, buffer device addresses and storage-buffer variable pointers
    // (int64_ops, float64_ops, int64_atomics, shared_int64_atomics, storage_16bit,
    // storage_8bit, ubo_std140_misc, ubo_small_types, scalar_layout, the six buffer_reference
    // shaders, variable_pointers, copy_memory_layouts, register_spill and the scratch-array
    // shaders among them; the skipped ones need SPIR-V 1.3 or are order-dependent); fewer
    // means a regression somewhere.
    assert!(passed.len() >= 79, "only {} of {} ran", passed.len(), paths.len());
    drop((lvp, ours));
    // Messages outside the cases (device creation and destruction) are never excused.
    let outside: Vec<String> = h
        .messages()
        .into_iter()
        .filter(|m| !m.contains("VUID-RuntimeSpirv-uniformAndStorageBuffer16BitAccess-06332"))
        .collect();
    assert!(outside.is_empty(), "validation reported:\n{}", outside.join("\n"));
}

/// std430 uniform blocks with only `uniformBufferStandardLayout` enabled (the main corpus runs
/// with `scalarBlockLayout`, which would allow them anyway), on both drivers.
#[test]
fn standard_layout_uniforms_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let device = |name: &str, family: u32| {
        let mut std = vk::PhysicalDeviceUniformBufferStandardLayoutFeatures::default()
            .uniform_buffer_standard_layout(true);
        let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut std);
        let pd = h.physical_device_named(name);
        let ext = [c"VK_KHR_uniform_buffer_standard_layout"];
        Gpu::with_feature_chain(&h.instance, pd, family, &ext, &mut features)
    };
    let (lvp, ours) = (device("llvmpipe", 0), device("Ferrum", 1));
    let path = corpus_dirs()[1].join("standard_layout/std430_uniform.comp");
    let case = load(&path).expect("std430_uniform loads");
    let want = run(&h.instance, &lvp, &case).expect("lavapipe runs it");
    assert!(want[1].iter().any(|&b| b != 0), "lavapipe wrote nothing");
    let got = run(&h.instance, &ours, &case).expect("Ferrum runs it");
    compare(&case.name, &got, &want).unwrap();
    drop((lvp, ours));
    h.assert_clean();
}
