//! The start-up the programs in `src/bin` share: the system loader, an instance without
//! layers, and the first physical device it offers (whatever driver `VK_DRIVER_FILES`
//! names: Ferrum in the demo and benchmarks, lavapipe for comparison), plus writing an RGBA8
//! image as a PNG.
//!
//! The instance is destroyed when the `App` drops; a program makes its `Gpu` in an inner
//! scope (or drops it first) so that the device goes before the instance.

use std::error::Error;
use std::ffi::CStr;

use ash_loaded::{vk, Entry, Instance};

/// An instance and its first physical device.
pub struct App {
    pub entry: Entry,
    pub instance: Instance,
    pub pd: vk::PhysicalDevice,
    /// The physical device's name.
    pub name: String,
}

impl App {
    /// Loads the system loader and makes an instance of `api_version` named `name`.
    pub fn new(name: &CStr, api_version: u32) -> Result<App, Box<dyn Error>> {
        // SAFETY: loading the system loader, as every Vulkan application does.
        let entry = unsafe { Entry::load()? };
        let app = vk::ApplicationInfo::default().application_name(name).api_version(api_version);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: a valid create info; the instance is destroyed in Drop.
        let instance = unsafe { entry.create_instance(&info, None)? };
        // SAFETY: a live instance and its physical devices.
        let found = unsafe {
            instance.enumerate_physical_devices().map(|pds| {
                pds.first().map(|&pd| {
                    let props = instance.get_physical_device_properties(pd);
                    let name = props.device_name_as_c_str().map(|n| n.to_string_lossy());
                    (pd, name.map(|n| n.into_owned()).unwrap_or_default())
                })
            })
        };
        match found {
            Ok(Some((pd, name))) => Ok(App { entry, instance, pd, name }),
            failed => {
                // SAFETY: the instance has no children yet.
                unsafe { instance.destroy_instance(None) };
                Err(match failed {
                    Err(e) => format!("vkEnumeratePhysicalDevices: {e}").into(),
                    _ => "no Vulkan device".into(),
                })
            }
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        // SAFETY: every child object (the programs' `Gpu`s) was destroyed before.
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// Writes `rgba` (`width` x `height` RGBA8 texels, row by row) to `path` as a PNG.
pub fn save_png(path: &str, width: u32, height: u32, rgba: &[u8]) -> Result<(), Box<dyn Error>> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(rgba)?;
    Ok(())
}
