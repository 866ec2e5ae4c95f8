//! The boundary between C callers and Rust code.
//!
//! Every `extern "system"` function runs its body through one of these wrappers: errors become
//! `VkResult` codes and panics are caught here, logged, and reported as an error instead of
//! unwinding into the loader or the application (which is undefined behaviour).

use std::panic::{catch_unwind, AssertUnwindSafe};

use ash::vk;

use crate::error::VkResult;

fn report_panic(name: &str, payload: &(dyn std::any::Any + Send)) {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".to_string());
    log::error!("{name}: internal error (panic): {msg}");
}

/// Runs a command whose only success code is `VK_SUCCESS`.
pub fn guard(name: &'static str, body: impl FnOnce() -> VkResult<()>) -> vk::Result {
    guard_status(name, || body().map(|()| vk::Result::SUCCESS))
}

/// Runs a command that can return several success codes (`VK_INCOMPLETE`, `VK_TIMEOUT`, ...).
pub fn guard_status(name: &'static str, body: impl FnOnce() -> VkResult<vk::Result>) -> vk::Result {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => {
            log::info!("{name}: {err}");
            err.result()
        }
        Err(payload) => {
            report_panic(name, payload.as_ref());
            // No code says "driver bug"; device loss is what applications are built to survive.
            vk::Result::ERROR_DEVICE_LOST
        }
    }
}

/// Runs a command that returns `void` or a plain value; a panic yields `fallback`.
pub fn guard_value<T>(name: &'static str, fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(payload) => {
            report_panic(name, payload.as_ref());
            fallback
        }
    }
}

/// Runs a `void` command whose body can fail; failures can only be logged.
pub fn guard_void(name: &'static str, body: impl FnOnce() -> VkResult<()>) {
    guard_value(name, (), || {
        if let Err(err) = body() {
            log::info!("{name}: {err}");
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::VkError;

    #[test]
    fn errors_map_to_their_codes() {
        let r = guard("t", || Err(VkError::FeatureNotPresent("x".into())));
        assert_eq!(r, vk::Result::ERROR_FEATURE_NOT_PRESENT);
        assert_eq!(guard("t", || Ok(())), vk::Result::SUCCESS);
        assert_eq!(guard_status("t", || Ok(vk::Result::INCOMPLETE)), vk::Result::INCOMPLETE);
    }

    #[test]
    fn panics_do_not_escape() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = guard("t", || panic!("boom"));
        let v = guard_value("t", 7u32, || panic!("boom"));
        std::panic::set_hook(prev);
        assert_eq!(r, vk::Result::ERROR_DEVICE_LOST);
        assert_eq!(v, 7);
    }
}
