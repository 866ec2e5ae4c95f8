//! Logging set-up. Silent unless `FERRUM_LOG` (or, failing that, `RUST_LOG`) holds an
//! `env_logger` filter such as `debug` or `vulkan_ferrum=trace`.

use std::sync::Once;

/// Installs the logger once per process; later calls do nothing.
pub fn init_logging() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let spec = std::env::var("FERRUM_LOG").or_else(|_| std::env::var("RUST_LOG"));
        if let Ok(spec) = spec {
            // An application may have installed its own logger; then Ferrum logs through it.
            let _ = env_logger::Builder::new().parse_filters(&spec).try_init();
        }
    });
}
