//! `FERRUM_DEBUG` flags the compiler reads, parsed once.

use std::sync::OnceLock;

/// Typed debug flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct DebugFlags {
    /// `ir`: print the IR after every pass to stderr.
    pub ir: bool,
    /// `validate`: validate after every pass even in release builds.
    pub validate: bool,
    /// `shaders`: print the machine code of every compiled shader to stderr.
    pub shaders: bool,
    /// `nounroll`: skip `opt_loop_unroll` (to measure what it does, or to bisect with it).
    pub no_unroll: bool,
}

impl DebugFlags {
    /// Parses a comma-separated flag list.
    pub fn parse(s: &str) -> Self {
        let mut f = DebugFlags::default();
        for w in s.split(',').map(str::trim) {
            match w {
                "ir" => f.ir = true,
                "validate" => f.validate = true,
                "shaders" => f.shaders = true,
                "nounroll" => f.no_unroll = true,
                _ => {}
            }
        }
        f
    }

    /// Flags from the environment (read once per process).
    pub fn get() -> Self {
        static FLAGS: OnceLock<DebugFlags> = OnceLock::new();
        *FLAGS.get_or_init(|| DebugFlags::parse(&std::env::var("FERRUM_DEBUG").unwrap_or_default()))
    }
}
