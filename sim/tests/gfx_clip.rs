//! Clipping, culling and the viewport transform of the graphics front end, checked against
//! hand-computed window coordinates: each view-volume plane, the guard band, user clip
//! planes, clip and cull distances, face culling, polygon modes, point size and lines.
//!
//! Unless a test says otherwise the viewport is 100 x 100 at the origin with depth 0..1, so a
//! clip-space (x, y, z, 1) lands at window (50x + 50, 50y + 50, z).

mod common;
mod front;

use ferrum_regs::gfx103::{self as r, enums::VGT_DI_PRIM_TYPE as pt};
use ferrum_sim::gfx::{PrimKind, SetupPrim};
use front::{Draw, Scene};

type V4 = [f32; 4];
/// A plane's name, a triangle with its second vertex outside it, and the two new vertices.
type PlaneCase = (&'static str, [V4; 3], [[f32; 3]; 2]);

fn scene_with(verts: &[(V4, V4)]) -> Scene {
    Scene::new(verts, true)
}

fn tri(a: V4, b: V4, c: V4) -> Vec<(V4, V4)> {
    vec![(a, [1.0; 4]), (b, [1.0; 4]), (c, [1.0; 4])]
}

/// The state for a POS1 export that is ignored (a CCDIST0 vector with no distance enabled).
fn base() -> Draw {
    let vs_out_cntl = r::PA_CL_VS_OUT_CNTL::VS_OUT_CCDIST0_VEC_ENA.val(1);
    Draw { vs_out_cntl, pos1: true, ..Draw::default() }
}

fn run(verts: &[(V4, V4)], d: &Draw) -> Vec<SetupPrim> {
    let s = scene_with(verts);
    let b = s.auto(d, verts.len() as u32).expect("draw faulted");
    b.into_iter().flat_map(|b| b.prims).collect()
}

fn xyz(p: &SetupPrim) -> Vec<[f32; 3]> {
    p.v.iter().map(|v| [v.x, v.y, v.z]).collect()
}

fn assert_close(got: &[Vec<[f32; 3]>], want: &[Vec<[f32; 3]>], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: primitive count; got {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.len(), w.len(), "{what}");
        for (a, b) in g.iter().zip(w) {
            for c in 0..3 {
                assert!((a[c] - b[c]).abs() < 1e-4, "{what}: got {g:?}, want {w:?}");
            }
        }
    }
}

/// Window coordinates of clip-space (x, y, z) with w = 1 in the default viewport.
fn win(x: f32, y: f32, z: f32) -> [f32; 3] {
    [50.0 * x + 50.0, 50.0 * y + 50.0, z]
}

#[test]
fn viewport_transform_and_perspective_divide() {
    // Vulkan viewport x 10, y 120, width 200, height -100 (flipped), depth 0.2..0.6.
    let d = Draw { viewport: [10.0, 120.0, 200.0, -100.0, 0.2, 0.6], ..base() };
    let p = run(&tri([0.5, -0.5, 0.25, 2.0], [0.0, 0.0, 0.0, 1.0], [-1.0, 1.0, 1.0, 1.0]), &d);
    // ndc (0.25, -0.25, 0.125): x = 100·0.25 + 110, y = −50·(−0.25) + 70, z = 0.4·0.125 + 0.2.
    assert_close(
        &[xyz(&p[0])],
        &[vec![[135.0, 82.5, 0.25], [110.0, 70.0, 0.2], [10.0, 20.0, 0.6]]],
        "viewport",
    );
    assert_eq!(p[0].v[0].inv_w, 0.5);
    // VTX_W0_FMT = 0: no reciprocal w for perspective interpolation.
    let d = Draw { vte_cntl: 0x3f, ..d };
    let p = run(&tri([0.5, -0.5, 0.25, 2.0], [0.0, 0.0, 0.0, 1.0], [-1.0, 1.0, 1.0, 1.0]), &d);
    assert_eq!(p[0].v[0].inv_w, 1.0);
}

#[test]
fn each_view_volume_plane_clips() {
    let z = 0.5;
    let cases: [PlaneCase; 6] = [
        (
            "x <= w",
            [[0., 0., z, 1.], [2., 0., z, 1.], [0., 1., z, 1.]],
            [[1., 0., z], [1., 0.5, z]],
        ),
        (
            "x >= -w",
            [[0., 0., z, 1.], [-2., 0., z, 1.], [0., 1., z, 1.]],
            [[-1., 0., z], [-1., 0.5, z]],
        ),
        (
            "y <= w",
            [[0., 0., z, 1.], [0., 2., z, 1.], [1., 0., z, 1.]],
            [[0., 1., z], [0.5, 1., z]],
        ),
        (
            "y >= -w",
            [[0., 0., z, 1.], [0., -2., z, 1.], [1., 0., z, 1.]],
            [[0., -1., z], [0.5, -1., z]],
        ),
        (
            "z >= 0",
            [[0., 0., 0.5, 1.], [0.5, 0., -0.5, 1.], [0., 0.5, 0.5, 1.]],
            [[0.25, 0., 0.], [0.25, 0.25, 0.]],
        ),
        (
            "z <= w",
            [[0., 0., 0.5, 1.], [0.5, 0., 1.5, 1.], [0., 0.5, 0.5, 1.]],
            [[0.25, 0., 1.], [0.25, 0.25, 1.]],
        ),
    ];
    for (what, [a, b, c], [ab, cb]) in cases {
        let p = run(&tri(a, b, c), &base());
        let (a, ab, cb, c) = (
            win(a[0], a[1], a[2]),
            win(ab[0], ab[1], ab[2]),
            win(cb[0], cb[1], cb[2]),
            win(c[0], c[1], c[2]),
        );
        // The quad A, AB, CB, C as a fan around A.
        let got: Vec<_> = p.iter().map(xyz).collect();
        assert_close(&got, &[vec![a, ab, cb], vec![a, cb, c]], what);
        // Parameters are interpolated too: PARAM0.z is the clip-space x.
        let x_param = f32::from_bits(p[0].v[1].params[0][2]);
        assert!((x_param - (ab[0] - 50.0) / 50.0).abs() < 1e-5, "{what}: param {x_param}");
    }
}

#[test]
fn opengl_near_plane_and_disabled_z_clipping() {
    let t = tri([0., 0., 0.5, 1.], [0.5, 0., -1.5, 1.], [0., 0.5, 0.5, 1.]);
    // DX_CLIP_SPACE_DEF = 0: z >= -w; z + w is 1.5 and -0.5, so t = 0.75 from A and from C.
    let d = Draw { clip_cntl: 0, ..base() };
    let p = run(&t, &d);
    assert_close(
        &[xyz(&p[0])],
        &[vec![win(0., 0., 0.5), win(0.375, 0., -1.0), win(0.375, 0.125, -1.0)]],
        "z >= -w",
    );
    // ZCLIP_NEAR_DISABLE (depth clamp): not clipped at all.
    let clip_cntl = r::PA_CL_CLIP_CNTL::DX_CLIP_SPACE_DEF.val(1)
        | r::PA_CL_CLIP_CNTL::ZCLIP_NEAR_DISABLE.val(1);
    let p = run(&t, &Draw { clip_cntl, ..base() });
    assert_eq!(p.len(), 1);
    assert_close(
        &[xyz(&p[0])],
        &[vec![win(0., 0., 0.5), win(0.5, 0., -1.5), win(0., 0.5, 0.5)]],
        "near disabled",
    );
}

#[test]
fn guard_band_moves_the_xy_planes() {
    let d = Draw { gb: [2.0, 2.0], ..base() };
    // Outside the viewport but inside the guard band: untouched.
    let p = run(&tri([0., 0., 0.5, 1.], [1.5, 0., 0.5, 1.], [0., 1., 0.5, 1.]), &d);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].v[1].x, 125.0);
    // Beyond it: clipped at x = 2w.
    let p = run(&tri([0., 0., 0.5, 1.], [4., 0., 0.5, 1.], [0., 1., 0.5, 1.]), &d);
    assert_close(
        &p.iter().map(xyz).collect::<Vec<_>>(),
        &[
            vec![win(0., 0., 0.5), win(2., 0., 0.5), win(2., 0.5, 0.5)],
            vec![win(0., 0., 0.5), win(2., 0.5, 0.5), win(0., 1., 0.5)],
        ],
        "guard band",
    );
}

#[test]
fn wholly_inside_and_wholly_outside() {
    let inside = tri([0., 0., 0.5, 1.], [0.5, 0., 0.5, 1.], [0., 0.5, 0.5, 1.]);
    let d = Draw { su_mode: r::PA_SU_SC_MODE_CNTL::PROVOKING_VTX_LAST.val(1), ..base() };
    let p = run(&inside, &d);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].provoking, 2, "an unclipped triangle keeps its provoking vertex");
    let outside = tri([2., 0., 0.5, 1.], [3., 0., 0.5, 1.], [2., 1., 0.5, 1.]);
    assert!(run(&outside, &base()).is_empty());
    // Behind the eye (w < 0) with z clipping off: the w > 0 plane removes it.
    let clip_cntl = r::PA_CL_CLIP_CNTL::ZCLIP_NEAR_DISABLE.val(1)
        | r::PA_CL_CLIP_CNTL::ZCLIP_FAR_DISABLE.val(1);
    let behind = tri([0., 0., 0.5, -1.], [0.1, 0., 0.5, -1.], [0., 0.1, 0.5, -1.]);
    assert!(run(&behind, &Draw { clip_cntl, gb: [1e6, 1e6], ..base() }).is_empty());
}

#[test]
fn user_clip_planes_clip_or_cull() {
    // Plane 0 keeps -x + 0.5w >= 0 (x <= 0.5).
    let mut ucp = [[0.0; 4]; 6];
    ucp[0] = [-1.0, 0.0, 0.0, 0.5];
    let t = tri([0., 0., 0.5, 1.], [1., 0., 0.5, 1.], [0., 1., 0.5, 1.]);
    let clip_cntl =
        r::PA_CL_CLIP_CNTL::DX_CLIP_SPACE_DEF.val(1) | r::PA_CL_CLIP_CNTL::UCP_ENA_0.val(1);
    let p = run(&t, &Draw { clip_cntl, ucp, ..base() });
    assert_close(
        &p.iter().map(xyz).collect::<Vec<_>>(),
        &[
            vec![win(0., 0., 0.5), win(0.5, 0., 0.5), win(0.5, 0.5, 0.5)],
            vec![win(0., 0., 0.5), win(0.5, 0.5, 0.5), win(0., 1., 0.5)],
        ],
        "ucp",
    );
    // Cull only: the partly outside triangle stays whole, a wholly outside one goes.
    let cull = clip_cntl | r::PA_CL_CLIP_CNTL::UCP_CULL_ONLY_ENA.val(1);
    assert_eq!(run(&t, &Draw { clip_cntl: cull, ucp, ..base() }).len(), 1);
    let out = tri([0.6, 0., 0.5, 1.], [1., 0., 0.5, 1.], [0.7, 1., 0.5, 1.]);
    assert!(run(&out, &Draw { clip_cntl: cull, ucp, ..base() }).is_empty());
}

#[test]
fn clip_and_cull_distances() {
    use r::PA_CL_VS_OUT_CNTL as C;
    let v = |x: f32, y: f32, d0: f32, d1: f32| ([x, y, 0.5, 1.0], [d0, d1, 0.0, 0.0]);
    // Distance 0 is 1, -1, 1: the second vertex is cut at t = 0.5.
    let verts = [v(0., 0., 1., 1.), v(1., 0., -1., 1.), v(0., 1., 1., 1.)];
    let vs_out_cntl = C::VS_OUT_CCDIST0_VEC_ENA.val(1) | C::CLIP_DIST_ENA_0.val(1);
    let p = run(&verts, &Draw { vs_out_cntl, ..base() });
    assert_close(
        &p.iter().map(xyz).collect::<Vec<_>>(),
        &[
            vec![win(0., 0., 0.5), win(0.5, 0., 0.5), win(0.5, 0.5, 0.5)],
            vec![win(0., 0., 0.5), win(0.5, 0.5, 0.5), win(0., 1., 0.5)],
        ],
        "clip distance",
    );
    // Cull distance 1: culled only when every vertex is negative.
    let cull = C::VS_OUT_CCDIST0_VEC_ENA.val(1) | C::CULL_DIST_ENA_1.val(1);
    let some = [v(0., 0., 0., -1.), v(1., 0., 0., 1.), v(0., 1., 0., -1.)];
    let p = run(&some, &Draw { vs_out_cntl: cull, ..base() });
    assert_eq!(p.len(), 1, "one vertex inside: kept whole");
    assert_eq!(p[0].v.len(), 3);
    let all = [v(0., 0., 0., -1.), v(1., 0., 0., -2.), v(0., 1., 0., -0.5)];
    assert!(run(&all, &Draw { vs_out_cntl: cull, ..base() }).is_empty());
    // Points: a clip distance does not clip them; a cull distance culls.
    let point = [v(0., 0., -1., -1.)];
    let pts = |vs_out_cntl| Draw { vs_out_cntl, prim_type: pt::DI_PT_POINTLIST, ..base() };
    assert_eq!(run(&point, &pts(vs_out_cntl)).len(), 1);
    assert!(run(&point, &pts(cull)).is_empty());
}

#[test]
fn face_culling_follows_vulkan_winding() {
    use r::PA_SU_SC_MODE_CNTL as S;
    // Window (50,50), (75,50), (50,75): Vulkan's signed area is negative, so clockwise.
    let t = tri([0., 0., 0.5, 1.], [0.5, 0., 0.5, 1.], [0., 0.5, 0.5, 1.]);
    let with = |su_mode| run(&t, &Draw { su_mode, ..base() });
    let p = with(0);
    assert!(!p[0].front_facing, "FACE = 0: counter-clockwise is front");
    assert!(with(S::FACE.val(1))[0].front_facing);
    assert!(with(S::CULL_BACK.val(1)).is_empty());
    assert_eq!(with(S::CULL_FRONT.val(1)).len(), 1);
    assert!(with(S::CULL_FRONT.val(1) | S::FACE.val(1)).is_empty());
    // The reversed triangle is counter-clockwise.
    let rev = tri([0., 0., 0.5, 1.], [0., 0.5, 0.5, 1.], [0.5, 0., 0.5, 1.]);
    assert!(run(&rev, &base())[0].front_facing);
    // Lines and points are never face-culled.
    let d = Draw {
        su_mode: S::CULL_BACK.val(1) | S::CULL_FRONT.val(1),
        prim_type: pt::DI_PT_LINESTRIP,
        ..base()
    };
    assert_eq!(run(&t, &d).len(), 2);
}

#[test]
fn polygon_modes_emit_edges_or_vertices() {
    use r::PA_SU_SC_MODE_CNTL as S;
    let t = tri([0., 0., 0.5, 1.], [0.5, 0., 0.5, 1.], [0., 0.5, 0.5, 1.]);
    let lines =
        S::POLY_MODE.val(1) | S::POLYMODE_FRONT_PTYPE.val(1) | S::POLYMODE_BACK_PTYPE.val(1);
    let p = run(&t, &Draw { su_mode: lines, ..base() });
    assert_eq!(p.len(), 3);
    assert!(p.iter().all(|p| p.kind == PrimKind::Line && p.line_width == 1.0 && !p.front_facing));
    assert_close(
        &p.iter().map(xyz).collect::<Vec<_>>(),
        &[
            vec![win(0., 0., 0.5), win(0.5, 0., 0.5)],
            vec![win(0.5, 0., 0.5), win(0., 0.5, 0.5)],
            vec![win(0., 0.5, 0.5), win(0., 0., 0.5)],
        ],
        "line mode",
    );
    // Back faces as points, front faces filled: this clockwise triangle is a back face.
    let points =
        S::POLY_MODE.val(1) | S::POLYMODE_FRONT_PTYPE.val(2) | S::POLYMODE_BACK_PTYPE.val(0);
    let p = run(&t, &Draw { su_mode: points, ..base() });
    assert_eq!(p.iter().map(|p| p.kind).collect::<Vec<_>>(), [PrimKind::Point; 3]);
    let p = run(&t, &Draw { su_mode: points | S::FACE.val(1), ..base() });
    assert_eq!(p.iter().map(|p| p.kind).collect::<Vec<_>>(), [PrimKind::Triangle]);
    // Point mode with per-vertex sizes: each point has its own vertex's size.
    use r::PA_CL_VS_OUT_CNTL as C;
    let sized: Vec<_> =
        t.iter().zip([3.0, 4.0, 5.0]).map(|(v, s)| (v.0, [s, 0.0, 0.0, 0.0])).collect();
    let vs_out_cntl = C::VS_OUT_MISC_VEC_ENA.val(1) | C::USE_VTX_POINT_SIZE.val(1);
    let p = run(&sized, &Draw { su_mode: points, vs_out_cntl, ..base() });
    assert_eq!(p.iter().map(|p| p.point_size).collect::<Vec<_>>(), [3.0, 4.0, 5.0]);
}

#[test]
fn point_size_from_register_or_vertex_and_clamped() {
    use r::PA_CL_VS_OUT_CNTL as C;
    let pt_at = |size: f32| vec![([0.0, 0.0, 0.5, 1.0], [size, 0.0, 0.0, 0.0])];
    // PA_SU_POINT_SIZE holds the half size in 12.4: 3.5 -> 7 pixels.
    let d = Draw { prim_type: pt::DI_PT_POINTLIST, point_size: 0x38, ..base() };
    assert_eq!(run(&pt_at(0.0), &d)[0].point_size, 7.0);
    let misc = C::VS_OUT_MISC_VEC_ENA.val(1) | C::USE_VTX_POINT_SIZE.val(1);
    let d = Draw { vs_out_cntl: misc, ..d };
    assert_eq!(run(&pt_at(5.0), &d)[0].point_size, 5.0);
    // MINMAX half sizes 1 and 2: diameters clamp to 2..4.
    let d = Draw { point_minmax: (1 << 4) | (2 << 4) << 16, ..d };
    assert_eq!(run(&pt_at(5.0), &d)[0].point_size, 4.0);
    assert_eq!(run(&pt_at(0.5), &d)[0].point_size, 2.0);
    // Points outside the discard band are dropped, not clipped.
    let d = Draw { prim_type: pt::DI_PT_POINTLIST, ..base() };
    assert!(run(&[([1.5, 0.0, 0.5, 1.0], [0.0; 4])], &d).is_empty());
    assert_eq!(run(&[([0.99, 0.0, 0.5, 1.0], [0.0; 4])], &d).len(), 1);
}

#[test]
fn lines_clip_to_segments() {
    let d = Draw { prim_type: pt::DI_PT_LINELIST, line_width: 20, ..base() };
    let verts = [([0.0, 0.0, 0.5, 1.0], [0.0; 4]), ([2.0, 1.0, 0.5, 1.0], [0.0; 4])];
    let p = run(&verts, &d);
    assert_close(&[xyz(&p[0])], &[vec![win(0., 0., 0.5), win(1., 0.5, 0.5)]], "line");
    assert_eq!(p[0].line_width, 2.5, "PA_SU_LINE_CNTL.WIDTH is the half width in 12.4");
    let out = [([1.5, 0.0, 0.5, 1.0], [0.0; 4]), ([2.0, 1.0, 0.5, 1.0], [0.0; 4])];
    assert!(run(&out, &d).is_empty());
}

#[test]
fn rasterization_kill_drops_everything() {
    let t = tri([0., 0., 0.5, 1.], [0.5, 0., 0.5, 1.], [0., 0.5, 0.5, 1.]);
    let clip_cntl = r::PA_CL_CLIP_CNTL::DX_CLIP_SPACE_DEF.val(1)
        | r::PA_CL_CLIP_CNTL::DX_RASTERIZATION_KILL.val(1);
    assert!(run(&t, &Draw { clip_cntl, ..base() }).is_empty());
}

#[test]
fn per_vertex_viewport_and_layer_indices() {
    use r::PA_CL_VS_OUT_CNTL as C;
    let vs_out_cntl = C::VS_OUT_MISC_VEC_ENA.val(1)
        | C::USE_VTX_VIEWPORT_INDX.val(1)
        | C::USE_VTX_RENDER_TARGET_INDX.val(1);
    let d = Draw { vs_out_cntl, ..base() };
    // Misc vector: layer 5 in z, viewport index in w (integers).
    let misc = |vp: u32| [0.0, 0.0, f32::from_bits(5), f32::from_bits(vp)];
    let verts = |vp| {
        let m = misc(vp);
        vec![([0., 0., 0.5, 1.], m), ([0.5, 0., 0.5, 1.], m), ([0., 0.5, 0.5, 1.], m)]
    };
    // Viewport 1: x 200, y 0, 20 x 20, depth 0..1.
    let mut vp1 = Vec::new();
    let v1 = [10.0f32, 210.0, 10.0, 10.0, 1.0, 0.0].map(f32::to_bits);
    front::set_regs(&mut vp1, r::PA_CL_VPORT_XSCALE + 24, &v1);
    front::packet(&mut vp1, front::DRAW_INDEX_AUTO, &[3, 2]);
    let s = scene_with(&verts(1));
    let p: Vec<_> = s.draw(&d, &vp1).unwrap().into_iter().flat_map(|b| b.prims).collect();
    assert_eq!((p[0].viewport, p[0].layer), (1, 5));
    assert_close(
        &[xyz(&p[0])],
        &[vec![[210.0, 10.0, 0.5], [215.0, 10.0, 0.5], [210.0, 15.0, 0.5]]],
        "viewport 1",
    );
    // Viewport 2 was never written; index 16 does not exist.
    assert!(scene_with(&verts(2)).auto(&d, 3).is_none());
    assert!(scene_with(&verts(16)).auto(&d, 3).is_none());
    assert_eq!(run(&verts(0), &d)[0].viewport, 0);
}

#[test]
fn nan_positions_discard_the_primitive() {
    let nan = f32::NAN;
    assert!(
        run(&tri([0., 0., 0.5, 1.], [nan, 0., 0.5, 1.], [0., 0.5, 0.5, 1.]), &base()).is_empty()
    );
    assert!(
        run(&tri([0., 0., 0.5, 1.], [0.5, 0., 0.5, nan], [0., 0.5, 0.5, 1.]), &base()).is_empty()
    );
    let d = Draw { prim_type: pt::DI_PT_POINTLIST, ..base() };
    assert!(run(&[([0.0, nan, 0.5, 1.0], [0.0; 4])], &d).is_empty());
}
