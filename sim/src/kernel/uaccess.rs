//! Reading and writing "user memory": the pointers that ioctl arguments carry.
//!
//! The simulated kernel runs in the caller's address space, so a user pointer is a host
//! pointer. The `Kernel::ioctl` contract makes the caller vouch for them; the simulator still
//! refuses null pointers and absurd counts with EFAULT/EINVAL like `copy_from_user` would.

use ferrum_winsys::Errno;

/// Upper bound on array arguments, so a garbage count cannot make the host allocate wildly.
const MAX_ELEMENTS: usize = 1 << 20;

/// Copies an array of `count` `T`s from user pointer `ptr`.
///
/// # Safety
/// `ptr` must be null or valid for reading `count` values of `T` (the ioctl contract).
pub unsafe fn read_array<T: Copy>(ptr: u64, count: usize) -> Result<Vec<T>, Errno> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if ptr == 0 {
        return Err(Errno::EFAULT);
    }
    if count > MAX_ELEMENTS {
        return Err(Errno::EINVAL);
    }
    let base = ptr as usize as *const T;
    // SAFETY: valid for `count` elements per the caller; unaligned reads tolerate any address.
    Ok((0..count).map(|i| unsafe { base.add(i).read_unaligned() }).collect())
}

/// Copies one `T` from user pointer `ptr`.
///
/// # Safety
/// As [`read_array`] with a count of 1.
pub unsafe fn read_one<T: Copy>(ptr: u64) -> Result<T, Errno> {
    // SAFETY: forwarded.
    Ok(unsafe { read_array::<T>(ptr, 1) }?[0])
}

/// Copies `values` to user pointer `ptr`.
///
/// # Safety
/// `ptr` must be null or valid for writing `values.len()` values of `T`.
pub unsafe fn write_array<T: Copy>(ptr: u64, values: &[T]) -> Result<(), Errno> {
    if values.is_empty() {
        return Ok(());
    }
    if ptr == 0 {
        return Err(Errno::EFAULT);
    }
    let base = ptr as usize as *mut T;
    for (i, v) in values.iter().enumerate() {
        // SAFETY: valid for writing per the caller.
        unsafe { base.add(i).write_unaligned(*v) };
    }
    Ok(())
}

/// Copies the first `len` bytes of `value` to user pointer `ptr` (INFO's `return_size` rule:
/// the kernel writes at most what the caller asked for).
///
/// # Safety
/// `ptr` must be null or valid for writing `len` bytes.
pub unsafe fn write_prefix<T: Copy>(ptr: u64, len: usize, value: &T) -> Result<(), Errno> {
    let n = len.min(core::mem::size_of::<T>());
    if n == 0 {
        return Ok(());
    }
    if ptr == 0 {
        return Err(Errno::EFAULT);
    }
    // SAFETY: `value` is `size_of::<T>() >= n` readable bytes; `ptr` is writable for `len >= n`.
    unsafe {
        core::ptr::copy_nonoverlapping((value as *const T).cast::<u8>(), ptr as usize as *mut u8, n)
    };
    Ok(())
}
