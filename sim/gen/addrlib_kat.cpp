// Known-answer generator for sim/tests/surface.rs: builds AMD's addrlib for navi21
// (GB_ADDR_CONFIG 0x444, external revision 0x28) and prints texel byte offsets for random
// surface shapes, one line per coordinate:
//   sw_mode dim bpe_log2 width height slices mips samples_log2 pipe_bank_xor x y z mip sample offset
// Build (from a PAL checkout's src/core/imported/addrlib):
//   g++ -O1 -DLITTLEENDIAN_CPU=1 -DADDR_GFX10_BUILD=1 -Iinc -Isrc -Isrc/core -Isrc/chip/gfx10 \
//       src/addrinterface.cpp src/core/*.cpp src/gfx10/gfx10addrlib.cpp ... addrlib_kat.cpp
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "addrinterface.h"

static void* alloc_cb(const ADDR_ALLOCSYSMEM_INPUT* in) { return malloc(in->sizeInBytes); }
static ADDR_E_RETURNCODE free_cb(const ADDR_FREESYSMEM_INPUT* in) {
    free(in->pVirtAddr);
    return ADDR_OK;
}

static unsigned rng = 12345;
static unsigned next(unsigned n) {
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

int main() {
    ADDR_CREATE_INPUT ci = {};
    ADDR_CREATE_OUTPUT co = {};
    ci.size = sizeof(ci);
    co.size = sizeof(co);
    ci.chipEngine = 0x0000000D;
    ci.chipFamily = 0x8F;
    ci.chipRevision = 0x28;
    ci.callbacks.allocSysMem = alloc_cb;
    ci.callbacks.freeSysMem = free_cb;
    ci.regValue.gbAddrConfig = 0x444;
    if (AddrCreate(&ci, &co) != ADDR_OK) return 1;
    // (mode, 3D allowed, MSAA allowed)
    const int modes2d[] = {0, 1, 2, 5, 6, 9, 10, 17, 18, 21, 22, 24, 25, 26, 27};
    const int modes3d[] = {0, 5, 9, 17, 21, 24, 25, 26, 27};
    int printed = 0;
    while (printed < 3000) {
        int dim = next(3);  // 0 = 1D, 1 = 2D, 2 = 3D
        int mode = dim == 2 ? modes3d[next(9)] : modes2d[next(15)];
        if (dim == 0 && mode != 0 && mode != 24 && mode != 27) continue;
        int bpe = next(5);
        unsigned w = 1 + next(next(2) ? 300 : 40);
        unsigned h = dim == 0 ? 1 : 1 + next(next(2) ? 300 : 40);
        unsigned slices = 1 + next(dim == 2 ? 40 : 8);
        unsigned samples = 0;
        if (dim == 1 && (mode == 24 || mode == 27) && next(3) == 0) samples = 1 + next(3);
        unsigned maxmips = 1;
        for (unsigned m = w > h ? w : h; m > 1; m = (m + 1) / 2) maxmips++;
        unsigned mips = samples ? 1 : 1 + next(maxmips);
        bool xor_mode = mode >= 17;
        unsigned blk = mode <= 2 ? 8 : (mode == 5 || mode == 6 || mode == 21 || mode == 22) ? 12 : 16;
        unsigned pbx = xor_mode && next(2) ? (next(1u << blk) & ~0xffu) : 0;
        for (int k = 0; k < 8; k++) {
            unsigned mip = next(mips);
            unsigned mw = (w + (1u << mip) - 1) >> mip, mh = (h + (1u << mip) - 1) >> mip;
            unsigned md = dim == 2 ? (slices + (1u << mip) - 1) >> mip : slices;
            ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_INPUT in = {};
            ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_OUTPUT out = {};
            in.size = sizeof(in);
            out.size = sizeof(out);
            in.x = k == 0 ? mw - 1 : next(mw);
            in.y = k == 0 ? mh - 1 : next(mh);
            in.slice = k == 0 ? md - 1 : next(md);
            in.sample = samples ? next(1u << samples) : 0;
            in.mipId = mip;
            in.swizzleMode = (AddrSwizzleMode)mode;
            in.resourceType = (AddrResourceType)dim;
            in.bpp = 8u << bpe;
            in.unalignedWidth = w;
            in.unalignedHeight = h;
            in.numSlices = slices;
            in.numMipLevels = mips;
            in.numSamples = 1u << samples;
            in.numFrags = 1u << samples;
            in.pipeBankXor = pbx >> 8;
            if (Addr2ComputeSurfaceAddrFromCoord(co.hLib, &in, &out) != ADDR_OK) { if (getenv("KAT_DEBUG")) fprintf(stderr, "reject %d %d %d %u %u %u %u %u mip%u\n", mode, dim, bpe, w, h, slices, mips, samples, mip); continue; }
            printf("%d %d %d %u %u %u %u %u %u %u %u %u %u %u %llu\n", mode, dim, bpe, w, h, slices,
                   mips, samples, pbx, in.x, in.y, in.slice, mip, in.sample,
                   (unsigned long long)out.addr);
            printed++;
        }
    }
    AddrDestroy(co.hLib);
    return 0;
}
