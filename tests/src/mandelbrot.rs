//! The demo workload: a Mandelbrot image computed by a compute shader (fixed point, so every
//! driver must produce the same bytes), shared by `ferrum-demo` and the tests.

use ash_loaded::vk;

use crate::gpu::Gpu;
use crate::kernel::{binding, compute_to_host, whole, Kernel, SetPool};
use crate::shaders::compute_spirv;

pub const SHADER: &str = include_str!("../shaders/mandelbrot.comp");

/// The image size and view.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub width: u32,
    pub height: u32,
    pub max_iter: u32,
}

/// Renders on `gpu`; returns RGBA8 pixels, row by row.
pub fn render(gpu: &Gpu, view: View) -> Vec<u8> {
    let d = &gpu.device;
    let bytes = u64::from(view.width) * u64::from(view.height) * 4;
    let image = gpu.host_buffer(bytes);
    let code = compute_spirv(SHADER);
    // Real axis -2.25..0.75 across the width, centred vertically, in 4.12 fixed point.
    let step = (3 * 4096 / view.width as i32).max(1);
    let push: Vec<u8> = [
        view.width,
        view.height,
        (-9 * 4096 / 4) as u32,
        (-(step * view.height as i32) / 2) as u32,
        step as u32,
        view.max_iter,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
    let kernel = Kernel::new(d, &code, &[&bindings], push.len() as u32);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(image.buffer)]);
    gpu.run(|d, cb| {
        kernel.bind(cb, &[set.set], &[]);
        kernel.push(cb, &push);
        // SAFETY: a command buffer in the recording state.
        unsafe { d.cmd_dispatch(cb, view.width.div_ceil(8), view.height.div_ceil(8), 1) };
        compute_to_host(d, cb);
    });
    drop((set, kernel));
    let pixels = image.bytes().to_vec();
    gpu.destroy_buffer(image);
    pixels
}
