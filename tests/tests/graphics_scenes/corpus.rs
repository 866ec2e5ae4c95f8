//! The scenes of graphics_scenes.rs, with their tolerances.

use super::*;
use vk::PrimitiveTopology as T;

/// Clip-space x of framebuffer x (in pixels, continuous) for the full-target viewport.
fn px(x: f32) -> f32 {
    x / W as f32 * 2.0 - 1.0
}

fn py(y: f32) -> f32 {
    y / H as f32 * 2.0 - 1.0
}

/// A 2D vertex at framebuffer position (x, y) in pixels.
fn at(x: f32, y: f32, c: [f32; 4]) -> Vertex {
    v2(px(x), py(y), c)
}

/// A rainbow colour for vertex i.
fn hue(i: usize) -> [f32; 4] {
    let f = i as f32;
    [(f * 0.37).fract(), (f * 0.61 + 0.2).fract(), (f * 0.23 + 0.5).fract(), 1.0]
}

pub fn scenes() -> Vec<Scene> {
    let mut out = clipping();
    out.extend(shared_edges());
    out.extend(topologies());
    out.extend(draws());
    out.extend(textures());
    out.extend(targets());
    out
}

fn clipping() -> Vec<Scene> {
    vec![
        // Clipping produces new vertices whose attributes the implementation computes from
        // the plane intersection in floating point; the interpolated colour keeps 1/255 (its
        // rounding), coverage the edge rule: DEFAULT_TOLERANCE.
        scene(
            "clip against x and y (+ and -)",
            T::TRIANGLE_LIST,
            vec![
                v2(0.3, -0.4, RED),
                v2(1.9, 0.1, GREEN),
                v2(0.4, 0.5, BLUE),
                v2(-0.3, -0.6, GREEN),
                v2(-2.5, -0.2, BLUE),
                v2(-0.5, 0.2, RED),
                v2(-0.2, -0.3, BLUE),
                v2(0.1, -1.8, RED),
                v2(0.3, -0.2, GREEN),
                v2(-0.1, 0.4, RED),
                v2(0.6, 2.2, GREEN),
                v2(-0.7, 1.5, BLUE),
            ],
        ),
        scene(
            "clip against near (z < 0) and far (z > w)",
            T::TRIANGLE_LIST,
            vec![
                v([-0.8, -0.8, -0.6, 1.0], RED),
                v([0.2, -0.7, 0.8, 1.0], GREEN),
                v([-0.5, 0.3, 0.5, 1.0], BLUE),
                v([0.0, 0.0, 0.5, 1.0], GREEN),
                v([0.9, 0.2, 1.7, 1.0], RED),
                v([0.3, 0.9, 0.9, 1.0], BLUE),
                // Far and near at once, w varying: perspective-correct colour.
                v([-0.9, 0.9, 1.6, 2.0], BLUE),
                v([-0.2, 0.1, -0.4, 0.5], RED),
                v([-0.7, -0.1, 0.5, 1.0], GREEN),
            ],
        ),
        scene(
            "clip w near 0, w = 0 and w < 0",
            T::TRIANGLE_LIST,
            vec![
                v2(-0.5, -0.5, RED),
                v2(0.5, -0.6, GREEN),
                v([0.0001, 0.0002, 0.00005, 0.0001], BLUE),
                v2(-0.6, 0.2, GREEN),
                v2(0.4, 0.6, BLUE),
                v([0.3, -0.2, -0.3, -0.5], RED),
                v2(-0.9, 0.8, BLUE),
                v2(-0.8, 0.3, RED),
                v([0.5, 0.5, 0.0, 0.0], GREEN),
            ],
        ),
    ]
}

/// Shared edges under additive blending of QUARTER onto black: every covered pixel holds
/// exactly one layer (Vulkan: a sample on an edge shared by two triangles is covered by
/// exactly one of them). Which triangle takes an edge pixel does not show (same colour),
/// but whether the pixel is covered at all may differ where a pixel centre lies within
/// sub-pixel precision of the outer boundary: DEFAULT_TOLERANCE; the double-hit check is exact.
fn shared_edges() -> Vec<Scene> {
    // A fan of 12 triangles around a centre on a pixel centre, ring points on pixel centres
    // too, so shared edges pass exactly through sample positions.
    let (cx, cy) = (18.5, 11.5);
    let mut fan = vec![at(cx, cy, QUARTER)];
    for k in 0..=12 {
        let a = k as f32 * std::f32::consts::TAU / 12.0;
        let (x, y) = ((cx + 16.0 * a.cos()).round() + 0.5, (cy + 10.0 * a.sin()).round() + 0.5);
        fan.push(at(x, y, QUARTER));
    }
    let mut fan_scene = scene("fan: shared edges covered once", T::TRIANGLE_FAN, fan);
    fan_scene.shade = Shade::Additive;
    // A 5 x 4 grid whose outer vertices are pixel centres and inner ones are jittered, split
    // into two triangles per cell along alternating diagonals; 16-bit indices.
    let xs = [1.5f32, 9.5, 18.5, 27.5, 35.5];
    let ys = [1.5f32, 8.5, 14.5, 21.5];
    let mut grid = Vec::new();
    for (j, &y) in ys.iter().enumerate() {
        for (i, &x) in xs.iter().enumerate() {
            let inner = i > 0 && i < 4 && j > 0 && j < 3;
            let (dx, dy) = if inner {
                (((i * 7 + j * 3) % 5) as f32 * 0.61 - 1.2, ((i + j * 5) % 4) as f32 * 0.53 - 0.8)
            } else {
                (0.0, 0.0)
            };
            grid.push(at(x + dx, y + dy, QUARTER));
        }
    }
    let mut idx = Vec::new();
    for j in 0..3u32 {
        for i in 0..4u32 {
            let (a, b, c, d) = (j * 5 + i, j * 5 + i + 1, (j + 1) * 5 + i, (j + 1) * 5 + i + 1);
            if (i + j) % 2 == 0 {
                idx.extend([a, b, d, a, d, c]);
            } else {
                idx.extend([a, b, c, b, d, c]);
            }
        }
    }
    let n = idx.len() as u32;
    let mut mesh = scene("indexed mesh: shared edges covered once", T::TRIANGLE_LIST, grid);
    mesh.shade = Shade::Additive;
    mesh.indices = Some((vk::IndexType::UINT16, idx));
    mesh.draws = vec![Draw::Indexed(n, 1, 0, 0, 0)];
    vec![fan_scene, mesh]
}

/// Lines: Ferrum does not claim strictLines, so a line may be drawn as Bresenham
/// ("diamond-exit") or as the parallelogram of non-strict lines (Vulkan 28.8.2); both cover
/// one pixel per major-axis step but may pick the other pixel of a step where the line passes
/// between two centres: at most one differing pixel per step of the lines' total length
/// (here ~90 steps; 10 allowed), each next to the other driver's pixel.
const LINES: Tolerance = Tolerance { channel: 1, slack: 10 };

fn topologies() -> Vec<Scene> {
    let pts: Vec<Vertex> =
        (0..14).map(|i| at((i * 5 % 37) as f32 + 0.7, (i * 7 % 23) as f32 + 0.8, hue(i))).collect();
    let mut points = scene("point list (size 1)", T::POINT_LIST, pts);
    // A size-1 point covers the pixel whose centre lies in its square; centres are 0.2 and
    // 0.3 pixels inside, far from any tie: exact.
    points.tolerance = Tolerance { channel: 1, slack: 0 };
    let line_verts = vec![
        at(2.3, 3.1, RED),
        at(34.6, 7.9, GREEN),
        at(5.2, 20.4, BLUE),
        at(11.7, 1.6, RED),
        at(15.1, 12.2, GREEN),
        at(33.8, 12.2, BLUE),
        at(20.4, 21.3, RED),
        at(30.9, 15.6, GREEN),
    ];
    let mut lines = scene("line list", T::LINE_LIST, line_verts.clone());
    lines.tolerance = LINES;
    let mut strip = scene("line strip", T::LINE_STRIP, line_verts.clone());
    strip.tolerance = LINES;
    let tris: Vec<Vertex> = [
        (2.0, 2.0),
        (14.0, 3.0),
        (6.0, 12.0),
        (20.0, 2.5),
        (35.0, 6.0),
        (24.0, 14.0),
        (3.0, 14.0),
        (16.0, 21.0),
        (1.5, 22.0),
        (22.0, 16.0),
        (36.0, 12.0),
        (33.0, 22.5),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(x, y))| at(x, y, hue(i)))
    .collect();
    let zigzag: Vec<Vertex> = (0..9)
        .map(|i| at(2.0 + i as f32 * 4.1, if i % 2 == 0 { 4.0 } else { 18.5 }, hue(i)))
        .collect();
    let mut fan = vec![at(18.3, 11.6, [1.0; 4])];
    fan.extend((0..7).map(|k| {
        let a = k as f32 * 0.8;
        at(18.3 + 16.0 * a.cos(), 11.6 + 10.5 * a.sin(), hue(k))
    }));
    let restart = |name, topology, ty: vk::IndexType, verts: Vec<Vertex>| {
        let cut = if ty == vk::IndexType::UINT16 { 0xffff } else { 0xffff_ffff };
        let idx = vec![0, 1, 2, 3, cut, 4, 5, 6, 7, 8];
        let n = idx.len() as u32;
        let mut s = scene(name, topology, verts);
        s.restart = true;
        s.indices = Some((ty, idx));
        s.draws = vec![Draw::Indexed(n, 1, 0, 0, 0)];
        s
    };
    let mut line_restart =
        restart("line strip, restart (16-bit)", T::LINE_STRIP, vk::IndexType::UINT16, {
            let mut v = line_verts;
            v.push(at(8.0, 9.0, BLUE));
            v
        });
    line_restart.tolerance = LINES;
    let mut fan_restart_verts = fan.clone();
    fan_restart_verts.push(at(3.0, 3.0, RED));
    vec![
        points,
        lines,
        strip,
        scene("triangle list", T::TRIANGLE_LIST, tris),
        scene("triangle strip", T::TRIANGLE_STRIP, zigzag.clone()),
        scene("triangle fan", T::TRIANGLE_FAN, fan),
        restart(
            "triangle strip, restart (16-bit)",
            T::TRIANGLE_STRIP,
            vk::IndexType::UINT16,
            zigzag.clone(),
        ),
        restart(
            "triangle strip, restart (32-bit)",
            T::TRIANGLE_STRIP,
            vk::IndexType::UINT32,
            zigzag,
        ),
        restart(
            "triangle fan, restart (32-bit)",
            T::TRIANGLE_FAN,
            vk::IndexType::UINT32,
            fan_restart_verts,
        ),
        line_restart,
    ]
}

/// Indexed, instanced and indirect draws: exact geometry, DEFAULT_TOLERANCE.
fn draws() -> Vec<Scene> {
    let quad = vec![
        v2(-0.8, -0.7, RED),
        v2(0.1, -0.8, GREEN),
        v2(-0.7, 0.1, BLUE),
        v2(0.2, 0.2, RED),
        v2(-0.2, 0.5, GREEN),
        v2(0.4, -0.3, BLUE),
    ];
    let mk = |name, ty, idx: Vec<u32>, draw| {
        let mut s = scene(name, T::TRIANGLE_LIST, quad.clone());
        s.indices = Some((ty, idx));
        s.draws = vec![draw];
        s
    };
    let u16t = vk::IndexType::UINT16;
    let u32t = vk::IndexType::UINT32;
    let mut direct = scene("direct, firstVertex 2, 4 instances", T::TRIANGLE_LIST, quad.clone());
    direct.draws = vec![Draw::Direct(3, 4, 2, 0)];
    let mut first_instance =
        scene("direct, 2 instances from firstInstance 2", T::TRIANGLE_LIST, quad.clone());
    first_instance.draws = vec![Draw::Direct(3, 2, 0, 2)];
    let mut indirect =
        scene("indirect, 3 instances, firstVertex 1", T::TRIANGLE_LIST, quad.clone());
    indirect.draws = vec![Draw::Indirect([3, 3, 1, 0])];
    // Instance i of firstInstance f reads shift f + i / d (d = 0: shift f for all).
    let mut divisor2 =
        scene("divisor 2, 4 instances from firstInstance 1", T::TRIANGLE_LIST, quad.clone());
    divisor2.draws = vec![Draw::Direct(3, 4, 0, 1)];
    divisor2.divisor = Some(2);
    let mut divisor0 = mk(
        "divisor 0, indexed, 3 instances from firstInstance 2",
        u16t,
        vec![0, 1, 2],
        Draw::Indexed(3, 3, 0, 0, 2),
    );
    divisor0.divisor = Some(0);
    vec![
        mk(
            "indexed, vertexOffset -2, 2 instances from firstInstance 1",
            u16t,
            vec![99, 2, 3, 4, 3, 4, 5],
            Draw::Indexed(6, 2, 1, -2, 1),
        ),
        mk(
            "indexed 32-bit, vertexOffset 3, 3 instances",
            u32t,
            vec![0, 1, 2, 0x7fff_0000],
            Draw::Indexed(3, 3, 0, 3, 0),
        ),
        // fullDrawIndexUint32: indices far above 2^24, brought back by a negative offset.
        mk(
            "indexed 32-bit, indices from 0x7ffffff0, vertexOffset -0x7ffffff0",
            u32t,
            vec![0x7fff_fff0, 0x7fff_fff1, 0x7fff_fff2, 0x7fff_fff1, 0x7fff_fff3, 0x7fff_fff2],
            Draw::Indexed(6, 1, 0, -0x7fff_fff0, 0),
        ),
        direct,
        first_instance,
        indirect,
        divisor2,
        divisor0,
        mk(
            "indexed indirect, vertexOffset -1, 2 instances",
            u16t,
            vec![1, 2, 3, 2, 3, 4],
            Draw::IndexedIndirect([6, 2, 0, (-1i32) as u32, 0]),
        ),
    ]
}

/// A W-spanning quad from pixel (x0, y0) to (x1, y1) with texture coordinates u0..u1, v0..v1
/// (two triangles).
fn textured_quad([x0, y0, x1, y1]: [f32; 4], [u0, v0, u1, v1]: [f32; 4]) -> Vec<Vertex> {
    let c = |x, y, u, v| at(x, y, [u, v, 0.0, 1.0]);
    let (a, b, cc, d) =
        (c(x0, y0, u0, v0), c(x1, y0, u1, v0), c(x0, y1, u0, v1), c(x1, y1, u1, v1));
    vec![a, b, cc, b, d, cc]
}

fn textures() -> Vec<Scene> {
    // Six 12 x 11 pixel quads, each with a uniform scale of s texels (of level 0, 16 wide)
    // per pixel in both directions: derivatives are axis-aligned and equal, so every
    // approximation of the scale factor Vulkan allows (16.4.7) gives lambda = log2(s)
    // exactly. Levels: 2^-0.7, 2^0.2, 2^0.9, 2^1.8, 2^2.3, 2^3.2 texels per pixel (away from
    // the x.5 boundaries where NEAREST mip selection rounds).
    let lods = [-0.7f32, 0.2, 0.9, 1.8, 2.3, 3.2];
    let mut verts = Vec::new();
    for (k, lod) in lods.iter().enumerate() {
        let (x0, y0) = ((k % 3) as f32 * 12.3 + 0.2, (k / 3) as f32 * 11.5);
        let s = 2f32.powf(*lod);
        let (du, dv) = (12.0 * s / 16.0, 11.0 * s / 16.0);
        verts.extend(textured_quad(
            [x0, y0, x0 + 12.0, y0 + 11.0],
            [0.03, 0.07, 0.03 + du, 0.07 + dv],
        ));
    }
    let repeat = vk::SamplerAddressMode::REPEAT;
    let mut nearest =
        scene("texture minified across mip levels, nearest", T::TRIANGLE_LIST, verts.clone());
    nearest.shade = Shade::Texture(Sampler { address: repeat, linear: false, max_lod: 4.0 });
    // Nearest texel selection flips where a sample's coordinate lies within the texel
    // coordinate precision of a texel boundary (subTexelPrecisionBits): those pixels sit
    // between the two texels' colours; the level choice is exact (see above).
    nearest.tolerance = Tolerance { channel: 1, slack: 6 };
    let mut trilinear =
        scene("texture minified across mip levels, trilinear", T::TRIANGLE_LIST, verts);
    trilinear.shade = Shade::Texture(Sampler { address: repeat, linear: true, max_lod: 4.0 });
    // Vulkan gives lambda itself no precision (weights are quantized to mipmapPrecisionBits,
    // but log2 of the scale factor may be approximated). lavapipe (llvmpipe) takes log2 of the
    // mantissa as linear (log2(1 + m) ~ m), up to 0.086 below the true value; the blend of
    // two levels then moves by up to 0.086 x the largest level difference here (~250): 22
    // steps. Ferrum gives the exact blend: at pixel (13, 0), lambda 0.2 between level 0's
    // (0, 255, 0) and level 1's (250, 40, 40) is (50, 212, 8); Ferrum writes (51, 211, 9),
    // lavapipe (40, 221, 6), i.e. lambda 0.149 = 2^0.2 - 1.
    trilinear.tolerance = Tolerance { channel: 22, slack: 6 };
    let mut out = vec![nearest, trilinear];
    use vk::SamplerAddressMode as A;
    for (name, mode) in [
        ("address mode REPEAT", A::REPEAT),
        ("address mode MIRRORED_REPEAT", A::MIRRORED_REPEAT),
        ("address mode CLAMP_TO_EDGE", A::CLAMP_TO_EDGE),
        ("address mode CLAMP_TO_BORDER (opaque white)", A::CLAMP_TO_BORDER),
        ("address mode MIRROR_CLAMP_TO_EDGE", A::MIRROR_CLAMP_TO_EDGE),
    ] {
        let quad = textured_quad([1.3, 1.2, 35.7, 21.6], [-1.27, -1.13, 2.21, 1.93]);
        let mut s = scene(name, T::TRIANGLE_LIST, quad);
        s.shade = Shade::Texture(Sampler { address: mode, linear: false, max_lod: 0.0 });
        // Level 0 only (maxLod 0), nearest: exact but for texel-boundary pixels (see the
        // nearest mip scene) and the quad's own edges.
        s.tolerance = Tolerance { channel: 1, slack: 8 };
        out.push(s);
    }
    out
}

/// MRT and subpasses: exact geometry, interpolated colours: DEFAULT_TOLERANCE.
fn targets() -> Vec<Scene> {
    let tris = vec![
        v2(-0.9, -0.8, RED),
        v2(0.5, -0.6, GREEN),
        v2(-0.3, 0.7, [0.2, 0.4, 1.0, 0.3]),
        v2(0.1, 0.9, BLUE),
        v2(0.9, -0.2, [1.0, 1.0, 0.0, 0.6]),
        v2(0.8, 0.8, RED),
        v2(-0.8, 0.9, GREEN),
        v2(-0.1, -0.9, BLUE),
        v2(0.6, 0.3, [0.9, 0.9, 0.9, 1.0]),
    ];
    let mut mrt =
        scene("MRT: RGBA8, RGBA16F, RGBA32F, write mask R|G|A", T::TRIANGLE_LIST, tris.clone());
    mrt.shade = Shade::Mrt;
    mrt.draws = vec![Draw::Direct(6, 1, 0, 0)];
    let mut blended = scene(
        "MRT blended three ways: additive, alpha (reverse-subtract alpha), none",
        T::TRIANGLE_LIST,
        tris.clone(),
    );
    blended.shade = Shade::MrtBlend;
    blended.draws = vec![Draw::Direct(9, 1, 0, 0)];
    let mut subpasses = scene("three subpasses: A, B, A again", T::TRIANGLE_LIST, tris);
    subpasses.subpasses = 3;
    subpasses.draws =
        vec![Draw::Direct(3, 1, 0, 0), Draw::Direct(3, 1, 3, 0), Draw::Direct(3, 1, 6, 0)];
    vec![mrt, blended, subpasses]
}
