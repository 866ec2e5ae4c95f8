//! `scripts/demo`'s program: renders the Mandelbrot set with a compute shader through the
//! system Vulkan loader on whatever driver `VK_DRIVER_FILES` names (Ferrum, in the demo) and
//! writes a PNG.
//!
//! Usage: `ferrum-demo OUT.png [WIDTH HEIGHT]`

use std::time::Instant;

use ash_loaded::vk;
use ferrum_tests::app::{save_png, App};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::mandelbrot::{render, View};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).ok_or("usage: ferrum-demo OUT.png [WIDTH HEIGHT]")?;
    let width: u32 = args.get(2).map_or(Ok(320), |s| s.parse())?;
    let height: u32 = args.get(3).map_or(Ok(240), |s| s.parse())?;
    let app = App::new(c"ferrum-demo", vk::API_VERSION_1_0)?;
    let start = Instant::now();
    let pixels = {
        let gpu = Gpu::new(&app.instance, app.pd, 0, 1, &[]);
        render(&gpu, View { width, height, max_iter: 64 })
    };
    let elapsed = start.elapsed();
    let name = app.name.clone();
    drop(app);
    save_png(out, width, height, &pixels)?;
    println!("{name}: {width}x{height} Mandelbrot in {:.2} s -> {out}", elapsed.as_secs_f64());
    Ok(())
}
