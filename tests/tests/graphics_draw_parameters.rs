//! gl_BaseVertex, gl_BaseInstance and gl_DrawID (VK_KHR_shader_draw_parameters,
//! shaderDrawParameters) through the loader, validation on, on Ferrum and lavapipe: a vertex
//! shader records the three with gl_VertexIndex and gl_InstanceIndex into a storage buffer
//! (vertexPipelineStoresAndAtomics), one record per (case, draw, instance, vertex), for
//! direct, indexed, indirect and indexed-indirect draws (multi-draw: several draws per
//! command) and VK_EXT_multi_draw's two commands. The expectation is computed here from the
//! spec's definitions: BaseVertex = firstVertex or vertexOffset, BaseInstance =
//! firstInstance, DrawIndex = the draw's index within its command; the vertex index is
//! firstVertex + i or index + vertexOffset, the instance index firstInstance + j. The shader
//! also selects its record slot from a local array indexed by the vertex (as the conformance
//! cases do), which lives in private memory.

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::{memory_barrier, Gpu};
use ferrum_tests::kernel::{binding, whole, SetPool};
use ferrum_tests::pipeline::GraphicsDesc;
use ferrum_tests::scene::module;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::Target;

/// Record slots per case: draws × instances × vertices.
const DRAWS: u32 = 4;
const INSTANCES: u32 = 2;
const VERTICES: u32 = 8;
const PER_CASE: u32 = DRAWS * INSTANCES * VERTICES;
const CASES: u32 = 6;

/// Points outside the viewport (nothing is rasterized); the record goes to slot case ×
/// PER_CASE + draw × 16 + (instance − base instance) × 8 + (vertex − base vertex), the last
/// term through a local array (a permutation the test undoes).
const VS: &str = "#version 460
layout(push_constant) uniform P { uint case_id; } pc;
layout(set = 0, binding = 0) buffer Out { uvec4 rec[]; };
void main() {
    int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);
    int v = perm[gl_VertexIndex - gl_BaseVertex];
    int j = gl_InstanceIndex - gl_BaseInstance;
    uint slot = pc.case_id * 64u + uint(gl_DrawID * 16 + j * 8 + v);
    rec[slot] = uvec4(uint(gl_BaseVertex), uint(gl_BaseInstance), uint(gl_DrawID),
                      uint(gl_VertexIndex * 1000 + gl_InstanceIndex) + 1u);
    gl_Position = vec4(4.0, 4.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
";

const FS: &str = "#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0); }
";

const PERM: [u32; 8] = [3, 7, 0, 5, 1, 6, 2, 4];

/// One draw as the spec defines its parameters: vertex indices (index values for indexed
/// draws, before the offset), base vertex, first instance, instance count.
struct Draw {
    vertices: Vec<u32>,
    base_vertex: i32,
    first_instance: u32,
    instances: u32,
}

/// Index buffer contents: index i at element i for the first 8, then a shuffled run.
const INDICES: [u32; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 6, 2, 7, 0];

/// The draws of each case, in command order (DrawIndex = position in the command).
fn cases() -> Vec<Vec<Draw>> {
    let d = |vertices: Vec<u32>, base_vertex, first_instance, instances| Draw {
        vertices,
        base_vertex,
        first_instance,
        instances,
    };
    let seq = |first: u32, n: u32| (first..first + n).collect::<Vec<_>>();
    vec![
        // 0: vkCmdDraw(4 vertices, 2 instances, firstVertex 5, firstInstance 7).
        vec![d(seq(0, 4), 5, 7, 2)],
        // 1: vkCmdDrawIndexed(indices 8..12, vertexOffset 11, firstInstance 3).
        vec![d(INDICES[8..12].to_vec(), 11, 3, 2)],
        // 2: vkCmdDrawIndirect, three draws.
        vec![d(seq(0, 3), 0, 0, 1), d(seq(0, 8), 20, 9, 2), d(seq(0, 2), 3, 1, 1)],
        // 3: vkCmdDrawIndexedIndirect, two draws (first indices 0 and 8).
        vec![d(INDICES[0..5].to_vec(), 2, 4, 2), d(INDICES[8..11].to_vec(), 30, 0, 1)],
        // 4: vkCmdDrawMultiEXT, two draws.
        vec![d(seq(0, 5), 6, 2, 2), d(seq(0, 3), 40, 2, 2)],
        // 5: vkCmdDrawMultiIndexedEXT, vertex offsets per draw.
        vec![d(INDICES[0..3].to_vec(), 7, 5, 1), d(INDICES[8..12].to_vec(), 1, 5, 1)],
    ]
}

/// The records the spec fixes, in slot order (0 = never written).
fn expected() -> Vec<[u32; 4]> {
    let mut out = vec![[0; 4]; (CASES * PER_CASE) as usize];
    for (c, draws) in cases().iter().enumerate() {
        for (k, draw) in draws.iter().enumerate() {
            for j in 0..draw.instances {
                for &i in &draw.vertices {
                    let vertex = draw.base_vertex as u32 + i;
                    let instance = draw.first_instance + j;
                    let slot = c as u32 * PER_CASE + k as u32 * 16 + j * 8 + PERM[i as usize];
                    let rec = [
                        draw.base_vertex as u32,
                        draw.first_instance,
                        k as u32,
                        vertex * 1000 + instance + 1,
                    ];
                    out[slot as usize] = rec;
                }
            }
        }
    }
    out
}

fn device(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let core = vk::PhysicalDeviceFeatures::default()
        .vertex_pipeline_stores_and_atomics(true)
        .multi_draw_indirect(true)
        .draw_indirect_first_instance(true);
    let mut params =
        vk::PhysicalDeviceShaderDrawParametersFeatures::default().shader_draw_parameters(true);
    let mut multi = vk::PhysicalDeviceMultiDrawFeaturesEXT::default().multi_draw(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .features(core)
        .push_next(&mut params)
        .push_next(&mut multi);
    let ext = [c"VK_KHR_shader_draw_parameters", c"VK_EXT_multi_draw"];
    Gpu::with_feature_chain(&h.instance, pd, 0, &ext, &mut f2)
}

/// Runs every case; returns the records.
fn run(h: &Harness, pd: vk::PhysicalDevice) -> Vec<[u32; 4]> {
    let gpu = device(h, pd);
    let d = &gpu.device;
    // SAFETY: the device enabled VK_EXT_multi_draw, so both commands are non-null.
    let (draw_multi, draw_multi_indexed) = unsafe {
        let gdpa = |name: &std::ffi::CStr| {
            h.instance.get_device_proc_addr(d.handle(), name.as_ptr()).expect("multi-draw command")
        };
        (
            std::mem::transmute::<unsafe extern "system" fn(), vk::PFN_vkCmdDrawMultiEXT>(gdpa(
                c"vkCmdDrawMultiEXT",
            )),
            std::mem::transmute::<unsafe extern "system" fn(), vk::PFN_vkCmdDrawMultiIndexedEXT>(
                gdpa(c"vkCmdDrawMultiIndexedEXT"),
            ),
        )
    };
    let t = Target::new(h, pd, &gpu);
    let words = (CASES * PER_CASE * 4) as usize;
    let out = gpu.host_buffer(words as u64 * 4);
    out.write(0, &vec![0; words * 4]);
    let indices = gpu.host_buffer(256);
    indices.write(0, &INDICES.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<_>>());
    let all = cases();
    // Indirect commands: case 2 at 0 (16-byte VkDrawIndirectCommand), case 3 at 64
    // (20-byte VkDrawIndexedIndirectCommand).
    let indirect = gpu.host_buffer(256);
    let mut direct_cmds = Vec::new();
    for draw in &all[2] {
        let n = draw.vertices.len() as u32;
        direct_cmds.extend([n, draw.instances, draw.base_vertex as u32, draw.first_instance]);
    }
    let mut indexed_cmds = Vec::new();
    for (draw, first_index) in all[3].iter().zip([0u32, 8]) {
        let n = draw.vertices.len() as u32;
        let offset = draw.base_vertex as u32;
        indexed_cmds.extend([n, draw.instances, first_index, offset, draw.first_instance]);
    }
    let bytes = |w: &[u32]| w.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>();
    indirect.write(0, &bytes(&direct_cmds));
    indirect.write(64, &bytes(&indexed_cmds));
    let multi: Vec<vk::MultiDrawInfoEXT> = all[4]
        .iter()
        .map(|dr| vk::MultiDrawInfoEXT {
            first_vertex: dr.base_vertex as u32,
            vertex_count: dr.vertices.len() as u32,
        })
        .collect();
    let multi_indexed: Vec<vk::MultiDrawIndexedInfoEXT> = all[5]
        .iter()
        .zip([0u32, 8])
        .map(|(dr, first_index)| vk::MultiDrawIndexedInfoEXT {
            first_index,
            index_count: dr.vertices.len() as u32,
            vertex_offset: dr.base_vertex,
        })
        .collect();
    let bindings =
        [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)
            .stage_flags(vk::ShaderStageFlags::VERTEX)];
    // SAFETY: valid create infos and commands on live handles; all destroyed after the GPU
    // is idle.
    unsafe {
        let set_layout = d
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .unwrap();
        let set_layouts = [set_layout];
        let push = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::VERTEX,
            offset: 0,
            size: 4,
        }];
        let layout = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&push),
                None,
            )
            .unwrap();
        let set = SetPool::new(d, set_layout, &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        let modules = [module(d, VS, "vert"), module(d, FS, "frag")];
        let mut desc = GraphicsDesc::new(t.pass, layout, modules);
        desc.topology = vk::PrimitiveTopology::POINT_LIST;
        let pipe = desc.create(d);
        gpu.run(|d, cb| {
            t.begin(d, cb);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
            d.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                0,
                &[set.set],
                &[],
            );
            d.cmd_bind_index_buffer(cb, indices.buffer, 0, vk::IndexType::UINT32);
            let case = |c: u32| {
                let stages = vk::ShaderStageFlags::VERTEX;
                d.cmd_push_constants(cb, layout, stages, 0, &c.to_le_bytes());
            };
            case(0);
            d.cmd_draw(cb, 4, 2, 5, 7);
            case(1);
            d.cmd_draw_indexed(cb, 4, 2, 8, 11, 3);
            case(2);
            d.cmd_draw_indirect(cb, indirect.buffer, 0, 3, 16);
            case(3);
            d.cmd_draw_indexed_indirect(cb, indirect.buffer, 64, 2, 20);
            case(4);
            let stride = std::mem::size_of::<vk::MultiDrawInfoEXT>() as u32;
            draw_multi(cb, multi.len() as u32, multi.as_ptr(), 2, 2, stride);
            case(5);
            let stride = std::mem::size_of::<vk::MultiDrawIndexedInfoEXT>() as u32;
            let n = multi_indexed.len() as u32;
            draw_multi_indexed(cb, n, multi_indexed.as_ptr(), 1, 5, stride, std::ptr::null());
            d.cmd_end_render_pass(cb);
            let stages = (vk::PipelineStageFlags::VERTEX_SHADER, vk::PipelineStageFlags::HOST);
            memory_barrier(
                d,
                cb,
                stages,
                (vk::AccessFlags::SHADER_WRITE, vk::AccessFlags::HOST_READ),
            );
        });
        let words = out.u32s();
        drop(set);
        d.destroy_pipeline(pipe, None);
        for m in modules {
            d.destroy_shader_module(m, None);
        }
        d.destroy_pipeline_layout(layout, None);
        d.destroy_descriptor_set_layout(set_layout, None);
        t.destroy(d);
        for b in [out, indices, indirect] {
            gpu.destroy_buffer(b);
        }
        words.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }
}

#[test]
fn draw_parameters_of_every_draw_command_match_the_spec() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want = expected();
    for name in ["llvmpipe", "Ferrum"] {
        let got = run(&h, h.physical_device_named(name));
        let bad: Vec<String> = (0..want.len())
            .filter(|&s| got[s] != want[s])
            .take(8)
            .map(|s| format!("slot {s}: {:?}, want {:?}", got[s], want[s]))
            .collect();
        assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
    }
    h.assert_clean();
}

#[test]
fn the_feature_and_extension_are_advertised() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let pd = h.physical_device_named("Ferrum");
    // (VkPhysicalDeviceVulkan11Features needs a Vulkan 1.2 device; the icd's unit test
    // checks that it agrees with this structure.)
    let mut params = vk::PhysicalDeviceShaderDrawParametersFeatures::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut params);
    // SAFETY: a live physical device and a valid output chain.
    let exts = unsafe {
        h.instance.get_physical_device_features2(pd, &mut f2);
        h.instance.enumerate_device_extension_properties(pd).unwrap()
    };
    assert_eq!(params.shader_draw_parameters, vk::TRUE);
    let name = c"VK_KHR_shader_draw_parameters";
    assert!(exts.iter().any(|e| e.extension_name_as_c_str() == Ok(name)));
    h.assert_clean();
}
