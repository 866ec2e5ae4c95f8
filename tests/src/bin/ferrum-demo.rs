//! `scripts/demo`'s program: renders the Mandelbrot set with a compute shader through the
//! system Vulkan loader on whatever driver `VK_DRIVER_FILES` names (Ferrum, in the demo) and
//! writes a PNG.
//!
//! Usage: `ferrum-demo OUT.png [WIDTH HEIGHT]`

use std::time::Instant;

use ash_loaded::{vk, Entry};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::mandelbrot::{render, View};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).ok_or("usage: ferrum-demo OUT.png [WIDTH HEIGHT]")?;
    let width: u32 = args.get(2).map_or(Ok(320), |s| s.parse())?;
    let height: u32 = args.get(3).map_or(Ok(240), |s| s.parse())?;
    // SAFETY: loading the system loader, as every Vulkan application does.
    let entry = unsafe { Entry::load()? };
    let app = vk::ApplicationInfo::default()
        .application_name(c"ferrum-demo")
        .api_version(vk::API_VERSION_1_0);
    // SAFETY: valid create infos; objects are destroyed before the program ends.
    let instance = unsafe {
        entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)?
    };
    // SAFETY: a live instance.
    let pd =
        *unsafe { instance.enumerate_physical_devices()? }.first().ok_or("no Vulkan device")?;
    // SAFETY: a live physical device.
    let props = unsafe { instance.get_physical_device_properties(pd) };
    let name = props.device_name_as_c_str()?.to_string_lossy().into_owned();
    let start = Instant::now();
    let pixels = {
        let gpu = Gpu::new(&instance, pd, 0, 1, &[]);
        render(&gpu, View { width, height, max_iter: 64 })
    };
    let elapsed = start.elapsed();
    // SAFETY: every child object was destroyed with `gpu`.
    unsafe { instance.destroy_instance(None) };
    let file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    println!("{name}: {width}x{height} Mandelbrot in {:.2} s -> {out}", elapsed.as_secs_f64());
    Ok(())
}
