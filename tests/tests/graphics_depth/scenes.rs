//! The scene corpus of `graphics_depth.rs`: geometry, per-draw pipeline state and the
//! scenes (see the test's module documentation for what they cover and how they compare).

use ash_loaded::vk;

/// A triangle in clip space (x, y, z, w per vertex).
pub type Tri = [[f32; 4]; 3];

/// The whole target at depth `z` (two triangles, counter-clockwise in framebuffer space).
pub fn quad(z: f32) -> Vec<Tri> {
    let v = |x: f32, y: f32| [x, y, z, 1.0];
    vec![[v(-1.0, -1.0), v(-1.0, 1.0), v(1.0, -1.0)], [v(1.0, -1.0), v(-1.0, 1.0), v(1.0, 1.0)]]
}

/// A triangle whose depth runs from `z0` at the left to `z1` at the right.
pub fn slope(z0: f32, z1: f32) -> Vec<Tri> {
    vec![[[-0.9, -0.8, z0, 1.0], [-0.2, 0.9, (z0 + z1) / 2.0, 1.0], [0.85, -0.3, z1, 1.0]]]
}

/// A smaller triangle at depth `z`, wound counter-clockwise (front facing) or clockwise.
pub fn small(z: f32, ccw: bool, dx: f32) -> Vec<Tri> {
    let a = [-0.6 + dx, -0.7, z, 1.0];
    let b = [-0.1 + dx, 0.6, z, 1.0];
    let c = [0.4 + dx, -0.5, z, 1.0];
    vec![if ccw { [a, b, c] } else { [a, c, b] }]
}

/// Pipeline state of one draw.
#[derive(Clone, Copy)]
pub struct State {
    pub depth_test: bool,
    pub depth_write: bool,
    pub compare: vk::CompareOp,
    pub stencil: bool,
    pub front: vk::StencilOpState,
    pub back: vk::StencilOpState,
    /// depthBoundsTestEnable with these bounds.
    pub bounds: Option<(f32, f32)>,
    /// depthBiasEnable with (constant, clamp, slope).
    pub bias: Option<(f32, f32, f32)>,
    /// The bias comes from vkCmdSetDepthBias with these values (pipeline values are 0).
    pub dynamic_bias: Option<(f32, f32, f32)>,
    /// Reference, compare mask, write mask from vkCmdSetStencil* per face (front, back).
    pub dynamic_stencil: Option<[(u32, u32, u32); 2]>,
    pub depth_clamp: bool,
    pub cull: vk::CullModeFlags,
    /// fillModeNonSolid: polygons drawn as their edges or vertices.
    pub polygon: vk::PolygonMode,
    /// No fragment stage (a depth-only pipeline).
    pub no_fs: bool,
    /// The fragment shader exports a stencil reference per pixel (`FS_STENCIL`:
    /// VK_EXT_shader_stencil_export), which replaces the state's in the test and in REPLACE.
    pub export_stencil: bool,
}

pub fn stencil(op: vk::StencilOp, compare: vk::CompareOp, reference: u32) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: op,
        pass_op: op,
        depth_fail_op: op,
        compare_op: compare,
        compare_mask: 0xff,
        write_mask: 0xff,
        reference,
    }
}

pub const KEEP: vk::StencilOpState = vk::StencilOpState {
    fail_op: vk::StencilOp::KEEP,
    pass_op: vk::StencilOp::KEEP,
    depth_fail_op: vk::StencilOp::KEEP,
    compare_op: vk::CompareOp::ALWAYS,
    compare_mask: 0xff,
    write_mask: 0xff,
    reference: 0,
};

/// Depth test LESS with writes; no stencil, bias, bounds or clamp.
pub const DEPTH: State = State {
    depth_test: true,
    depth_write: true,
    compare: vk::CompareOp::LESS,
    stencil: false,
    front: KEEP,
    back: KEEP,
    bounds: None,
    bias: None,
    dynamic_bias: None,
    dynamic_stencil: None,
    depth_clamp: false,
    cull: vk::CullModeFlags::NONE,
    polygon: vk::PolygonMode::FILL,
    no_fs: false,
    export_stencil: false,
};

/// Writes depth everywhere it draws.
pub const ALWAYS: State = State { compare: vk::CompareOp::ALWAYS, ..DEPTH };

/// No depth test, stencil test with `s` on both faces.
pub fn stencil_state(s: vk::StencilOpState) -> State {
    State { depth_test: false, depth_write: false, stencil: true, front: s, back: s, ..DEPTH }
}

/// One draw: triangles, colour, state.
#[derive(Clone)]
pub struct Draw {
    pub tris: Vec<Tri>,
    pub color: [f32; 4],
    pub state: State,
}

pub fn draw(tris: Vec<Tri>, color: [f32; 4], state: State) -> Draw {
    Draw { tris, color, state }
}

pub const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
pub const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
pub const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
pub const GREY: [f32; 4] = [0.5, 0.5, 0.5, 1.0];

/// What happens between the draws of a pass.
#[derive(Clone)]
pub enum Step {
    Draw(Draw),
    /// vkCmdClearAttachments of the depth/stencil attachment: aspects, depth, stencil, rect
    /// (x, y, w, h).
    Clear(vk::ImageAspectFlags, f32, u32, [i32; 4]),
    /// End the render pass and begin one that loads both aspects.
    NextPass,
    /// The last step: the whole target at depth `z` with `color`, depth test ALWAYS, depth
    /// bounds test (min, max). Lavapipe has no depthBounds, so its result is computed on the
    /// host from lavapipe's image before this step with the spec's rule: a sample passes iff
    /// the stored depth is within [min, max].
    Bounds(f32, f32, f32, [f32; 4]),
}

#[derive(Clone)]
pub struct Scene {
    pub name: String,
    pub format: vk::Format,
    pub clear_depth: f32,
    pub clear_stencil: u32,
    /// Load ops of the first pass (depth, stencil).
    pub load: (vk::AttachmentLoadOp, vk::AttachmentLoadOp),
    /// Viewport depth range.
    pub depth_range: (f32, f32),
    pub steps: Vec<Step>,
    /// Depth every pixel must hold, computed by hand (instead of lavapipe's depth).
    pub expect_depth: Option<f32>,
    /// Stencil every pixel must hold, computed by hand (besides lavapipe's stencil).
    pub expect_stencil: Option<fn(u32, u32) -> u8>,
    /// The clear values are applied by vkCmdClearColorImage/ClearDepthStencilImage before the
    /// first pass, which then loads both attachments.
    pub transfer_clear: bool,
}

pub fn scene(name: impl Into<String>, format: vk::Format, steps: Vec<Step>) -> Scene {
    let clear = vk::AttachmentLoadOp::CLEAR;
    Scene {
        name: name.into(),
        format,
        clear_depth: 1.0,
        clear_stencil: 0,
        load: (clear, clear),
        depth_range: (0.0, 1.0),
        steps,
        expect_depth: None,
        expect_stencil: None,
        transfer_clear: false,
    }
}

pub fn has_depth(f: vk::Format) -> bool {
    f != vk::Format::S8_UINT
}

pub fn has_stencil(f: vk::Format) -> bool {
    matches!(f, vk::Format::S8_UINT | vk::Format::D32_SFLOAT_S8_UINT)
}

pub const D16: vk::Format = vk::Format::D16_UNORM;
pub const D32: vk::Format = vk::Format::D32_SFLOAT;
pub const S8: vk::Format = vk::Format::S8_UINT;
pub const D32S8: vk::Format = vk::Format::D32_SFLOAT_S8_UINT;

pub fn compare_scenes(out: &mut Vec<Scene>) {
    use vk::CompareOp as C;
    let ops = [
        C::NEVER,
        C::LESS,
        C::EQUAL,
        C::LESS_OR_EQUAL,
        C::GREATER,
        C::NOT_EQUAL,
        C::GREATER_OR_EQUAL,
        C::ALWAYS,
    ];
    for (i, op) in ops.into_iter().enumerate() {
        // D16 for some, so both depth formats see every kind of compare.
        let format = if i % 3 == 2 { D16 } else { D32 };
        out.push(scene(
            format!("compare {op:?}, {format:?}"),
            format,
            vec![
                Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
                // Equal depths pass EQUAL, LEQUAL, GEQUAL: the triangle at exactly 0.5 too.
                Step::Draw(draw(small(0.5, true, 0.3), BLUE, State { compare: op, ..DEPTH })),
                Step::Draw(draw(slope(0.2, 0.8), RED, State { compare: op, ..DEPTH })),
            ],
        ));
    }
    out.push(scene(
        "depth writes off",
        D32,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            Step::Draw(draw(slope(0.1, 0.9), RED, State { depth_write: false, ..DEPTH })),
            Step::Draw(draw(small(0.3, true, 0.0), GREEN, DEPTH)),
        ],
    ));
    out.push(scene(
        "depth test off writes nothing",
        D32,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            Step::Draw(draw(slope(0.9, 0.7), RED, State { depth_test: false, ..DEPTH })),
        ],
    ));
    let mut zero = scene(
        "clear 0, GREATER, D16",
        D16,
        vec![Step::Draw(draw(slope(0.0, 1.0), RED, State { compare: C::GREATER, ..DEPTH }))],
    );
    zero.clear_depth = 0.0;
    out.push(zero);
    out.push(scene(
        "D16 vs D32 precision: close depths",
        D16,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            // 0.5 + 1e-6 rounds to 0.5's D16 code, so LESS fails where D32 would pass.
            Step::Draw(draw(slope(0.499999, 0.500001), RED, State { compare: C::LESS, ..DEPTH })),
        ],
    ));
    out.push(scene(
        "D32 precision: close depths",
        D32,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            Step::Draw(draw(slope(0.49, 0.51), RED, State { compare: C::LESS, ..DEPTH })),
        ],
    ));
}

pub fn stencil_scenes(out: &mut Vec<Scene>) {
    use vk::StencilOp as O;
    let ops = [
        O::ZERO,
        O::REPLACE,
        O::INCREMENT_AND_CLAMP,
        O::DECREMENT_AND_CLAMP,
        O::INVERT,
        O::INCREMENT_AND_WRAP,
        O::DECREMENT_AND_WRAP,
    ];
    for op in ops {
        for clear in [0u32, 255] {
            // Two overlapping triangles: the overlap sees the op twice.
            let s = stencil_state(stencil(op, vk::CompareOp::ALWAYS, 0x35));
            let mut sc = scene(
                format!("stencil {op:?} from {clear}"),
                if clear == 0 { D32S8 } else { S8 },
                vec![
                    Step::Draw(draw(small(0.5, true, 0.0), RED, s)),
                    Step::Draw(draw(small(0.5, false, 0.3), GREEN, s)),
                ],
            );
            sc.clear_stencil = clear;
            out.push(sc);
        }
    }
    export_scenes(out);
    // Fail op (compare NEVER), depth-fail op, pass op, each distinct.
    let paths = vk::StencilOpState {
        fail_op: O::INCREMENT_AND_CLAMP,
        pass_op: O::REPLACE,
        depth_fail_op: O::INVERT,
        compare_op: vk::CompareOp::EQUAL,
        compare_mask: 0xff,
        write_mask: 0xff,
        reference: 3,
    };
    let ds = State { stencil: true, front: paths, back: paths, ..DEPTH };
    let mut sc = scene(
        "stencil fail / depth fail / pass ops",
        D32S8,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            // Stencil 3 in the left triangle (REPLACE with ALWAYS).
            Step::Draw(draw(
                small(0.9, true, -0.2),
                GREEN,
                State {
                    depth_test: false,
                    stencil: true,
                    front: stencil(O::REPLACE, vk::CompareOp::ALWAYS, 3),
                    ..DEPTH
                },
            )),
            // Sloped triangle: stencil EQUAL 3 passes in the left triangle only; depth LESS
            // passes on its near half.
            Step::Draw(draw(slope(0.2, 0.8), RED, ds)),
        ],
    );
    sc.clear_stencil = 1;
    out.push(sc);
    // Masks: compare only the low nibble, write only bits 0x0f.
    let masked = vk::StencilOpState {
        fail_op: O::KEEP,
        pass_op: O::INVERT,
        depth_fail_op: O::KEEP,
        compare_op: vk::CompareOp::EQUAL,
        compare_mask: 0x0f,
        write_mask: 0x0f,
        reference: 0xa5,
    };
    let mut sc = scene(
        "stencil compare and write masks",
        D32S8,
        vec![
            Step::Draw(draw(small(0.5, true, 0.0), RED, stencil_state(masked))),
            Step::Draw(draw(small(0.5, true, 0.35), GREEN, stencil_state(masked))),
        ],
    );
    sc.clear_stencil = 0x35;
    out.push(sc);
    // Front and back faces with their own state.
    let front = stencil(O::INCREMENT_AND_WRAP, vk::CompareOp::ALWAYS, 0);
    let back = vk::StencilOpState {
        compare_op: vk::CompareOp::GREATER,
        ..stencil(O::INVERT, vk::CompareOp::GREATER, 0x20)
    };
    let fb = State { front, back, ..stencil_state(front) };
    let mut sc = scene(
        "stencil front and back faces",
        D32S8,
        vec![
            Step::Draw(draw(small(0.5, true, -0.2), RED, fb)),
            Step::Draw(draw(small(0.5, false, 0.3), GREEN, fb)),
            Step::Draw(draw(small(0.5, false, 0.5), BLUE, fb)),
        ],
    );
    sc.clear_stencil = 0x10;
    out.push(sc);
    // Stencil gates colour: mark, then draw the whole target where stencil == 1.
    let mark = stencil_state(stencil(O::REPLACE, vk::CompareOp::ALWAYS, 1));
    let gate = stencil_state(vk::StencilOpState {
        pass_op: O::KEEP,
        ..stencil(O::ZERO, vk::CompareOp::EQUAL, 1)
    });
    out.push(scene(
        "stencil test gates colour, S8",
        S8,
        vec![
            Step::Draw(draw(slope(0.5, 0.5), RED, mark)),
            Step::Draw(draw(quad(0.5), GREEN, gate)),
        ],
    ));
    // Dynamic reference, compare mask and write mask, different per face.
    let dynamic = State {
        dynamic_stencil: Some([(0x0c, 0xff, 0x0f), (0x30, 0xf0, 0xff)]),
        ..stencil_state(stencil(O::REPLACE, vk::CompareOp::NOT_EQUAL, 0))
    };
    let mut sc = scene(
        "dynamic stencil reference and masks",
        D32S8,
        vec![
            Step::Draw(draw(small(0.5, true, -0.2), RED, dynamic)),
            Step::Draw(draw(small(0.5, false, 0.3), GREEN, dynamic)),
        ],
    );
    sc.clear_stencil = 0x3c;
    out.push(sc);
}

/// The stencil reference a stencil-exporting fragment shader (`FS_STENCIL`) writes at pixel
/// (x, y): past 255 at the right, where only its low 8 bits count (the spec's "masked to
/// s bits").
pub fn exported_stencil(x: u32, y: u32) -> u32 {
    x * 11 + y
}

/// VK_EXT_shader_stencil_export: the exported reference REPLACEs the stored value (on both
/// stencil formats, with and without a depth test), and it is what the compare tests.
fn export_scenes(out: &mut Vec<Scene>) {
    use vk::StencilOp as O;
    let export = |s: vk::StencilOpState| State { export_stencil: true, ..stencil_state(s) };
    for format in [S8, D32S8] {
        let replace = export(stencil(O::REPLACE, vk::CompareOp::ALWAYS, 0x35));
        let mut sc = scene(
            format!("stencil export REPLACE, {format:?}"),
            format,
            vec![Step::Draw(draw(quad(0.5), GREEN, replace))],
        );
        sc.expect_stencil = Some(|x, y| exported_stencil(x, y) as u8);
        out.push(sc);
    }
    // Stored 100 everywhere, then the exported reference LESS than it passes (INCREMENT:
    // 101) and the rest fails (ZERO), drawn under a depth test that passes only on the left.
    let compare = vk::StencilOpState {
        fail_op: O::ZERO,
        pass_op: O::INCREMENT_AND_CLAMP,
        depth_fail_op: O::INVERT,
        compare_op: vk::CompareOp::LESS,
        compare_mask: 0xff,
        write_mask: 0xff,
        reference: 0,
    };
    let fill =
        State { stencil: true, ..stencil_state(stencil(O::REPLACE, vk::CompareOp::ALWAYS, 100)) };
    let test = State {
        depth_test: true,
        compare: vk::CompareOp::LESS,
        export_stencil: true,
        stencil: true,
        front: compare,
        back: compare,
        ..DEPTH
    };
    out.push(scene(
        "stencil export compared LESS, depth-fail on the right",
        D32S8,
        vec![
            Step::Draw(draw(slope(0.9, 0.1), GREY, State { depth_write: true, ..fill })),
            Step::Draw(draw(quad(0.5), GREEN, test)),
        ],
    ));
}

pub fn bias_scenes(out: &mut Vec<Scene>) {
    let biased =
        |b: (f32, f32, f32)| State { bias: Some(b), compare: vk::CompareOp::ALWAYS, ..DEPTH };
    // D16's constant unit: Vulkan leaves r of fixed-point formats implementation-dependent
    // (VK_EXT_depth_bias_control's FORCE_UNORM representation exists because implementations
    // use 2^-n or 2 * 2^-n). Lavapipe uses 2^-15 for D16; Ferrum programs 2^-16 as current RADV
    // does (NEG_NUM_DB_BITS = -16). So D16 constant bias is checked by hand on a flat quad:
    // 0.5 + c * 2^-16, quantised; lavapipe still decides the colours.
    for c in [100.0f32, -4096.0] {
        let mut sc = scene(
            format!("depth bias constant {c}, D16_UNORM, by hand"),
            D16,
            vec![Step::Draw(draw(quad(0.5), GREY, biased((c, 0.0, 0.0))))],
        );
        sc.expect_depth = Some(((0.5 + c / 65536.0) * 65535.0).round() / 65535.0);
        out.push(sc);
    }
    let d16_bias = [("slope", (0.0, 0.0, 2.5)), ("slope, clamped", (0.0, 0.004, 8.0))];
    let d32_bias = [
        ("constant", (100.0, 0.0, 0.0)),
        ("negative constant", (-4096.0, 0.0, 0.0)),
        ("slope", (0.0, 0.0, 2.5)),
        ("slope, clamped", (0.0, 0.004, 8.0)),
        ("constant and slope, negative clamp", (-3000.0, -0.01, -3.0)),
    ];
    for (format, cases) in [(D16, &d16_bias[..]), (D32, &d32_bias[..])] {
        for &(what, b) in cases {
            out.push(scene(
                format!("depth bias {what}, {format:?}"),
                format,
                vec![
                    Step::Draw(draw(quad(0.5), GREY, biased(b))),
                    Step::Draw(draw(slope(0.3, 0.7), RED, biased(b))),
                ],
            ));
        }
        // Dynamic bias; the pipeline's values are zero (no constant on D16, see above).
        let constant = if format == D16 { 0.0 } else { 2000.0 };
        let dynamic = State { dynamic_bias: Some((constant, 0.0, 1.5)), ..biased((0.0, 0.0, 0.0)) };
        out.push(scene(
            format!("depth bias dynamic, {format:?}"),
            format,
            vec![Step::Draw(draw(slope(0.3, 0.7), RED, dynamic))],
        ));
    }
    // Polygons drawn as points and lines carry the polygon's bias. Points: the sloped
    // triangle's vertices lie 0.1 pixel from pixel centres (exact coverage), and their depth
    // shows the constant and the slope term. Lines: a flat triangle, because the depth along
    // a sloped non-strict line may be interpolated across the line differently (lavapipe
    // keeps it constant along the minor axis) by more than D32's tolerance.
    let as_points = State { polygon: vk::PolygonMode::POINT, ..biased((2000.0, 0.0, 2.5)) };
    let as_lines = State { polygon: vk::PolygonMode::LINE, ..biased((2000.0, 0.0, 2.5)) };
    for (name, tris, st) in
        [("points", slope(0.3, 0.7), as_points), ("lines", small(0.4, true, 0.0), as_lines)]
    {
        out.push(scene(
            format!("depth bias of a polygon drawn as {name}, D32_SFLOAT"),
            D32,
            vec![Step::Draw(draw(quad(0.5), GREY, ALWAYS)), Step::Draw(draw(tris, RED, st))],
        ));
    }
    // Bias decides a coplanar overlap: the second triangle at the same depth wins with a
    // negative bias under LESS.
    out.push(scene(
        "depth bias resolves coplanar geometry",
        D32,
        vec![
            Step::Draw(draw(slope(0.3, 0.7), GREY, ALWAYS)),
            Step::Draw(draw(
                slope(0.3, 0.7),
                RED,
                State { bias: Some((-8.0, 0.0, -1.0)), ..DEPTH },
            )),
        ],
    ));
}

pub fn clamp_scenes(out: &mut Vec<Scene>) {
    // z/w from -0.6 to 1.6: beyond near and far.
    let beyond = slope(-0.6, 1.6);
    for clamp in [false, true] {
        for format in [D32, D16] {
            let mut sc = scene(
                format!("depth clamp {clamp}, beyond near and far, {format:?}"),
                format,
                vec![Step::Draw(draw(
                    beyond.clone(),
                    RED,
                    State { depth_clamp: clamp, compare: vk::CompareOp::ALWAYS, ..DEPTH },
                ))],
            );
            sc.depth_range = (0.2, 0.8);
            out.push(sc);
        }
    }
    // A reversed depth range with clamping.
    let mut sc = scene(
        "depth clamp, reversed range",
        D32,
        vec![Step::Draw(draw(
            beyond,
            RED,
            State { depth_clamp: true, compare: vk::CompareOp::ALWAYS, ..DEPTH },
        ))],
    );
    sc.depth_range = (0.9, 0.1);
    out.push(sc);
}

pub fn pass_scenes(out: &mut Vec<Scene>) {
    let all = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
    let mark = State {
        stencil: true,
        front: stencil(vk::StencilOp::INCREMENT_AND_CLAMP, vk::CompareOp::ALWAYS, 0),
        back: stencil(vk::StencilOp::INCREMENT_AND_CLAMP, vk::CompareOp::ALWAYS, 0),
        ..DEPTH
    };
    out.push(scene(
        "clear attachments: depth and stencil rect",
        D32S8,
        vec![
            Step::Draw(draw(quad(0.5), GREY, mark)),
            Step::Clear(all, 0.25, 9, [4, 3, 14, 12]),
            Step::Draw(draw(slope(0.1, 0.6), RED, mark)),
        ],
    ));
    out.push(scene(
        "clear attachments: depth only, then stencil only",
        D32S8,
        vec![
            Step::Draw(draw(quad(0.5), GREY, mark)),
            Step::Clear(vk::ImageAspectFlags::DEPTH, 0.0, 0, [2, 2, 10, 10]),
            Step::Clear(vk::ImageAspectFlags::STENCIL, 0.0, 200, [8, 6, 20, 15]),
            Step::Draw(draw(slope(0.1, 0.6), RED, mark)),
        ],
    ));
    out.push(scene(
        "clear attachments, D16",
        D16,
        vec![
            Step::Draw(draw(quad(0.5), GREY, ALWAYS)),
            Step::Clear(vk::ImageAspectFlags::DEPTH, 0.75, 0, [0, 0, 16, 24]),
            Step::Draw(draw(slope(0.9, 0.6), RED, DEPTH)),
        ],
    ));
    out.push(scene(
        "second pass loads depth and stencil",
        D32S8,
        vec![
            Step::Draw(draw(slope(0.3, 0.6), GREY, mark)),
            Step::NextPass,
            Step::Draw(draw(quad(0.45), RED, mark)),
        ],
    ));
    out.push(scene(
        "second pass loads D16",
        D16,
        vec![
            Step::Draw(draw(slope(0.3, 0.6), GREY, ALWAYS)),
            Step::NextPass,
            Step::Draw(draw(quad(0.45), RED, DEPTH)),
        ],
    ));
    let mut sc = scene(
        "stencil load DONT_CARE, depth CLEAR",
        D32S8,
        vec![Step::Draw(draw(slope(0.3, 0.6), RED, DEPTH))],
    );
    sc.load.1 = vk::AttachmentLoadOp::DONT_CARE;
    out.push(sc);
    // Transfer clears, then a pass that loads them (DB reads what the compute clear wrote).
    for format in [D16, D32S8, S8] {
        let mark = State {
            stencil: true,
            front: stencil(vk::StencilOp::INCREMENT_AND_WRAP, vk::CompareOp::ALWAYS, 0),
            back: stencil(vk::StencilOp::INCREMENT_AND_WRAP, vk::CompareOp::ALWAYS, 0),
            ..DEPTH
        };
        let mut sc = scene(
            format!("vkCmdClearDepthStencilImage, then LOAD, {format:?}"),
            format,
            vec![Step::Draw(draw(slope(0.2, 0.9), RED, mark))],
        );
        sc.transfer_clear = true;
        sc.clear_depth = 0.625;
        sc.clear_stencil = 0xfe;
        out.push(sc);
    }
    // A depth-only prepass without a fragment stage, then the same geometry with EQUAL:
    // colours are written where the prepass wrote depth (invariance across pipelines with
    // the same vertex shader).
    out.push(scene(
        "depth prepass without a fragment shader",
        D32,
        vec![
            Step::Draw(draw(slope(0.3, 0.6), GREY, State { no_fs: true, ..DEPTH })),
            Step::Draw(draw(small(0.4, true, 0.1), GREY, State { no_fs: true, ..DEPTH })),
            Step::Draw(draw(
                slope(0.3, 0.6),
                RED,
                State { compare: vk::CompareOp::EQUAL, ..DEPTH },
            )),
            Step::Draw(draw(
                small(0.4, true, 0.1),
                GREEN,
                State { compare: vk::CompareOp::EQUAL, ..DEPTH },
            )),
        ],
    ));
    let mut sc = scene(
        "depth load DONT_CARE, stencil CLEAR",
        D32S8,
        vec![Step::Draw(draw(
            slope(0.3, 0.6),
            RED,
            stencil_state(stencil(vk::StencilOp::INVERT, vk::CompareOp::ALWAYS, 0)),
        ))],
    );
    sc.load.0 = vk::AttachmentLoadOp::DONT_CARE;
    sc.clear_stencil = 0x0f;
    out.push(sc);
    for format in [D32, D16] {
        out.push(scene(
            format!("depth bounds, {format:?}"),
            format,
            vec![
                Step::Draw(draw(slope(0.2, 0.8), GREY, ALWAYS)),
                Step::Bounds(0.35, 0.55, 0.1, RED),
            ],
        ));
    }
}

pub fn scenes() -> Vec<Scene> {
    let mut out = Vec::new();
    compare_scenes(&mut out);
    stencil_scenes(&mut out);
    bias_scenes(&mut out);
    clamp_scenes(&mut out);
    pass_scenes(&mut out);
    out
}
