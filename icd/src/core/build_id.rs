//! The GNU build ID of the loaded driver binary.
//!
//! Pipeline-cache and driver UUIDs must change whenever the code that produces or interprets
//! cached data changes. The linker's build ID (a hash of the linked output) does exactly that
//! without any build-script plumbing: it is read at run time from the `PT_NOTE` segments of
//! the object that contains this very function.

use std::ffi::c_void;
use std::sync::OnceLock;

/// `NT_GNU_BUILD_ID`.
const NT_GNU_BUILD_ID: u32 = 3;

struct Search {
    /// An address inside the object we are looking for.
    addr: usize,
    found: Option<Vec<u8>>,
}

/// Scans one note segment for the GNU build ID.
///
/// # Safety
/// `data` must point to `len` readable bytes of an ELF note segment.
unsafe fn build_id_in_notes(data: *const u8, len: usize) -> Option<Vec<u8>> {
    // SAFETY: forwarded to the caller.
    let notes = unsafe { std::slice::from_raw_parts(data, len) };
    let word =
        |at: usize| notes.get(at..at + 4).map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]));
    let align4 = |n: usize| n.div_ceil(4) * 4;
    let mut at = 0;
    while at + 12 <= notes.len() {
        let (namesz, descsz, ty) = (word(at)? as usize, word(at + 4)? as usize, word(at + 8)?);
        let name_at = at + 12;
        let desc_at = name_at + align4(namesz);
        let end = desc_at + align4(descsz);
        if ty == NT_GNU_BUILD_ID && notes.get(name_at..name_at + namesz) == Some(b"GNU\0") {
            return notes.get(desc_at..desc_at + descsz).map(<[u8]>::to_vec);
        }
        at = end;
    }
    None
}

unsafe extern "C" fn visit(
    info: *mut libc::dl_phdr_info,
    _size: usize,
    data: *mut c_void,
) -> libc::c_int {
    // SAFETY: `data` is the `Search` passed to dl_iterate_phdr; `info` is valid for this call.
    let (search, info) = unsafe { (&mut *(data as *mut Search), &*info) };
    // SAFETY: the loader guarantees `dlpi_phnum` headers at `dlpi_phdr`.
    let phdrs = unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum as usize) };
    let base = info.dlpi_addr as usize;
    let contains = phdrs.iter().any(|p| {
        p.p_type == libc::PT_LOAD
            && (base + p.p_vaddr as usize..base + (p.p_vaddr + p.p_memsz) as usize)
                .contains(&search.addr)
    });
    if !contains {
        return 0;
    }
    for p in phdrs.iter().filter(|p| p.p_type == libc::PT_NOTE) {
        // SAFETY: a PT_NOTE segment of a loaded object is mapped and readable.
        if let Some(id) = unsafe {
            build_id_in_notes((base + p.p_vaddr as usize) as *const u8, p.p_memsz as usize)
        } {
            search.found = Some(id);
        }
    }
    1
}

/// The build ID of the binary this code was linked into, or `None` if it has none.
pub fn build_id() -> Option<&'static [u8]> {
    static ID: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    ID.get_or_init(|| {
        let mut search =
            Search { addr: build_id as fn() -> Option<&'static [u8]> as usize, found: None };
        // SAFETY: `visit` only reads what the dynamic loader hands it and writes `search`.
        unsafe { libc::dl_iterate_phdr(Some(visit), (&mut search as *mut Search).cast()) };
        search.found
    })
    .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_this_binarys_build_id() {
        // Debian's toolchain links with --build-id (20-byte SHA-1 by default).
        let id = build_id().expect("build ID note");
        assert!(id.len() >= 8 && id.iter().any(|&b| b != 0));
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new("readelf").arg("-n").arg(&exe).output();
        if let Ok(out) = out {
            // readelf (binutils) is the oracle when present.
            let text = String::from_utf8_lossy(&out.stdout);
            let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
            assert!(text.contains(&hex), "build ID {hex} not in readelf output");
        }
    }

    #[test]
    fn parses_a_note_segment() {
        let mut seg = Vec::new();
        for (name, ty, desc) in
            [(&b"XYZ\0"[..], 1u32, &[9u8, 9][..]), (b"GNU\0", 3, &[1, 2, 3, 4, 5])]
        {
            seg.extend((name.len() as u32).to_ne_bytes());
            seg.extend((desc.len() as u32).to_ne_bytes());
            seg.extend(ty.to_ne_bytes());
            seg.extend(name);
            seg.extend(desc);
            seg.resize(seg.len().div_ceil(4) * 4, 0);
        }
        // SAFETY: `seg` is a readable buffer of its length.
        let id = unsafe { build_id_in_notes(seg.as_ptr(), seg.len()) };
        assert_eq!(id, Some(vec![1, 2, 3, 4, 5]));
    }
}
