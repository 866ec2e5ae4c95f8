//! The winsys safe API against the simulated kernel: device info, BOs, CPU maps, GPU VA.

use std::sync::Arc;

use ferrum_sim::kernel::Access;
use ferrum_sim::{SimConfig, SimKernel};
use ferrum_winsys::{BoDesc, BoFlags, Device, Domain, Error, Priority, VaFlags};

fn open() -> (Arc<SimKernel>, Device) {
    let kernel = ferrum_sim::open(SimConfig { host_memory_limit: 256 << 20, ..Default::default() });
    let dev = Device::from_kernel(kernel.clone()).expect("sim device opens");
    (kernel, dev)
}

fn gtt(size: u64) -> BoDesc {
    BoDesc { size, alignment: 4096, domain: Domain::Gtt, flags: BoFlags::CPU_ACCESS }
}

#[test]
fn device_info_describes_a_navi21() {
    let (_, dev) = open();
    let info = dev.info();
    assert!(info.is_navi21());
    assert_eq!(info.pci_id, 0x73bf);
    assert_eq!(info.cu_active_number, 80);
    assert_eq!(info.vram_size, 16 << 30);
    assert!(info.va_start < info.va_end && info.va_alignment >= 4096);
    assert!(info.has_timeline_syncobj);
    assert_eq!(info.drm_major, 3);
    assert!(info.firmware.mec != 0);
    let t0 = dev.timestamp().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2));
    assert!(dev.timestamp().unwrap() > t0);
}

#[test]
fn bo_round_trip_through_two_cpu_mappings() {
    let (_, dev) = open();
    let bo = dev.create_bo(&gtt(10_000)).unwrap();
    let a = bo.map().unwrap();
    let b = bo.map().unwrap();
    assert_eq!(a.read_u32s(0, 4).unwrap(), vec![0; 4], "new BOs are zeroed");
    let data: Vec<u32> = (0..2500).map(|i| i * 7 + 1).collect();
    a.write_u32s(0, &data).unwrap();
    assert_eq!(b.read_u32s(0, 2500).unwrap(), data);
    drop(a);
    drop(bo);
    // The kernel keeps a mapped object alive after its handle is closed.
    assert_eq!(b.read_u32(4 * 2499).unwrap(), 2499 * 7 + 1);
    assert!(b.write(b.len() - 2, &[0; 4]).is_err(), "bounds are checked");
}

#[test]
fn memory_usage_follows_allocations() {
    let (_, dev) = open();
    let (vram0, gtt0) = dev.memory_usage().unwrap();
    let bo = dev
        .create_bo(&BoDesc {
            size: 1 << 20,
            alignment: 0,
            domain: Domain::Vram,
            flags: BoFlags::empty(),
        })
        .unwrap();
    let (vram1, gtt1) = dev.memory_usage().unwrap();
    assert_eq!((vram1 - vram0, gtt1), (1 << 20, gtt0));
    drop(bo);
    assert_eq!(dev.memory_usage().unwrap().0, vram0);
}

#[test]
fn no_cpu_access_bos_cannot_be_mapped() {
    let (_, dev) = open();
    let bo = dev
        .create_bo(&BoDesc {
            size: 4096,
            alignment: 0,
            domain: Domain::Vram,
            flags: BoFlags::NO_CPU_ACCESS,
        })
        .unwrap();
    assert!(bo.map().is_err());
}

#[test]
fn allocation_beyond_the_heap_is_out_of_memory() {
    let (_, dev) = open();
    let err = dev.create_bo(&gtt(1 << 40)).unwrap_err();
    assert!(matches!(err, Error::OutOfMemory), "{err:?}");
}

#[test]
fn gpu_sees_cpu_writes_through_va_mapping() {
    let (kernel, dev) = open();
    let bo = dev.create_bo(&gtt(3 * 4096)).unwrap();
    let map = bo.map().unwrap();
    map.write_u32s(4096, &[0xdead_beef]).unwrap();
    let va = dev.alloc_va(bo.size(), 1 << 16).unwrap();
    dev.map_va(&bo, va, 4096, 8192, VaFlags::READ).unwrap();

    let space = kernel.address_space();
    assert_eq!(space.read_u32(va).unwrap(), 0xdead_beef);
    // Reads past the 2 mapped pages, writes to a read-only page and execution all fault.
    assert!(space.read_u32(va + 8192).is_err());
    let fault = space.write_u32(va, 1).unwrap_err();
    assert_eq!((fault.access, fault.reason), (Access::Write, "permission"));
    assert!(space.translate(va, 4, Access::Execute).is_err());

    dev.unmap_va(&bo, va, 4096, 8192).unwrap();
    assert!(kernel.address_space().read_u32(va).is_err(), "unmapped VA faults");
    // The old snapshot (work in flight) still sees the memory.
    assert_eq!(space.read_u32(va).unwrap(), 0xdead_beef);
}

#[test]
fn va_map_rules_match_amdgpu() {
    let (kernel, dev) = open();
    let bo = dev.create_bo(&gtt(8192)).unwrap();
    let other = dev.create_bo(&gtt(8192)).unwrap();
    let va = dev.alloc_va(1 << 20, 1 << 20).unwrap();
    let rw = VaFlags::READ | VaFlags::WRITE;
    assert!(dev.map_va(&bo, va + 100, 0, 4096, rw).is_err(), "unaligned VA");
    assert!(dev.map_va(&bo, va, 0, 3 * 4096, rw).is_err(), "beyond the BO");
    assert!(dev.map_va(&bo, 0, 0, 4096, rw).is_err(), "below the user VA range");
    dev.map_va(&bo, va, 0, 8192, rw).unwrap();
    assert!(dev.map_va(&other, va + 4096, 0, 4096, rw).is_err(), "overlap");
    assert!(dev.unmap_va(&other, va, 0, 8192).is_err(), "unmap of another BO's mapping");
    dev.map_va(&other, va + 8192, 0, 8192, rw).unwrap();

    let space = kernel.address_space();
    space.write(va + 8190, &[1, 2, 3, 4]).unwrap();
    let mut back = [0u8; 4];
    space.read(va + 8190, &mut back).unwrap();
    assert_eq!(back, [1, 2, 3, 4], "accesses may straddle adjacent mappings");
    assert_eq!(other.map().unwrap().read_u32(0).unwrap() & 0xffff, 0x0403);

    // Closing a BO removes its mappings.
    drop(other);
    assert!(kernel.address_space().read_u32(va + 8192).is_err());
    assert!(kernel.address_space().read_u32(va).is_ok());
}

#[test]
fn contexts_start_healthy_and_are_freed() {
    let (_, dev) = open();
    let a = dev.create_context(Priority::Normal).unwrap();
    let b = dev.create_context(Priority::Low).unwrap();
    assert_ne!(a.id(), b.id());
    let state = a.query_state().unwrap();
    assert_eq!(state.lost(), None);
    assert!(!state.reset && !state.guilty);
}
