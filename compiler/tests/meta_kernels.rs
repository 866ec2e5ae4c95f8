//! Kernels built in code with `meta::KernelBuilder` (the driver's internal copies): they run
//! in the interpreter with hand-checkable results and compile to code llvm-mc reassembles.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::interp::{self, Buffer, Image, Resources, TexelKind};
use ferrum_compiler::ir::{AluOp, ImageDim, ImageShape, Shader};
use ferrum_compiler::meta::{self, KernelBuilder};

const D2: ImageShape = ImageShape { dim: ImageDim::D2, arrayed: false, ms: false };

/// `buffer[y * w + x] = image[x, y]` for x < w, y < h (w, h in push constants 0 and 4);
/// with `reverse`, `image[x, y] = buffer[y * w + x]`.
fn copy_kernel(reverse: bool) -> Shader {
    let mut k =
        KernelBuilder::new(if reverse { "buffer_to_image" } else { "image_to_buffer" }, [8, 8, 1]);
    let id = k.global_id();
    let (x, y) = (k.component(id, 0), k.component(id, 1));
    let wh = k.push_constants(0, 2);
    let (w, h) = (k.component(wh, 0), k.component(wh, 1));
    let in_x = k.cmp(AluOp::Ult, x, w);
    let in_y = k.cmp(AluOp::Ult, y, h);
    let inside = k.alu(AluOp::Iand, 1, 1, &[in_x, in_y]);
    k.if_then(inside, |k| {
        let img = k.descriptor(0, 0, None);
        let buf = k.descriptor(0, 1, None);
        let row = k.op(AluOp::Imul, &[y, w]);
        let texel_index = k.op(AluOp::Iadd, &[row, x]);
        let sixteen = k.imm(16);
        let off = k.op(AluOp::Imul, &[texel_index, sixteen]);
        let coord = k.vec(&[x, y]);
        if reverse {
            let t = k.buffer_load(buf, off, 4);
            k.image_write(img, D2, coord, t);
        } else {
            let t = k.image_read(img, D2, coord);
            k.buffer_store(buf, off, t);
        }
    });
    k.finish()
}

fn layout() -> ResourceLayout {
    let mut bindings = BTreeMap::new();
    let b = |kind, offset| BindingLayout { kind, offset, array_size: 1 };
    bindings.insert((0, 0), b(DescriptorKind::StorageImage, 0));
    bindings.insert((0, 1), b(DescriptorKind::StorageBuffer, 32));
    ResourceLayout { bindings }
}

fn resources(w: u32, h: u32) -> Resources {
    let mut img = Image::new((0, 0, 0), [w, h, 1], 1, 1, TexelKind::Uint);
    for (i, t) in img.texels.iter_mut().enumerate() {
        *t = [i as u32, 1000 + i as u32, 2000 + i as u32, 3000 + i as u32];
    }
    let buf = Buffer {
        set: 0,
        binding: 1,
        index: 0,
        data: (0..w * h * 16).map(|i| (i * 7) as u8).collect(),
    };
    let mut push = w.to_le_bytes().to_vec();
    push.extend(h.to_le_bytes());
    Resources { buffers: vec![buf], images: vec![img], push, ..Default::default() }
}

fn llvm_mc_bytes(text: &str) -> Vec<u8> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc is required (apt install llvm)");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "llvm-mc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut bytes = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(enc) = line.split("encoding: [").nth(1) else { continue };
        for b in enc.trim_end_matches(']').split(',') {
            bytes.push(u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap());
        }
    }
    bytes
}

#[test]
fn image_to_buffer_copies_every_texel_and_nothing_else() {
    // 13 x 10 is not a multiple of the 8 x 8 workgroup: the bounds check matters.
    let (w, h) = (13, 10);
    let mut res = resources(w, h);
    let before = res.buffers[0].data.clone();
    let kernel = copy_kernel(false);
    interp::run(&kernel, [2, 2, 1], &mut res).unwrap();
    let words: Vec<u32> =
        res.buffers[0].data.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for i in 0..(w * h) as usize {
        let want = [i as u32, 1000 + i as u32, 2000 + i as u32, 3000 + i as u32];
        assert_eq!(words[4 * i..4 * i + 4], want, "texel {i}");
    }
    assert_eq!(res.buffers[0].data.len(), before.len());
    // The lowered and optimized kernel computes the same.
    let lowered = ferrum_compiler::pipeline::lower_and_optimize(kernel).unwrap();
    let mut again = resources(w, h);
    interp::run(&lowered, [2, 2, 1], &mut again).unwrap();
    assert_eq!(again.buffers[0].data, res.buffers[0].data);
}

#[test]
fn buffer_to_image_writes_the_image() {
    let (w, h) = (9, 8);
    let mut res = resources(w, h);
    let kernel = copy_kernel(true);
    interp::run(&kernel, [2, 1, 1], &mut res).unwrap();
    for (i, t) in res.images[0].texels.iter().enumerate() {
        let o = i * 16;
        let want: Vec<u32> = (0..4)
            .map(|k| {
                let b = (o + 4 * k) as u32;
                u32::from_le_bytes([
                    (b * 7) as u8,
                    ((b + 1) * 7) as u8,
                    ((b + 2) * 7) as u8,
                    ((b + 3) * 7) as u8,
                ])
            })
            .collect();
        assert_eq!(t[..], want[..], "texel {i}");
    }
}

#[test]
fn copy_kernels_compile_to_image_instructions_llvm_mc_agrees_with() {
    for (reverse, want) in [
        (false, ["image_load", "buffer_store_dwordx4"]),
        (true, ["image_store", "buffer_load_dwordx4"]),
    ] {
        let bin = meta::compile(copy_kernel(reverse), &layout()).unwrap();
        let text: String = bin.isa_text.lines().map(|l| format!("{l}\n")).collect();
        for w in want {
            assert!(text.contains(w), "no {w} in\n{text}");
        }
        assert!(text.contains("s_load_dwordx8"), "T# not loaded as 8 dwords:\n{text}");
        assert_eq!(llvm_mc_bytes(&text), bin.code, "{text}");
    }
}
