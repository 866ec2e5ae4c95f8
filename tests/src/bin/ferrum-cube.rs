//! `scripts/demo`'s graphics program: a textured, lit, spinning cube (as vkcube draws it)
//! rendered offscreen through a graphics pipeline on whatever driver `VK_DRIVER_FILES` names,
//! saved as a PNG, plus a strip of frames at several angles next to it.
//!
//! Usage: `ferrum-cube OUT.png [WIDTH HEIGHT [FRAMES]]` (the strip is OUT with `-frames`
//! before the extension, written when FRAMES > 1).

use std::time::Instant;

use ash_loaded::vk;
use ferrum_tests::app::{save_png, App};
use ferrum_tests::cube::Cube;
use ferrum_tests::gpu::Gpu;

/// The angle of frame `i`: a quarter turn spread over the frames, from a three-quarter view.
fn angle(i: u32, frames: u32) -> f32 {
    0.6 + std::f32::consts::FRAC_PI_2 * i as f32 / frames.max(1) as f32
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).ok_or("usage: ferrum-cube OUT.png [WIDTH HEIGHT [FRAMES]]")?;
    let width: u32 = args.get(2).map_or(Ok(256), |s| s.parse())?;
    let height: u32 = args.get(3).map_or(Ok(256), |s| s.parse())?;
    let frames: u32 = args.get(4).map_or(Ok(4), |s| s.parse())?;
    let app = App::new(c"ferrum-cube", vk::API_VERSION_1_0)?;
    let start = Instant::now();
    let (images, depth) = {
        let gpu = Gpu::new(&app.instance, app.pd, 0, 1, &[]);
        let cube = Cube::new(&app.instance, app.pd, &gpu, width, height);
        let images: Vec<Vec<u8>> =
            (0..frames.max(1)).map(|i| cube.frame(angle(i, frames))).collect();
        (images, cube.depth)
    };
    let elapsed = start.elapsed();
    let name = app.name.clone();
    drop(app);
    save_png(out, width, height, &images[0])?;
    let hidden = match depth {
        Some(f) => format!("depth-tested ({f:?}) and back faces culled"),
        None => "back faces culled (no depth attachment format on this device)".to_string(),
    };
    println!(
        "{name}: {width}x{height} textured cube, {hidden}, {} frame(s) in {:.2} s -> {out}",
        images.len(),
        elapsed.as_secs_f64()
    );
    if images.len() > 1 {
        // Frames side by side, row by row.
        let n = images.len();
        let mut strip = Vec::with_capacity(images.iter().map(Vec::len).sum());
        for y in 0..height as usize {
            for img in &images {
                let row = width as usize * 4;
                strip.extend_from_slice(&img[y * row..(y + 1) * row]);
            }
        }
        let path = match out.rsplit_once('.') {
            Some((stem, ext)) => format!("{stem}-frames.{ext}"),
            None => format!("{out}-frames"),
        };
        save_png(&path, width * n as u32, height, &strip)?;
        println!("{n} frames at different angles -> {path}");
    }
    Ok(())
}
