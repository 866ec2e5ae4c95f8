//! Vertex attribute fetch through the vertex-input table (abi::graphics): formats the V#
//! converts, input rates and divisors, base vertex and instance, stride 0, the last element
//! of a buffer; run on the simulator's graphics pipeline (strict mode) with V#s built here
//! from the descriptor reference and expectations from the Vulkan format conversion rules.

mod common;

use common::draw::{draw_with, DrawSetup, VertexInput, H, W};
use ferrum_compiler::amd::abi::graphics::{self as g, InputRate, VsKey};
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;

fn compile(file: &str, stage: Stage, key: impl Into<g::GfxKey>) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), key).unwrap_or_else(|e| panic!("{file}: {e}"))
}

// GFX10_FORMAT values (registers/gfx10-rsrc.json) and SQ_SEL.
const F_8_8_8_8_UNORM: u32 = 56;
const F_8_8_SNORM: u32 = 15;
const F_16_16_SINT: u32 = 28;
const F_16_16_16_16_USCALED: u32 = 67;
const F_32_UINT: u32 = 20;
const F_32_32_FLOAT: u32 = 64;
const F_32_32_32_32_FLOAT: u32 = 77;
const F_32_32_UINT: u32 = 62;
const F_32_32_32_32_UINT: u32 = 75;
const XYZW: [u32; 4] = [4, 5, 6, 7];
const XY01: [u32; 4] = [4, 5, 0, 1];
const X001: [u32; 4] = [4, 0, 0, 1];

const FIRST_VERTEX: u32 = 3;
const FIRST_INSTANCE: u32 = 2;
const TRIANGLES: u32 = 8;
const INSTANCES: u32 = 3;

/// Buffer contents, built region by region (16-byte aligned).
#[derive(Default)]
struct Data {
    bytes: Vec<u8>,
    inputs: Vec<VertexInput>,
}

impl Data {
    fn add(
        &mut self,
        elems: &[Vec<u8>],
        stride: u32,
        num_records: u32,
        format: u32,
        sel: [u32; 4],
    ) {
        while self.bytes.len() % 16 != 0 {
            self.bytes.push(0xcd);
        }
        let offset = self.bytes.len() as u32;
        for e in elems {
            let mut e = e.clone();
            e.resize(stride.max(e.len() as u32) as usize, 0xcd);
            self.bytes.extend_from_slice(&e);
        }
        self.inputs.push(VertexInput { offset, stride, num_records, format, dst_sel: sel });
    }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Pixel corner positions in NDC for absolute vertex index `a` (garbage below FIRST_VERTEX).
fn position(a: u32) -> [f32; 2] {
    if a < FIRST_VERTEX {
        return [5.0, 5.0];
    }
    let k = a - FIRST_VERTEX;
    let (c, j) = (k / 3, k % 3);
    let px = [(1, 1), (9, 1), (1, 9)][j as usize];
    let ndc = |p: u32| p as f32 * 2.0 / W as f32 - 1.0;
    [ndc(10 * c + px.0), ndc(px.1)]
}

fn unorm_elem(a: u32) -> [u8; 4] {
    if a == 24 {
        [255, 0, 128, 1]
    } else {
        [(a * 37) as u8, (a * 91 + 3) as u8, a as u8, 200]
    }
}

fn setup() -> DrawSetup {
    let n = FIRST_VERTEX + 3 * TRIANGLES; // vertex elements; the last one is used
    let mut d = Data::default();
    let pos: Vec<Vec<u8>> = (0..n).map(|a| f32s(&position(a))).collect();
    d.add(&pos, 8, n, F_32_32_FLOAT, XY01);
    let offsets: Vec<Vec<u8>> = (0..FIRST_INSTANCE + INSTANCES)
        .map(|i| {
            let row = i.checked_sub(FIRST_INSTANCE).map_or(7.0, |r| 0.2 * r as f32);
            f32s(&[0.0, row])
        })
        .collect();
    d.add(&offsets, 8, FIRST_INSTANCE + INSTANCES, F_32_32_FLOAT, XY01);
    let unorm: Vec<Vec<u8>> = (0..n).map(|a| unorm_elem(a).to_vec()).collect();
    d.add(&unorm, 4, n, F_8_8_8_8_UNORM, XYZW);
    let snorm: Vec<Vec<u8>> =
        (0..n).map(|a| if a == 3 { vec![0x80, 0x7f] } else { vec![0x81, a as u8] }).collect();
    d.add(&snorm, 2, n, F_8_8_SNORM, XY01);
    let sint: Vec<Vec<u8>> = (0..n)
        .map(|a| {
            let v: [i16; 2] = if a == 6 { [i16::MIN, i16::MAX] } else { [-(a as i16), 1] };
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        })
        .collect();
    d.add(&sint, 4, n, F_16_16_SINT, XY01);
    let usc: Vec<Vec<u8>> = (0..n)
        .map(|a| {
            let v: [u16; 4] = if a == 9 { [0, 1, 65535, 300] } else { [a as u16, 2, 3, 4] };
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        })
        .collect();
    d.add(&usc, 8, n, F_16_16_16_16_USCALED, XYZW);
    let inst = [[9.0; 4], [9.0; 4], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    let inst: Vec<Vec<u8>> = inst.iter().map(|v| f32s(v)).collect();
    d.add(&inst, 16, 4, F_32_32_32_32_FLOAT, XYZW);
    let same = vec![f32s(&[0.5, f32::NEG_INFINITY, 1e30, -0.0])];
    d.add(&same, 0, n, F_32_32_32_32_FLOAT, XYZW);
    let first: Vec<Vec<u8>> =
        [5u32, 6, u32::MAX, 8].iter().map(|v| v.to_le_bytes().to_vec()).collect();
    d.add(&first, 4, 4, F_32_UINT, X001);
    DrawSetup {
        vertices: 3 * TRIANGLES,
        instances: INSTANCES,
        first_vertex: FIRST_VERTEX,
        first_instance: FIRST_INSTANCE,
        data: d.bytes,
        inputs: d.inputs,
        depth: false,
        points: false,
        texture: None,
        samples: 1,
        sample_shading: false,
    }
}

/// The flat colour of the triangle in cell (`c`, instance `i`), from the format rules:
/// UNORM b / 255, SNORM max(b / 127, -1), USCALED/SINT as integers, missing components
/// (0, 0, 0, 1).
fn expected(c: u32, i: u32) -> [f32; 4] {
    let a = FIRST_VERTEX + 3 * c; // provoking vertex
    let un = |b: u8| b as f32 / 255.0;
    match (a / 3) % 8 {
        0 => unorm_elem(a).map(un),
        1 => [-1.0, 1.0, 0.0, 1.0],
        2 => [-32768.0, 32767.0, 0.0, 1.0],
        3 => [0.0, 1.0, 65535.0, 300.0],
        4 => [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]][((FIRST_INSTANCE + i / 2) - 2) as usize],
        5 => [0.5, f32::NEG_INFINITY, 1e30, -0.0],
        6 => [u32::MAX as f32, 0.0, 0.0, 1.0],
        _ => [a as f32, (FIRST_INSTANCE + i) as f32, un(unorm_elem(a)[0]), 1.0],
    }
}

fn key() -> VsKey {
    let mut k = VsKey::default();
    k.rates[1] = InputRate::Instance { divisor: 1 };
    k.rates[6] = InputRate::Instance { divisor: 2 };
    k.rates[8] = InputRate::Instance { divisor: 0 };
    k
}

#[test]
fn vertex_attributes_of_every_rate_and_format_reach_the_right_triangles() {
    let vs = compile("fetch.vert", Stage::Vertex, key());
    let ps = compile("flat.frag", Stage::Fragment, g::PsKey::default());
    let GfxMetadata::Vertex(vm) = &vs.metadata else { panic!() };
    assert_eq!(vm.rsrc2 >> 1 & 0x1f, g::VS_USER_SGPRS);
    let pixels = draw_with(&vs, &ps, &setup())
        .unwrap_or_else(|e| panic!("{e}\nVS:\n{}\nPS:\n{}", vs.isa_text, ps.isa_text));
    for i in 0..H / 10 {
        for c in 0..W / 10 {
            let inside = pixels[((10 * i + 3) * W + 10 * c + 3) as usize];
            let outside = pixels[((10 * i + 8) * W + 10 * c + 8) as usize];
            assert_eq!(outside, [0.0; 4], "cell ({c}, {i}) outside its triangle");
            let want = if c < TRIANGLES && i < INSTANCES { expected(c, i) } else { [0.0; 4] };
            assert_eq!(
                inside.map(f32::to_bits),
                want.map(f32::to_bits),
                "cell ({c}, {i}): {inside:?} vs {want:?}\nVS:\n{}",
                vs.isa_text
            );
        }
    }
}

/// Two triangles of opposite winding; Vulkan's rule (spec "Basic Polygon Rasterization"):
/// a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) in framebuffer coordinates, front-facing when
/// a > 0 for VK_FRONT_FACE_COUNTER_CLOCKWISE (PA_SU_SC_MODE_CNTL.FACE = 0, as RADV sets it).
#[test]
fn front_facing_and_frag_depth_reach_the_colour_and_depth_targets() {
    let tris: [[[f32; 2]; 3]; 2] =
        [[[-0.8, -0.8], [-0.1, -0.8], [-0.8, -0.1]], [[0.1, -0.8], [0.1, -0.1], [0.8, -0.8]]];
    let elems: Vec<Vec<u8>> = tris.iter().flatten().map(|p| f32s(p)).collect();
    let mut d = Data::default();
    d.add(&elems, 8, 6, F_32_32_FLOAT, XY01);
    let setup = DrawSetup {
        vertices: 6,
        instances: 1,
        data: d.bytes,
        inputs: d.inputs,
        depth: true,
        ..Default::default()
    };
    let vs = compile("pos.vert", Stage::Vertex, VsKey::default());
    let ps = compile("facing.frag", Stage::Fragment, g::PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.input_ena, 0x1f02, "PERSP_CENTER, POS_*_FLOAT, FRONT_FACE");
    assert_eq!(pm.z_format, 1, "SPI_SHADER_32_R");
    assert_eq!(pm.db_shader_control & 1, 1, "Z_EXPORT_ENABLE");
    let (pixels, depth) = common::draw::draw_full(&vs, &ps, &setup)
        .unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let depth = depth.unwrap();
    let win =
        |p: [f32; 2]| [(p[0] as f64 + 1.0) * W as f64 / 2.0, (p[1] as f64 + 1.0) * H as f64 / 2.0];
    let mut seen = [0; 2];
    for t in tris {
        let w = t.map(win);
        let a = -0.5
            * (0..3)
                .map(|i| w[i][0] * w[(i + 1) % 3][1] - w[(i + 1) % 3][0] * w[i][1])
                .sum::<f64>();
        let front = a > 0.0;
        seen[front as usize] += 1;
        // A pixel well inside: the centroid, rounded down to a pixel.
        let cx = ((w[0][0] + w[1][0] + w[2][0]) / 3.0).floor() as u32;
        let cy = ((w[0][1] + w[1][1] + w[2][1]) / 3.0).floor() as u32;
        let i = (cy * W + cx) as usize;
        let (x, y) = (cx as f32 + 0.5, cy as f32 + 0.5);
        assert_eq!(pixels[i], [front as u32 as f32, x, y, 1.0], "({cx}, {cy})");
        let z = if front { x / 128.0 } else { 0.75 };
        assert_eq!(depth[i], z, "depth at ({cx}, {cy})");
    }
    assert_eq!(seen, [1, 1], "one triangle of each winding");
    assert_eq!(depth[0], 1.0, "uncovered pixels keep the clear depth");
}

/// Vulkan points: a square of side gl_PointSize centred on the vertex; pixels whose centres
/// fall inside are covered.
#[test]
fn point_size_from_the_vertex_shader_sizes_the_points() {
    // Window centres (20, 20) size 4 and (60, 60) size 6.
    let elems: Vec<Vec<u8>> = [[-0.6f32, -0.6], [0.2, 0.2]].iter().map(|p| f32s(p)).collect();
    let mut d = Data::default();
    d.add(&elems, 8, 2, F_32_32_FLOAT, XY01);
    let setup = DrawSetup {
        vertices: 2,
        instances: 1,
        data: d.bytes,
        inputs: d.inputs,
        points: true,
        ..Default::default()
    };
    let vs = compile("point.vert", Stage::Vertex, VsKey::default());
    let ps = compile("flat.frag", Stage::Fragment, g::PsKey::default());
    let GfxMetadata::Vertex(vm) = &vs.metadata else { panic!() };
    assert_eq!(vm.pa_cl_vs_out_cntl & 1 << 16, 1 << 16, "USE_VTX_POINT_SIZE");
    let pixels =
        draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\nVS:\n{}", vs.isa_text));
    for (i, (c, size)) in [(20u32, 4u32), (60, 6)].into_iter().enumerate() {
        let (lo, hi) = (c - size / 2, c + size / 2);
        for y in lo - 2..hi + 2 {
            for x in lo - 2..hi + 2 {
                let inside = (lo..hi).contains(&x) && (lo..hi).contains(&y);
                let want = if inside { [1.0, i as f32, 0.0, 1.0] } else { [0.0; 4] };
                assert_eq!(pixels[(y * W + x) as usize], want, "point {i} pixel ({x}, {y})");
            }
        }
    }
}

#[test]
fn point_coord_runs_across_each_point_from_its_top_left_corner() {
    // Window centres (20, 20) size 4 and (60, 60) size 6, as above.
    let elems: Vec<Vec<u8>> = [[-0.6f32, -0.6], [0.2, 0.2]].iter().map(|p| f32s(p)).collect();
    let mut d = Data::default();
    d.add(&elems, 8, 2, F_32_32_FLOAT, XY01);
    let setup = DrawSetup {
        vertices: 2,
        instances: 1,
        data: d.bytes,
        inputs: d.inputs,
        points: true,
        ..Default::default()
    };
    let vs = compile("point.vert", Stage::Vertex, VsKey::default());
    let ps = compile("point_coord.frag", Stage::Fragment, g::PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.input_locations, vec![0, g::POINT_COORD_LOCATION]);
    let pixels =
        draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    for (i, (c, size)) in [(20u32, 4u32), (60, 6)].into_iter().enumerate() {
        let lo = c - size / 2;
        for y in lo..lo + size {
            for x in lo..lo + size {
                // Pixel centres: (x + 0.5 - left) / size, exact in binary for sizes 4 and
                // 6 up to the interpolation's rounding.
                let s = (x - lo) as f32 + 0.5;
                let t = (y - lo) as f32 + 0.5;
                let want = [s / size as f32, t / size as f32, i as f32, 1.0];
                let got = pixels[(y * W + x) as usize];
                for k in 0..4 {
                    assert!((got[k] - want[k]).abs() < 1e-5, "point {i} ({x}, {y}): {got:?}");
                }
            }
        }
    }
}

/// 64-bit attributes as the driver describes them (as RADV does): 32-bit UINT channels, two
/// per component, a dvec3's z at the next location 16 bytes on. Vertex `a` holds
/// p = (1 + a 2^-40, 3 + a 2^-35, a - 2^40), q = a + 0.25, so double_attr.vert's flat colour
/// is (a, a, a, 2a + 0.5) exactly, from the provoking (first) vertex of each triangle.
#[test]
fn double_attributes_take_two_channels_per_component_across_locations() {
    let n = 9u32;
    let mut d = Data::default();
    let f64s = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let p: Vec<Vec<u8>> = (0..n)
        .map(|a| {
            let a = f64::from(a);
            f64s(&[1.0 + a * 2f64.powi(-40), 3.0 + a * 2f64.powi(-35), a - 2f64.powi(40)])
        })
        .collect();
    d.add(&p, 24, n, F_32_32_32_32_UINT, XYZW);
    let z = VertexInput {
        offset: d.inputs[0].offset + 16,
        format: F_32_32_UINT,
        dst_sel: XY01,
        ..d.inputs[0]
    };
    d.inputs.push(z);
    let q: Vec<Vec<u8>> = (0..n).map(|a| f64s(&[f64::from(a) + 0.25])).collect();
    d.add(&q, 8, n, F_32_32_UINT, XY01);
    let ndc = |p: u32| p as f32 * 2.0 / W as f32 - 1.0;
    let pos: Vec<Vec<u8>> = (0..n)
        .map(|a| {
            let (c, j) = (a / 3, a % 3);
            let px = [(1, 1), (9, 1), (1, 9)][j as usize];
            f32s(&[ndc(10 * c + px.0), ndc(px.1)])
        })
        .collect();
    d.add(&pos, 8, n, F_32_32_FLOAT, XY01);
    let setup = DrawSetup {
        vertices: n,
        instances: 1,
        data: d.bytes,
        inputs: d.inputs,
        ..Default::default()
    };
    let vs = compile("double_attr.vert", Stage::Vertex, VsKey::default());
    let ps = compile("flat.frag", Stage::Fragment, g::PsKey::default());
    let pixels =
        draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\nVS:\n{}", vs.isa_text));
    for c in 0..n / 3 {
        let a = (3 * c) as f32;
        let got = pixels[(3 * W + 10 * c + 3) as usize];
        assert_eq!(got, [a, a, a, 2.0 * a + 0.5], "triangle {c}\nVS:\n{}", vs.isa_text);
    }
}
