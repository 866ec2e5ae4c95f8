//! Ferrum: a Vulkan driver for AMD RDNA2 GPUs.
