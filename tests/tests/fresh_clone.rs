//! The README's main command on a fresh clone: `git clone` of this repository's HEAD into an
//! empty folder, then `scripts/demo` there, with no build products from this checkout. A build
//! step the demo forgets shows up here instead of on a new user's machine (issue 11: `--bin`
//! once left the driver's cdylib unbuilt, which a warm `target/` hid).
//!
//! Slow (a full build of the driver in the clone), so it is `#[ignore]`d in `cargo test` and run
//! by `scripts/test` explicitly with `--ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{text}", out.status);
    text
}

/// Decodes an RGBA8 PNG into (width, height, pixels).
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(file).read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG image data");
    assert_eq!(info.color_type, png::ColorType::Rgba, "the demo writes RGBA");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
#[ignore = "builds the driver in a fresh clone (minutes); scripts/test runs it"]
fn readme_demo_works_on_a_fresh_clone() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let clone = dir.path().join("ferrum");
    run(Command::new("git").arg("clone").arg("--quiet").arg(repo_root()).arg(&clone));
    // The clone must build into its own empty target/, whatever this shell points cargo at.
    let log = run(Command::new(clone.join("scripts/demo"))
        .current_dir(&clone)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("VK_DRIVER_FILES")
        .env_remove("VK_ICD_FILENAMES"));

    let (w, h, rgba) = decode_png(&clone.join("out/mandelbrot.png"));
    assert_eq!((w, h), (320, 240), "README: the demo renders 320x240\n{log}");
    let mut colours: Vec<[u8; 4]> =
        rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect();
    colours.sort_unstable();
    colours.dedup();
    // A Mandelbrot image has the set's interior colour plus a gradient of escape counts; a
    // flat or nearly flat image means the shader did not run.
    assert!(colours.len() >= 16, "only {} distinct colours in the demo's image", colours.len());
    let (w, h, cube) = decode_png(&clone.join("out/cube.png"));
    assert_eq!((w, h), (256, 256), "scripts/demo renders the cube at 256x256\n{log}");
    let mut colours: Vec<[u8; 4]> =
        cube.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect();
    colours.sort_unstable();
    colours.dedup();
    // A textured, lit cube has hundreds of colours; the background alone has one.
    assert!(colours.len() >= 64, "only {} distinct colours in out/cube.png", colours.len());
    let summary = std::fs::read_to_string(clone.join("out/vulkaninfo-summary.txt"))
        .expect("the demo writes out/vulkaninfo-summary.txt");
    assert!(summary.contains("Ferrum"), "vulkaninfo summary does not name Ferrum:\n{summary}");
}
