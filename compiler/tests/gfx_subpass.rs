//! Input attachments (`subpassLoad`): the front end turns a `SubpassData` read into an image
//! load at the fragment's integer pixel and the view-index layer, and the simulator runs it
//! against a 2D-array T# (how the driver describes input attachments). Expectations come from
//! the texel pattern written here, not from the compiler.

mod common;

use common::draw::{draw_with, DrawSetup, Texture, H, W};
use common::tri::inside;
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_compiler::amd::abi::DescriptorKind;
use ferrum_compiler::amd::{compile_graphics, default_layout, handle_kind};
use ferrum_compiler::ir::{ImageOp, InstKind, Shader, Stage, SysVal};

fn ir(file: &str, stage: Stage) -> Shader {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn kinds(s: &Shader) -> Vec<InstKind> {
    s.funcs[0].blocks.iter().flat_map(|b| b.insts.iter().map(|i| i.kind.clone())).collect()
}

#[test]
fn subpass_reads_are_2d_array_loads_at_the_fragment() {
    let s = ir("subpass.frag", Stage::Fragment);
    let k = kinds(&s);
    let reads: Vec<_> = k
        .iter()
        .filter_map(|k| match k {
            InstKind::Image(i) if i.op == ImageOp::Read => Some(i.shape),
            _ => None,
        })
        .collect();
    assert_eq!(reads.len(), 1, "{k:?}");
    assert!(reads[0].arrayed && !reads[0].ms && reads[0].coords() == 3, "{:?}", reads[0]);
    for sv in [SysVal::FragCoord, SysVal::ViewIndex] {
        assert!(k.contains(&InstKind::SysVal(sv)), "{sv:?} not read: {k:?}");
    }
    let kinds: Vec<_> = s.vars.iter().filter_map(|v| handle_kind(&s, v.ty)).collect();
    assert_eq!(kinds, [DescriptorKind::InputAttachment]);
}

#[test]
fn multisampled_subpass_reads_take_their_sample() {
    let s = ir("subpass_ms.frag", Stage::Fragment);
    let reads: Vec<_> = kinds(&s)
        .into_iter()
        .filter_map(|k| match k {
            InstKind::Image(i) if i.op == ImageOp::Read => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(reads.len(), 3);
    assert_eq!(reads.iter().filter(|i| i.shape.ms).count(), 2);
    assert!(reads.iter().all(|i| i.shape.arrayed));
    // Compiles for the hardware (per-sample loads: no FMASK in Ferrum's MSAA images).
    let layout = default_layout(&s);
    let ps = compile_graphics(&s, &layout, PsKey::default()).unwrap();
    assert_eq!(ps.isa_text.matches("image_load ").count(), 3, "{}", ps.isa_text);
    assert!(ps.isa_text.contains("SQ_RSRC_IMG_2D_MSAA_ARRAY"), "{}", ps.isa_text);
}

/// Texel (x, y) of the attachment: distinct per pixel and per channel.
fn texel(x: u32, y: u32) -> [f32; 4] {
    [x as f32, y as f32, (x * 3 + y) as f32, 1000.0 + (x ^ y) as f32]
}

#[test]
fn subpass_load_reads_the_fragments_own_pixel() {
    let vs = ir("color.vert", Stage::Vertex);
    let vs = compile_graphics(&vs, &default_layout(&vs), PsKey::default()).unwrap();
    let s = ir("subpass.frag", Stage::Fragment);
    let layout = default_layout(&s);
    let ps = compile_graphics(&s, &layout, PsKey::default()).unwrap();
    let texture = Texture {
        width: W,
        height: H,
        texels: (0..H).flat_map(|y| (0..W).map(move |x| texel(x, y))).collect(),
        ssharp: [0; 4],
        offset: layout.get(0, 0).unwrap().offset,
        arrayed: true,
    };
    let setup =
        DrawSetup { vertices: 3, instances: 1, texture: Some(texture), ..Default::default() };
    let pixels = draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\n{}", ps.isa_text));
    let mut n = 0;
    for y in 0..H {
        for x in 0..W {
            let got = pixels[(y * W + x) as usize];
            match inside(x, y) {
                Some(true) => {
                    let t = texel(x, y);
                    assert_eq!(got, [t[3], t[2], t[1], t[0]], "({x}, {y})");
                    n += 1;
                }
                Some(false) => assert_eq!(got, [0.0; 4], "({x}, {y}) outside"),
                None => {}
            }
        }
    }
    assert!(n > 1000, "{n} pixels inside");
}
