//! Graphics pipelines and the pipeline cache, through the loader with the validation layer:
//! a pipeline created through a cache fills it; the cache data, loaded into a new cache on a
//! new device, lets a pipeline be created with FAIL_ON_PIPELINE_COMPILE_REQUIRED
//! (VK_EXT_pipeline_creation_cache_control: no compilation allowed), and that pipeline draws
//! the same image; without the data the same creation reports VK_PIPELINE_COMPILE_REQUIRED.
//! Ferrum only: what a cache holds is implementation-defined.

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::Harness;
use raster::{Target, H, W};

const NAME: &std::ffi::CStr = c"VK_EXT_pipeline_creation_cache_control";

fn gpu(h: &Harness) -> Gpu {
    let mut cc = vk::PhysicalDevicePipelineCreationCacheControlFeatures::default()
        .pipeline_creation_cache_control(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut cc);
    Gpu::with_feature_chain(&h.instance, h.physical_device(), 0, &[NAME], &mut f2)
}

/// Draws a rectangle with `pipeline` (bound instead of the target's) and returns the image.
fn draw(gpu: &Gpu, t: &Target, pipeline: vk::Pipeline) -> Vec<u8> {
    let out = gpu.host_buffer(u64::from(W * H * 4));
    // SAFETY: valid commands on live handles.
    unsafe {
        gpu.run(|d, cb| {
            t.begin(d, cb);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            t.rect_colored(d, cb, [3, 2, 30, 19], [0.25, 0.5, 1.0, 1.0], 1);
            d.cmd_end_render_pass(cb);
            t.read_back(d, cb, &out);
        });
    }
    let bytes = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    bytes
}

#[test]
fn cached_graphics_pipelines_need_no_compilation() {
    let h = Harness::validated();
    let (data, first_image) = {
        let gpu = gpu(&h);
        let d = &gpu.device;
        let t = Target::new(&h, h.physical_device(), &gpu);
        // SAFETY: valid create infos; objects destroyed before the device.
        unsafe {
            let cache =
                d.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None).unwrap();
            let p = t.pipeline_with_cache(d, cache, vk::PipelineCreateFlags::empty()).unwrap();
            let img = draw(&gpu, &t, p);
            let data = d.get_pipeline_cache_data(cache).unwrap();
            d.destroy_pipeline(p, None);
            d.destroy_pipeline_cache(cache, None);
            t.destroy(d);
            (data, img)
        }
    };
    let gpu = gpu(&h);
    let d = &gpu.device;
    let t = Target::new(&h, h.physical_device(), &gpu);
    let fail = vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;
    // SAFETY: as above.
    unsafe {
        let empty = d.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None).unwrap();
        let missed = t.pipeline_with_cache(d, empty, fail);
        assert_eq!(missed.err(), Some(vk::Result::PIPELINE_COMPILE_REQUIRED), "empty cache");
        let info = vk::PipelineCacheCreateInfo::default().initial_data(&data);
        let loaded = d.create_pipeline_cache(&info, None).unwrap();
        let p = t.pipeline_with_cache(d, loaded, fail).expect("pipeline from the loaded cache");
        let img = draw(&gpu, &t, p);
        assert_eq!(img, first_image, "the cached pipeline draws another image");
        d.destroy_pipeline(p, None);
        d.destroy_pipeline_cache(empty, None);
        d.destroy_pipeline_cache(loaded, None);
    }
    t.destroy(d);
    drop(gpu);
    h.assert_clean();
}
