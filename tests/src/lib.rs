//! Helpers shared by the end-to-end tests.
//!
//! The tests reach Ferrum only the way applications do: through the system Vulkan loader
//! (`libvulkan.so.1`), with `VK_DRIVER_FILES` naming a manifest for the freshly built
//! `libvulkan_ferrum.so` so that no other driver is loaded. `ferrum-icd` is a dev-dependency of
//! this crate purely so that `cargo test` rebuilds the cdylib first; its Rust API is used only
//! to compare what came through the loader with what the driver declares.

use std::ffi::{c_void, CStr};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

use ash_loaded::{ext, vk, Entry, Instance};

pub mod app;
pub mod cube;
pub mod draw;
pub mod gpu;
pub mod kernel;
pub mod mandelbrot;
pub mod pipeline;
pub mod scene;
pub mod shaders;
pub mod texels;

const LIBRARY: &str = "libvulkan_ferrum.so";

/// The driver library built for this test run.
///
/// Cargo builds the dev-dependency's cdylib into `target/<profile>/deps/` before running the
/// tests; `target/<profile>/` holds the one `cargo build -p ferrum-icd` makes. The newest wins.
/// Panics with instructions if neither exists: a missing driver must fail, never skip.
pub fn driver_library() -> PathBuf {
    if let Ok(path) = std::env::var("FERRUM_ICD_LIBRARY") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test binary directory");
    let candidates =
        [deps.join(LIBRARY), deps.parent().map(|p| p.join(LIBRARY)).unwrap_or_default()];
    candidates
        .iter()
        .filter_map(|p| Some((std::fs::metadata(p).ok()?.modified().ok()?, p.clone())))
        .max()
        .map(|(_, p)| p)
        .unwrap_or_else(|| {
            panic!(
                "{LIBRARY} not found next to {} — build it with `cargo build -p ferrum-icd`",
                exe.display()
            )
        })
}

/// Writes the ICD manifest for [`driver_library`] once per process and returns its path.
pub fn driver_manifest() -> &'static Path {
    static MANIFEST: OnceLock<PathBuf> = OnceLock::new();
    MANIFEST.get_or_init(|| {
        let lib = driver_library().canonicalize().expect("canonical library path");
        let api = vulkan_ferrum::version::device_api_version();
        let json = serde_json::json!({
            "file_format_version": "1.0.1",
            "ICD": {
                "library_path": lib,
                "api_version": format!("{}.{}.{}", vk::api_version_major(api), vk::api_version_minor(api), vk::api_version_patch(api)),
            }
        });
        let dir = lib.parent().expect("library directory");
        let path = dir.join("ferrum_icd_e2e.json");
        // Write-then-rename: test binaries may run concurrently and must never see half a file.
        let tmp = dir.join(format!("ferrum_icd_e2e.json.{}", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec_pretty(&json).unwrap()).expect("write manifest");
        std::fs::rename(&tmp, &path).expect("rename manifest");
        path
    })
}

/// Points this process's loader at Ferrum alone. Runs once, before the first `Entry::load`,
/// so no other thread can be reading the environment inside the loader meanwhile.
pub fn use_ferrum_only() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let manifest = driver_manifest();
        std::env::set_var("VK_DRIVER_FILES", manifest);
        // Older loaders only know the previous name.
        std::env::set_var("VK_ICD_FILENAMES", manifest);
    });
}

/// Lavapipe's manifest, the reference driver of differential tests.
pub const LAVAPIPE_MANIFEST: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Points this process's loader at Ferrum and lavapipe. A test binary uses either this or
/// [`use_ferrum_only`], never both: the loader reads the variable when instances are created.
pub fn use_ferrum_and_lavapipe() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        assert!(
            Path::new(LAVAPIPE_MANIFEST).exists(),
            "lavapipe missing: install mesa-vulkan-drivers"
        );
        let both = format!("{}:{LAVAPIPE_MANIFEST}", driver_manifest().display());
        std::env::set_var("VK_DRIVER_FILES", &both);
        std::env::set_var("VK_ICD_FILENAMES", &both);
    });
}

/// The system loader seeing Ferrum and lavapipe.
pub fn entry_with_lavapipe() -> Entry {
    use_ferrum_and_lavapipe();
    // SAFETY: as in `entry`.
    unsafe { Entry::load() }.expect("libvulkan.so.1 (install libvulkan1)")
}

/// The system loader, restricted to Ferrum.
pub fn entry() -> Entry {
    use_ferrum_only();
    // SAFETY: loading libvulkan.so.1 runs its initialisers, which is what every Vulkan
    // application does.
    unsafe { Entry::load() }.expect("libvulkan.so.1 (install libvulkan1)")
}

/// Serialises this process's calls that create or destroy instances and devices, or look up
/// device functions (`vkGetDeviceProcAddr`, which ash's `Device::load` and every extension
/// loader such as `khr::synchronization2::Device::new` call).
///
/// The system loader (1.3.239, and later ones: KhronosGroup/Vulkan-Loader#2018) is not safe
/// here: with a layer enabled, `vkGetDeviceProcAddr` goes down the layer chain to the loader's
/// terminator, which looks the device up by walking the device lists of *every* instance in
/// the process without the lock `vkDestroyDevice` holds while it unlinks and frees its entry.
/// Tests run on parallel threads with one instance each, so one test destroying its device
/// while another loads device functions read freed memory: a rare SIGSEGV in
/// `libvulkan.so.1` before any test reported. Holding this guard around those calls (and
/// nothing else: recording and submitting stay parallel) closes the window.
pub fn loader_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    // A test that panicked while holding the guard left nothing half-done in the loader.
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Validation messages of severity warning or error collected by the messenger.
type Sink = Mutex<Vec<String>>;

unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: `user` is the `Sink` owned by the `Harness`, alive while the messenger exists;
    // the layer passes valid callback data.
    let (sink, data) = unsafe { (&*(user as *const Sink), &*data) };
    let text = if data.p_message.is_null() {
        String::new()
    } else {
        // SAFETY: a non-null message is a C string.
        unsafe { CStr::from_ptr(data.p_message) }.to_string_lossy().into_owned()
    };
    sink.lock().unwrap().push(format!("{severity:?}: {text}"));
    vk::FALSE
}

/// An instance on Ferrum, optionally with the Khronos validation layer and a messenger that
/// records every warning and error.
pub struct Harness {
    pub entry: Entry,
    pub instance: Instance,
    messenger: Option<(ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    sink: Box<Sink>,
}

pub const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

impl Harness {
    /// An instance with validation and a debug-utils messenger.
    pub fn validated() -> Self {
        Self::new(true, &[])
    }

    /// An instance without layers (for deliberately invalid usage).
    pub fn plain() -> Self {
        Self::new(false, &[])
    }

    pub fn new(validation: bool, extra_extensions: &[&CStr]) -> Self {
        Self::with_entry(entry(), validation, extra_extensions)
    }

    /// An instance from a given loader entry (for example [`entry_with_lavapipe`]).
    pub fn with_entry(entry: Entry, validation: bool, extra_extensions: &[&CStr]) -> Self {
        let sink: Box<Sink> = Box::default();
        let severity = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
            | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
        let types = vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
            | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE;
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(severity)
            .message_type(types)
            .pfn_user_callback(Some(on_message))
            .user_data(&*sink as *const Sink as *mut c_void);
        let app = vk::ApplicationInfo::default()
            .application_name(c"ferrum-e2e")
            .api_version(vulkan_ferrum::version::instance_api_version());
        let layers = [VALIDATION_LAYER.as_ptr()];
        let mut extensions: Vec<_> = extra_extensions.iter().map(|e| e.as_ptr()).collect();
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if validation {
            extensions.push(ext::debug_utils::NAME.as_ptr());
            info = info.enabled_layer_names(&layers).push_next(&mut messenger_info);
        }
        info = info.enabled_extension_names(&extensions);
        let _loader = loader_lock();
        // SAFETY: a valid create info.
        let instance = unsafe { entry.create_instance(&info, None) }.expect("vkCreateInstance");
        let messenger = validation.then(|| {
            let du = ext::debug_utils::Instance::new(&entry, &instance);
            // SAFETY: a valid create info whose user data outlives the messenger.
            let m = unsafe { du.create_debug_utils_messenger(&messenger_info, None) }
                .expect("messenger");
            (du, m)
        });
        Harness { entry, instance, messenger, sink }
    }

    /// Ferrum's only physical device.
    pub fn physical_device(&self) -> vk::PhysicalDevice {
        // SAFETY: a live instance.
        let pds = unsafe { self.instance.enumerate_physical_devices() }.expect("enumerate");
        assert_eq!(pds.len(), 1, "exactly Ferrum's simulated device is expected");
        pds[0]
    }

    /// The physical device whose name contains `name` (e.g. "Ferrum", "llvmpipe").
    pub fn physical_device_named(&self, name: &str) -> vk::PhysicalDevice {
        // SAFETY: a live instance and its physical devices.
        unsafe {
            let pds = self.instance.enumerate_physical_devices().expect("enumerate");
            *pds.iter()
                .find(|&&pd| {
                    let p = self.instance.get_physical_device_properties(pd);
                    p.device_name_as_c_str().unwrap().to_string_lossy().contains(name)
                })
                .unwrap_or_else(|| panic!("no physical device named like {name:?}"))
        }
    }

    /// Warnings and errors reported so far.
    pub fn messages(&self) -> Vec<String> {
        self.sink.lock().unwrap().clone()
    }

    /// Fails the test if the validation layer reported any warning or error.
    pub fn assert_clean(&self) {
        let msgs = self.messages();
        assert!(msgs.is_empty(), "validation reported:\n{}", msgs.join("\n"));
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _loader = loader_lock();
        // SAFETY: the messenger and instance are live and destroyed exactly once, children first.
        unsafe {
            if let Some((du, m)) = self.messenger.take() {
                du.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// A queue create info for `count` queues of `family`.
pub fn queue_info(family: u32, priorities: &[f32]) -> vk::DeviceQueueCreateInfo<'_> {
    vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(priorities)
}

/// Resident set size of this process in bytes.
pub fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 =
        statm.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("statm rss");
    // x86-64 Linux pages are 4 KiB.
    pages * 4096
}
