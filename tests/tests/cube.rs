//! The demo's textured, lit, depth-tested cube (`ferrum_tests::cube`, what scripts/demo saves
//! as out/cube.png) on Ferrum matches lavapipe, frame by frame, through the loader with the
//! validation layer on.
//!
//! Tolerance: the cube is minified and magnified with trilinear filtering, so texel colours
//! carry the filter weights' precision (subTexelPrecisionBits and mipmapPrecisionBits: 8 on
//! both drivers, so a step of at most 1/256 of two neighbouring texels' difference, < 1/255)
//! and the implicit LOD may use any scale-factor approximation Vulkan allows (16.4.7: between
//! the larger derivative and their sum), which moves the mip blend where the cube's faces are
//! seen at an angle; the lighting is a dot product and one multiply-add, exact to a few ulps.
//! So: every channel within 8/255 (a quarter of the largest gap between mip levels of the
//! procedural texture at the angles rendered), except for edge pixels of the silhouette and of
//! the faces, where coverage may go either way: at most 2 % of the pixels may differ more, each
//! next to a pixel that matches.

use ferrum_tests::cube::Cube;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{entry_with_lavapipe, Harness};

const SIZE: u32 = 96;
/// Per channel, in 1/255 steps.
const CHANNEL: i32 = 8;

fn px(img: &[u8], i: usize) -> [i32; 4] {
    [0, 1, 2, 3].map(|c| i32::from(img[4 * i + c]))
}

fn close(a: [i32; 4], b: [i32; 4]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= CHANNEL)
}

fn save(path: &std::path::Path, img: &[u8]) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut e = png::Encoder::new(file, SIZE, SIZE);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    e.write_header().unwrap().write_image_data(img).unwrap();
}

/// Pixels beyond the channel tolerance, and those of them without a matching 4-neighbour.
fn differences(ours: &[u8], lvp: &[u8]) -> (usize, Vec<(u32, u32)>) {
    let n = (SIZE * SIZE) as usize;
    let mut bad = 0;
    let mut inner = Vec::new();
    for i in 0..n {
        if close(px(ours, i), px(lvp, i)) {
            continue;
        }
        bad += 1;
        let (x, y) = ((i as u32 % SIZE) as i32, (i as u32 / SIZE) as i32);
        let matched = [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            nx >= 0 && ny >= 0 && nx < SIZE as i32 && ny < SIZE as i32 && {
                let j = (ny as u32 * SIZE + nx as u32) as usize;
                close(px(ours, i), px(lvp, j)) || close(px(lvp, i), px(ours, j))
            }
        });
        if !matched {
            inner.push((x as u32, y as u32));
        }
    }
    (bad, inner)
}

#[test]
fn cube_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp_gpu = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours_gpu = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let lvp = Cube::new(&h.instance, lvp_pd, &lvp_gpu, SIZE, SIZE);
    let ours = Cube::new(&h.instance, ours_pd, &ours_gpu, SIZE, SIZE);
    // Both drivers offer a depth attachment format, so both frames are depth-tested (the
    // demo falls back to culling alone only on a device without one).
    assert!(ours.depth.is_some() && lvp.depth.is_some(), "depth: {:?} {:?}", ours.depth, lvp.depth);
    let dump = std::env::var_os("FERRUM_CUBE_PNG").map(std::path::PathBuf::from);
    for (k, angle) in [0.6f32, 1.4, 2.9].into_iter().enumerate() {
        let (a, b) = (ours.frame(angle), lvp.frame(angle));
        if let Some(dir) = &dump {
            save(&dir.join(format!("cube-ferrum-{k}.png")), &a);
            save(&dir.join(format!("cube-lavapipe-{k}.png")), &b);
        }
        // Sanity: the cube covers a good part of the frame on lavapipe.
        let background = (0..(SIZE * SIZE) as usize).filter(|&i| px(&b, i) == px(&b, 0)).count();
        assert!(background < (SIZE * SIZE * 3 / 4) as usize, "frame {k}: lavapipe drew little");
        let (bad, inner) = differences(&a, &b);
        let limit = (SIZE * SIZE / 50) as usize;
        assert!(
            bad <= limit && inner.is_empty(),
            "frame {k} (angle {angle}): {bad} pixels differ by more than {CHANNEL}/255 (limit \
             {limit}); not at an edge: {:?}",
            &inner[..inner.len().min(10)]
        );
    }
    drop((lvp, ours));
    h.assert_clean();
}
