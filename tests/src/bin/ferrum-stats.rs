//! Shader statistics of any Vulkan driver through `VK_KHR_pipeline_executable_properties`, so
//! that Ferrum's compiler and another driver's (Mesa RADV/ACO on a null navi21 device, see
//! compiler/ACO.md) are measured by one tool on the same pipelines.
//!
//! Usage: `ferrum-stats [--repeat N] ITEM...`, where an ITEM is `NAME=COMP.spv` (a compute
//! pipeline) or `NAME=VERT.spv,FRAG.spv` (a graphics pipeline). Each pipeline is created N
//! times (default 1); `create_ms` is the shortest creation in wall-clock time, `create_cpu_ms`
//! the shortest in process CPU time. For each pipeline executable
//! (stage) it prints one line
//! `stats NAME STAGE create_ms=… create_cpu_ms=… subgroup_size=… instructions=… code_size=… vgprs=… sgprs=… spilled_vgprs=…
//! spilled_sgprs=…`, or `error NAME MESSAGE` when the pipeline cannot be created.
//!
//! The pipeline layout comes from the shaders' own declarations (Ferrum's SPIR-V front end
//! reads them): every declared binding with its descriptor type and array size, one push
//! constant range of the device's maximum size. A graphics pipeline gets one vertex buffer
//! binding per vertex input (a 32-bit format of the input's type and width, 64-bit for
//! doubles), a render pass with one colour attachment per fragment output location
//! (R8G8B8A8_UNORM for float outputs, R32G32B32A32 integer formats otherwise) and a D32 depth
//! attachment, one sample, dynamic viewport and scissor, and no blending.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use ash_loaded::{khr, vk, Device, Entry, Instance};
use ferrum_compiler::amd::{default_layout, DescriptorKind};
use ferrum_compiler::ir::{Mode, Shader, Stage, Type, TypeId};

type Res<T> = Result<T, String>;

fn main() {
    let mut items: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 1;
    if items.first().map(String::as_str) == Some("--repeat") {
        repeat = match items.get(1).and_then(|n| n.parse::<u32>().ok()) {
            Some(n) if n > 0 => n,
            _ => {
                eprintln!("ferrum-stats: --repeat needs a positive count");
                std::process::exit(2);
            }
        };
        items.drain(..2);
    }
    if items.is_empty() {
        eprintln!("usage: ferrum-stats [--repeat N] NAME=COMP.spv | NAME=VERT.spv,FRAG.spv ...");
        std::process::exit(2);
    }
    let ctx = match Ctx::new() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ferrum-stats: {e}");
            std::process::exit(1);
        }
    };
    eprintln!("ferrum-stats: device {}", ctx.device_name);
    for item in &items {
        let (name, files) = item.split_once('=').unwrap_or((item.as_str(), item.as_str()));
        let files: Vec<&str> = files.split(',').collect();
        match ctx.measure(&files, repeat) {
            Ok(lines) => lines.iter().for_each(|l| println!("stats {name} {l}")),
            Err(e) => println!("error {name} {}", e.replace('\n', " ")),
        }
    }
}

/// The instance and device, with the executable-properties extension enabled.
struct Ctx {
    _entry: Entry,
    instance: Instance,
    device: Device,
    exec: khr::pipeline_executable_properties::Device,
    device_name: String,
    max_push: u32,
}

impl Ctx {
    fn new() -> Res<Self> {
        // SAFETY: loading the system loader runs its initialisers, as every application does.
        let entry = unsafe { Entry::load() }.map_err(|e| format!("libvulkan.so.1: {e}"))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"ferrum-stats")
            .api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: a valid create info.
        let instance = unsafe { entry.create_instance(&info, None) }
            .map_err(|e| format!("vkCreateInstance: {e}"))?;
        // SAFETY: a live instance.
        let pd = *unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?
            .first()
            .ok_or("no physical device")?;
        // SAFETY: a live physical device.
        let props = unsafe { instance.get_physical_device_properties(pd) };
        let device_name = props.device_name_as_c_str().unwrap_or(c"?").to_string_lossy().into();
        let device = create_device(&instance, pd)?;
        let exec = khr::pipeline_executable_properties::Device::new(&instance, &device);
        let max_push = props.limits.max_push_constants_size;
        Ok(Ctx { _entry: entry, instance, device, exec, device_name, max_push })
    }

    /// Creates the pipeline of `files` (one compute shader, or a vertex and a fragment
    /// shader) `repeat` times and returns one statistics line per executable of the last, with
    /// the shortest of the creation times (one creation is noise on a shared machine).
    fn measure(&self, files: &[&str], repeat: u32) -> Res<Vec<String>> {
        let shaders = files.iter().map(|f| load(f)).collect::<Res<Vec<_>>>()?;
        let layout = Layout::new(&self.device, &shaders, self.max_push)?;
        let (mut best, mut best_cpu) = (f64::INFINITY, f64::INFINITY);
        let mut out = Err("no creation".to_string());
        for i in 0..repeat.max(1) {
            let (start, start_cpu) = (Instant::now(), cpu_ms());
            let created = self.create(&shaders, &layout);
            best_cpu = best_cpu.min(cpu_ms() - start_cpu);
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
            let last = i + 1 >= repeat;
            let (p, rp) = match created {
                Ok(c) => c,
                Err(e) => {
                    out = Err(e);
                    break;
                }
            };
            if last {
                out = self.statistics(p, best, best_cpu);
            }
            // SAFETY: objects of this device, no longer used.
            unsafe {
                self.device.destroy_pipeline(p, None);
                if rp != vk::RenderPass::null() {
                    self.device.destroy_render_pass(rp, None);
                }
            }
        }
        layout.destroy(&self.device);
        out
    }

    /// One creation of the pipeline of `shaders` (its render pass for a graphics pipeline).
    fn create(&self, shaders: &[Loaded], layout: &Layout) -> Res<(vk::Pipeline, vk::RenderPass)> {
        match shaders {
            [c] if c.ir.stage == Stage::Compute => self.compute(c, layout),
            [v, f] if v.ir.stage == Stage::Vertex && f.ir.stage == Stage::Fragment => {
                self.graphics(v, f, layout)
            }
            _ => Err("expected one compute shader or a vertex and a fragment shader".into()),
        }
    }

    fn compute(&self, c: &Loaded, layout: &Layout) -> Res<(vk::Pipeline, vk::RenderPass)> {
        let module = self.module(&c.words)?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let info = vk::ComputePipelineCreateInfo::default()
            .flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR)
            .stage(stage)
            .layout(layout.pipeline);
        // SAFETY: a valid create info with live objects.
        let r = unsafe {
            self.device.create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
        };
        // SAFETY: the module is no longer needed once the pipeline exists (or failed).
        unsafe { self.device.destroy_shader_module(module, None) };
        let p = r.map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?;
        Ok((p[0], vk::RenderPass::null()))
    }

    fn graphics(
        &self,
        v: &Loaded,
        f: &Loaded,
        layout: &Layout,
    ) -> Res<(vk::Pipeline, vk::RenderPass)> {
        let rp = self.render_pass(&f.ir)?;
        let (vm, fm) = (self.module(&v.words)?, self.module(&f.words)?);
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vm)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fm)
                .name(c"main"),
        ];
        let (bindings, attributes) = vertex_inputs(&v.ir);
        let vi = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes);
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let vp = vk::PipelineViewportStateCreateInfo::default().viewport_count(1).scissor_count(1);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .line_width(1.0);
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let ds = vk::PipelineDepthStencilStateCreateInfo::default();
        let blend: Vec<_> = (0..color_outputs(&f.ir).len())
            .map(|_| {
                vk::PipelineColorBlendAttachmentState::default()
                    .color_write_mask(vk::ColorComponentFlags::RGBA)
            })
            .collect();
        let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
        let dynamic = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
        let dy = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR)
            .stages(&stages)
            .vertex_input_state(&vi)
            .input_assembly_state(&ia)
            .viewport_state(&vp)
            .rasterization_state(&rs)
            .multisample_state(&ms)
            .depth_stencil_state(&ds)
            .color_blend_state(&cb)
            .dynamic_state(&dy)
            .layout(layout.pipeline)
            .render_pass(rp);
        // SAFETY: a valid create info with live objects.
        let r = unsafe {
            self.device.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
        };
        // SAFETY: the modules are no longer needed once the pipeline exists (or failed).
        unsafe {
            self.device.destroy_shader_module(vm, None);
            self.device.destroy_shader_module(fm, None);
        }
        match r {
            Ok(p) => Ok((p[0], rp)),
            Err((_, e)) => {
                // SAFETY: the render pass is unused.
                unsafe { self.device.destroy_render_pass(rp, None) };
                Err(format!("vkCreateGraphicsPipelines: {e}"))
            }
        }
    }

    fn module(&self, words: &[u32]) -> Res<vk::ShaderModule> {
        let info = vk::ShaderModuleCreateInfo::default().code(words);
        // SAFETY: a valid create info.
        unsafe { self.device.create_shader_module(&info, None) }
            .map_err(|e| format!("vkCreateShaderModule: {e}"))
    }

    /// One subpass writing an attachment per fragment output location, and a depth buffer.
    fn render_pass(&self, frag: &Shader) -> Res<vk::RenderPass> {
        let outputs = color_outputs(frag);
        let mut attachments: Vec<_> = outputs
            .iter()
            .map(|&format| {
                vk::AttachmentDescription::default()
                    .format(format)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            })
            .collect();
        attachments.push(
            vk::AttachmentDescription::default()
                .format(vk::Format::D32_SFLOAT)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::DONT_CARE)
                .store_op(vk::AttachmentStoreOp::STORE)
                .final_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        );
        let colors: Vec<_> = (0..outputs.len() as u32)
            .map(|i| vk::AttachmentReference {
                attachment: i,
                layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            })
            .collect();
        let depth = vk::AttachmentReference {
            attachment: outputs.len() as u32,
            layout: vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        };
        let subpass = vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&colors)
            .depth_stencil_attachment(&depth);
        let subpasses = [subpass];
        let info =
            vk::RenderPassCreateInfo::default().attachments(&attachments).subpasses(&subpasses);
        // SAFETY: a valid create info.
        unsafe { self.device.create_render_pass(&info, None) }
            .map_err(|e| format!("vkCreateRenderPass: {e}"))
    }

    /// One line per executable: its stage and the statistics the driver reports.
    fn statistics(&self, pipeline: vk::Pipeline, create_ms: f64, cpu_ms: f64) -> Res<Vec<String>> {
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        // SAFETY: a live pipeline created with CAPTURE_STATISTICS.
        let execs = unsafe { self.exec.get_pipeline_executable_properties(&info) }
            .map_err(|e| format!("vkGetPipelineExecutablePropertiesKHR: {e}"))?;
        let mut lines = Vec::new();
        for (i, e) in execs.iter().enumerate() {
            let info = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(i as u32);
            // SAFETY: as above, with an executable index the driver returned.
            let stats = unsafe { self.exec.get_pipeline_executable_statistics(&info) }
                .map_err(|e| format!("vkGetPipelineExecutableStatisticsKHR: {e}"))?;
            let mut line = format!(
                "{} create_ms={create_ms:.3} create_cpu_ms={cpu_ms:.3} subgroup_size={}",
                stage_name(e.stages),
                e.subgroup_size
            );
            for s in &stats {
                let name = s.name_as_c_str().unwrap_or(c"?").to_string_lossy();
                let key = name.to_lowercase().replace(' ', "_");
                use vk::PipelineExecutableStatisticFormatKHR as F;
                // SAFETY: the format says which member of the union is set.
                let value = unsafe {
                    match s.format {
                        F::UINT64 => s.value.u64.to_string(),
                        F::INT64 => s.value.i64.to_string(),
                        F::FLOAT64 => format!("{:.3}", s.value.f64),
                        _ => continue,
                    }
                };
                line += &format!(" {key}={value}");
            }
            lines.push(line);
        }
        Ok(lines)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: every object of the device is destroyed; nothing else uses them.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// CPU time of the whole process (every thread a driver may compile on) in milliseconds. On a
/// loaded machine wall-clock time punishes long creations more than short ones (a short one
/// often finishes inside one time slice), so the comparison is made in CPU time.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } != 0 {
        return f64::NAN;
    }
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn stage_name(s: vk::ShaderStageFlags) -> &'static str {
    match s {
        vk::ShaderStageFlags::COMPUTE => "compute",
        vk::ShaderStageFlags::VERTEX => "vertex",
        vk::ShaderStageFlags::FRAGMENT => "fragment",
        _ => "other",
    }
}

/// A device with the pipeline-executable-properties extension and every feature the corpus
/// may use enabled, except robust buffer access (which changes the code drivers emit).
fn create_device(instance: &Instance, pd: vk::PhysicalDevice) -> Res<Device> {
    let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
    {
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12)
            .push_next(&mut exec);
        // SAFETY: a live physical device and a valid chain.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
    }
    if exec.pipeline_executable_info == 0 {
        return Err("the driver does not support pipelineExecutableInfo".into());
    }
    // SAFETY: a live physical device.
    let mut core = unsafe { instance.get_physical_device_features(pd) };
    core.robust_buffer_access = vk::FALSE;
    let mut exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let (mut f11, mut f12) = (f11, f12);
    f11.p_next = std::ptr::null_mut();
    f12.p_next = std::ptr::null_mut();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .features(core)
        .push_next(&mut f11)
        .push_next(&mut f12)
        .push_next(&mut exec);
    let priorities = [1.0];
    let queue =
        vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&priorities);
    let queues = [queue];
    let extensions = [khr::pipeline_executable_properties::NAME.as_ptr()];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions)
        .push_next(&mut f2);
    // SAFETY: a valid create info.
    unsafe { instance.create_device(pd, &info, None) }.map_err(|e| format!("vkCreateDevice: {e}"))
}

/// A SPIR-V file and Ferrum's front end's reading of it (for the interface only).
struct Loaded {
    words: Vec<u32>,
    ir: Shader,
}

fn load(path: &str) -> Res<Loaded> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() % 4 != 0 || bytes.len() < 20 {
        return Err(format!("{path}: not SPIR-V"));
    }
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let stage = entry_stage(&words).ok_or_else(|| format!("{path}: no entry point"))?;
    let ir = ferrum_compiler::spirv::to_ir(&words, "main", stage, &HashMap::new())
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(Loaded { words, ir })
}

/// The stage of the first `OpEntryPoint`.
fn entry_stage(words: &[u32]) -> Option<Stage> {
    let mut i = 5;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == 15 {
            return match words.get(i + 1)? {
                0 => Some(Stage::Vertex),
                4 => Some(Stage::Fragment),
                5 => Some(Stage::Compute),
                _ => None,
            };
        }
        i += len.max(1);
    }
    None
}

/// The set layouts and pipeline layout of the shaders' declared bindings.
struct Layout {
    sets: Vec<vk::DescriptorSetLayout>,
    pipeline: vk::PipelineLayout,
}

impl Layout {
    fn new(device: &Device, shaders: &[Loaded], max_push: u32) -> Res<Self> {
        let mut sets: BTreeMap<u32, BTreeMap<u32, (vk::DescriptorType, u32)>> = BTreeMap::new();
        for s in shaders {
            for ((set, binding), b) in default_layout(&s.ir).bindings {
                let ty = descriptor_type(b.kind)?;
                sets.entry(set).or_default().insert(binding, (ty, b.array_size));
            }
        }
        let count = sets.keys().next_back().map_or(0, |&s| s + 1);
        let mut out = Layout { sets: Vec::new(), pipeline: vk::PipelineLayout::null() };
        for set in 0..count {
            let bindings: Vec<_> = sets
                .get(&set)
                .into_iter()
                .flatten()
                .map(|(&binding, &(ty, n))| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(ty)
                        .descriptor_count(n)
                        .stage_flags(vk::ShaderStageFlags::ALL)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: a valid create info.
            match unsafe { device.create_descriptor_set_layout(&info, None) } {
                Ok(l) => out.sets.push(l),
                Err(e) => {
                    out.destroy(device);
                    return Err(format!("vkCreateDescriptorSetLayout: {e}"));
                }
            }
        }
        let push = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::ALL)
            .size(max_push.min(256))];
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&out.sets)
            .push_constant_ranges(&push);
        // SAFETY: a valid create info with live set layouts.
        match unsafe { device.create_pipeline_layout(&info, None) } {
            Ok(p) => out.pipeline = p,
            Err(e) => {
                out.destroy(device);
                return Err(format!("vkCreatePipelineLayout: {e}"));
            }
        }
        Ok(out)
    }

    fn destroy(&self, device: &Device) {
        // SAFETY: objects of this device that no live pipeline creation uses.
        unsafe {
            device.destroy_pipeline_layout(self.pipeline, None);
            for &s in &self.sets {
                device.destroy_descriptor_set_layout(s, None);
            }
        }
    }
}

fn descriptor_type(kind: DescriptorKind) -> Res<vk::DescriptorType> {
    Ok(match kind {
        DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorKind::UniformBufferDynamic => vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
        DescriptorKind::StorageBufferDynamic => vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
        DescriptorKind::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorKind::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorKind::Sampler => vk::DescriptorType::SAMPLER,
        DescriptorKind::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorKind::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        #[allow(unreachable_patterns)]
        other => return Err(format!("no descriptor type for {other:?}")),
    })
}

/// The scalar type, component count and location count of an interface variable's type.
fn interface_shape(s: &Shader, ty: TypeId) -> Option<(Type, u32, u32)> {
    match s.types.get(ty) {
        t @ (Type::Int { .. } | Type::Float { .. } | Type::Bool) => Some((t.clone(), 1, 1)),
        Type::Vector { elem, count, .. } => {
            let (t, _, _) = interface_shape(s, *elem)?;
            let wide = matches!(t, Type::Float { bits: 64 } | Type::Int { bits: 64, .. });
            let locations = if wide && *count > 2 { 2 } else { 1 };
            Some((t, u32::from(*count), locations))
        }
        Type::Array { elem, len, .. } => {
            let (t, c, l) = interface_shape(s, *elem)?;
            Some((t, c, l * len))
        }
        Type::Matrix { column, columns, .. } => {
            let (t, c, l) = interface_shape(s, *column)?;
            Some((t, c, l * u32::from(*columns)))
        }
        _ => None,
    }
}

/// One binding and one attribute per vertex input location, in a format of its type.
fn vertex_inputs(
    v: &Shader,
) -> (Vec<vk::VertexInputBindingDescription>, Vec<vk::VertexInputAttributeDescription>) {
    let (mut bindings, mut attributes) = (Vec::new(), Vec::new());
    for var in v.vars.iter().filter(|x| x.mode == Mode::Input && x.sysval.is_none()) {
        let Some((location, _)) = var.location else { continue };
        let Some((t, comps, locations)) = interface_shape(v, var.ty) else { continue };
        for l in 0..locations {
            let (format, size) = vertex_format(&t, comps);
            let binding = bindings.len() as u32;
            bindings.push(vk::VertexInputBindingDescription {
                binding,
                stride: size,
                input_rate: vk::VertexInputRate::VERTEX,
            });
            attributes.push(vk::VertexInputAttributeDescription {
                location: location + l,
                binding,
                format,
                offset: 0,
            });
        }
    }
    (bindings, attributes)
}

/// The 32-bit (64-bit for doubles) format of `comps` components of `t`, and its size.
fn vertex_format(t: &Type, comps: u32) -> (vk::Format, u32) {
    use vk::Format as F;
    let (formats, size) = match t {
        Type::Float { bits: 64 } => {
            ([F::R64_SFLOAT, F::R64G64_SFLOAT, F::R64G64_SFLOAT, F::R64G64_SFLOAT], 8)
        }
        Type::Float { .. } => {
            ([F::R32_SFLOAT, F::R32G32_SFLOAT, F::R32G32B32_SFLOAT, F::R32G32B32A32_SFLOAT], 4)
        }
        Type::Int { signed: true, .. } => {
            ([F::R32_SINT, F::R32G32_SINT, F::R32G32B32_SINT, F::R32G32B32A32_SINT], 4)
        }
        _ => ([F::R32_UINT, F::R32G32_UINT, F::R32G32B32_UINT, F::R32G32B32A32_UINT], 4),
    };
    let i = (comps.clamp(1, 4) - 1) as usize;
    let comps = if size == 8 { comps.min(2) } else { comps };
    (formats[i], size * comps)
}

/// The colour attachment format of each fragment output location 0..=max (unwritten
/// locations in between get R8G8B8A8_UNORM too, written by nothing).
fn color_outputs(f: &Shader) -> Vec<vk::Format> {
    let mut by_location: BTreeMap<u32, vk::Format> = BTreeMap::new();
    for var in f.vars.iter().filter(|x| x.mode == Mode::Output) {
        let Some((location, _)) = var.location else { continue };
        let Some((t, _, locations)) = interface_shape(f, var.ty) else { continue };
        let format = match t {
            Type::Int { signed: true, .. } => vk::Format::R32G32B32A32_SINT,
            Type::Int { signed: false, .. } => vk::Format::R32G32B32A32_UINT,
            _ => vk::Format::R8G8B8A8_UNORM,
        };
        for l in 0..locations {
            by_location.insert(location + l, format);
        }
    }
    let count = by_location.keys().next_back().map_or(0, |&l| l + 1);
    (0..count).map(|l| by_location.get(&l).copied().unwrap_or(vk::Format::R8G8B8A8_UNORM)).collect()
}
