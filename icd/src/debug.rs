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

/// `FERRUM_DEBUG`, a comma-separated list of dump switches, parsed once.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DebugFlags {
    /// `pm4`: print every command buffer's PM4 at `vkEndCommandBuffer`.
    pub pm4: bool,
    /// `shaders`: print every compiled compute shader's statistics and ISA.
    pub shaders: bool,
    /// `unproven_formats`: advertise every format feature the hardware has, including paths
    /// not proven yet (bring-up of new paths only; see `format::properties::PROVEN`).
    pub unproven_formats: bool,
}

impl DebugFlags {
    pub fn parse(spec: &str) -> Self {
        let mut flags = DebugFlags::default();
        for word in spec.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "pm4" => flags.pm4 = true,
                "shaders" => flags.shaders = true,
                "unproven_formats" => flags.unproven_formats = true,
                other => log::warn!("FERRUM_DEBUG: unknown switch {other:?}"),
            }
        }
        flags
    }
}

/// The process's debug switches.
pub fn flags() -> &'static DebugFlags {
    static FLAGS: std::sync::OnceLock<DebugFlags> = std::sync::OnceLock::new();
    FLAGS.get_or_init(|| DebugFlags::parse(&std::env::var("FERRUM_DEBUG").unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_switches_parse() {
        assert!(DebugFlags::parse("pm4").pm4);
        assert!(DebugFlags::parse(" x , pm4 ").pm4);
        assert!(!DebugFlags::parse("").pm4);
    }
}
