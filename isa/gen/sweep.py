#!/usr/bin/env python3
"""Generate isa/src/tables/*.rs by sweeping every encoding's opcode field through llvm-mc.

Run from the repository root:  python3 isa/gen/sweep.py
The output is checked in; the crate never calls LLVM at run time. For every opcode value of a
family we build candidate words with the register fields set to distinctive numbers (v10, v20,
s32, ...), try subsets of the optional fields (LLVM rejects non-zero fields that an instruction
does not use), and read back from the printed text which fields the instruction has, in which
order they are printed and how many dwords each covers.
"""
import json
import os
import re
import sys
from itertools import combinations

sys.path.insert(0, os.path.dirname(__file__))
import mc  # noqa: E402
import rules  # noqa: E402

V = 256  # VALU 9-bit source code offset of VGPRs


class Family:
    def __init__(self, name, ops, build, fields, optional, variants=({},)):
        self.name = name
        self.ops = ops
        self.build = build  # (op, field values dict) -> words
        self.fields = fields  # field -> (canonical raw value, printed class, printed base)
        self.optional = optional  # fields that may have to be zero
        # non-register bit settings tried in turn (e.g. GLC for return-only atomics)
        self.variants = variants


def sop2(op, f):
    return [0x80000000 | op << 23 | f.get("sdst", 0) << 16 | f.get("ssrc1", 0) << 8
            | f.get("ssrc0", 0)]


def sopk(op, f):
    return [0xB0000000 | op << 23 | f.get("sdst", 0) << 16 | f.get("simm16", 0), 0x11223344]


def sop1(op, f):
    return [0xBE800000 | f.get("sdst", 0) << 16 | op << 8 | f.get("ssrc0", 0)]


def sopc(op, f):
    return [0xBF000000 | op << 16 | f.get("ssrc1", 0) << 8 | f.get("ssrc0", 0)]


def sopp(op, f):
    return [0xBF800000 | op << 16 | f.get("simm16", 0)]


def smem(op, f):
    return [0xF4000000 | op << 18 | f.get("sdata", 0) << 6 | f.get("sbase", 0),
            f.get("offset", 0) | f.get("soffset", 0x7D) << 25]


def vop2(op, f):
    return [op << 25 | f.get("vdst", 0) << 17 | f.get("vsrc1", 0) << 9 | f.get("src0", 0),
            0x11223344]


def vop1(op, f):
    return [0x7E000000 | f.get("vdst", 0) << 17 | op << 9 | f.get("src0", 0)]


def vopc(op, f):
    return [0x7C000000 | op << 17 | f.get("vsrc1", 0) << 9 | f.get("src0", 0)]


def vop3(op, f):
    return [0xD4000000 | op << 16 | f.get("sdst", 0) << 8 | f.get("vdst", 0),
            f.get("src0", 0) | f.get("src1", 0) << 9 | f.get("src2", 0) << 18, 0x11223344]


def vop3p(op, f):
    return [0xCC000000 | op << 16 | 1 << 14 | f.get("vdst", 0),
            f.get("src0", 0) | f.get("src1", 0) << 9 | f.get("src2", 0) << 18 | 3 << 27,
            0x11223344]


def ds(op, f):
    return [0xD8000000 | op << 18 | f.get("offset1", 0) << 8 | f.get("offset0", 0),
            f.get("addr", 0) | f.get("data0", 0) << 8 | f.get("data1", 0) << 16
            | f.get("vdst", 0) << 24]


def mubuf(op, f):
    return [0xE0000000 | f.get("offset", 0x123) | f.get("offen", 1) << 12 | f.get("glc", 0) << 14
            | (op & 0x7F) << 18 | (op >> 7) << 25,
            f.get("vaddr", 0) | f.get("vdata", 0) << 8 | f.get("srsrc", 0) << 16
            | f.get("soffset", 0x80) << 24]


def mtbuf(op, f):
    return [0xE8000000 | 0x123 | 1 << 12 | (op & 7) << 16 | 1 << 19,
            f.get("vaddr", 0) | f.get("vdata", 0) << 8 | f.get("srsrc", 0) << 16
            | (op >> 3) << 21 | f.get("soffset", 0x80) << 24]


def vintrp(op, f):
    return [0xC8000000 | f.get("vdst", 0) << 18 | op << 16 | 5 << 10 | 2 << 8
            | f.get("vsrc", 0)]


def mimg(op, f):
    """MIMG, 2D, dmask 0xf, non-NSA. Address counts per dim come from rules.sweep_mimg_addr."""
    return [0xF0000000 | op >> 7 | f.get("dim", 1) << 3 | f.get("dmask", 0xF) << 8
            | (op & 0x7F) << 18 | f.get("nsa", 0) << 1,
            f.get("vaddr", 0) | f.get("vdata", 0) << 8 | 2 << 16 | f.get("ssamp", 0) << 21
            | f.get("a16", 0) << 30] + f.get("extra", [])


def flat(seg):
    def build(op, f):
        return [0xDC000000 | 0x10 | seg << 14 | op << 18 | f.get("glc", 0) << 16,
                f.get("addr", 0) | f.get("data", 0) << 8 | f.get("saddr", 0x7D) << 16
                | f.get("vdst", 0) << 24]
    return build


S_FIELDS = {
    "sdst": (20, "s", 20), "ssrc0": (32, "s", 32), "ssrc1": (40, "s", 40),
    "simm16": (0x1234, "imm", None),
}
V_FIELDS = {
    "vdst": (10, "v", 10), "src0": (V + 20, "v", 20), "src1": (V + 30, "v", 30),
    "src2": (V + 40, "v", 40), "vsrc1": (30, "v", 30), "sdst": (50, "s", 50),
}


def pick(fields, names):
    return {n: fields[n] for n in names.split()}


FAMILIES = [
    Family("sop2", range(0x60), sop2, S_FIELDS, ["sdst", "ssrc0", "ssrc1"]),
    # SOPK opcodes 0x1d..0x1f would collide with the SOP1/SOPC/SOPP prefixes
    Family("sopk", range(0x1D), sopk, S_FIELDS, ["sdst", "simm16"]),
    Family("sop1", range(0x100), sop1, S_FIELDS, ["sdst", "ssrc0"]),
    Family("sopc", range(0x80), sopc, S_FIELDS, ["ssrc0", "ssrc1"]),
    Family("sopp", range(0x80), sopp, {"simm16": (3, "imm", None)}, ["simm16"]),
    Family("smem", range(0x100), smem,
           {"sdata": (32, "s", 32), "sbase": (2, "s", 4), "offset": (0x10, "imm", None)},
           ["sdata", "sbase", "offset"]),
    Family("vop2", range(0x3E), vop2, pick(V_FIELDS, "vdst src0 vsrc1"),
           ["vdst", "src0", "vsrc1"]),
    Family("vop1", range(0x100), vop1, pick(V_FIELDS, "vdst src0"), ["vdst", "src0"]),
    Family("vopc", range(0x100), vopc, pick(V_FIELDS, "src0 vsrc1"), ["src0", "vsrc1"]),
    Family("vop3", range(0x400), vop3, pick(V_FIELDS, "vdst sdst src0 src1 src2"),
           ["vdst", "sdst", "src0", "src1", "src2"]),
    Family("vop3p", range(0x80), vop3p, pick(V_FIELDS, "vdst src0 src1 src2"),
           ["vdst", "src0", "src1", "src2"]),
    Family("ds", range(0x100), ds,
           {"vdst": (10, "v", 10), "addr": (20, "v", 20), "data0": (30, "v", 30),
            "data1": (40, "v", 40), "offset0": (0, "imm", None), "offset1": (0, "imm", None)},
           ["vdst", "addr", "data0", "data1"]),
    Family("mubuf", range(0x100), mubuf,
           {"vdata": (10, "v", 10), "vaddr": (20, "v", 20), "srsrc": (2, "s", 8),
            "soffset": (40, "s", 40)}, ["vdata", "vaddr", "srsrc", "soffset"],
           ({}, {"glc": 1}, {"offen": 0, "offset": 0, "soffset": 0})),
    Family("mtbuf", range(0x10), mtbuf,
           {"vdata": (10, "v", 10), "vaddr": (20, "v", 20), "srsrc": (2, "s", 8),
            "soffset": (40, "s", 40)}, ["vdata", "vaddr", "srsrc", "soffset"]),
    Family("mimg", range(0x100), mimg,
           {"vdata": (10, "v", 10), "vaddr": (20, "v", 20), "srsrc": (2, "s", 8),
            "ssamp": (4, "s", 16)}, ["vdata", "vaddr", "ssamp"]),
    Family("vintrp", range(4), vintrp, {"vdst": (10, "v", 10), "vsrc": (20, "v", 20)},
           ["vdst", "vsrc"]),
] + [
    Family(seg, range(0x80), flat(i),
           {"vdst": (10, "v", 10), "addr": (20, "v", 20), "data": (30, "v", 30)},
           ["vdst", "addr", "data"], ({}, {"glc": 1}))
    for i, seg in enumerate(["flat", "scratch", "global"])
]

REG = re.compile(r"^([sv])(?:(\d+)|\[(\d+):(\d+)\])$")


def split_operands(text):
    """'op a, b, c mod:1 mod' -> (mnemonic, [operands], [modifiers])."""
    parts = text.split(None, 1)
    if len(parts) == 1:
        return parts[0], [], []
    toks, depth, cur = [], 0, ""
    for ch in parts[1]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            toks.append(cur.strip())
            cur = ""
        else:
            cur += ch
    toks.append(cur.strip())
    mods = []
    last = toks[-1].split(" ")
    toks[-1] = last[0]
    # modifiers follow the last operand, separated by spaces (brackets contain no spaces here)
    rest = " ".join(last[1:])
    depth, cur = 0, ""
    for ch in rest:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == " " and depth == 0:
            if cur:
                mods.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        mods.append(cur)
    if toks == [""]:
        toks = []
    return parts[0], toks, mods


def imm_kind(tok):
    if tok.startswith("hwreg("):
        return "hwreg"
    if tok.startswith("sendmsg("):
        return "sendmsg"
    if re.match(r"^(vmcnt|expcnt|lgkmcnt)\(", tok):
        return "waitcnt"
    if tok.startswith("0x"):
        return "hex"
    if re.match(r"^-?\d+$", tok):
        return "dec"
    return None


def interpret(fam, fields, text):
    """Map the printed operands back to fields; None when some token is not understood."""
    mnem, toks, mods = split_operands(text)
    out = []
    for t in toks:
        m = REG.match(t)
        if m:
            cls = m.group(1)
            lo = int(m.group(2) or m.group(3))
            hi = int(m.group(2) or m.group(4))
            hit = [f for f in fields if fields[f][1] == cls and fields[f][2] == lo]
            if not hit and cls == "s" and "vdst" in fields and fields["vdst"][2] == lo:
                hit = ["vdst"]  # VALU writing a scalar: v_readlane, v_cmp_*_e64, ...
            if len(hit) != 1:
                return None
            out.append([hit[0], hi - lo + 1, cls])
        elif re.match(r"^attr\d+\.[xyzw]$", t):
            out.append(["src0" if fam.name == "vop3" else "attr", 1, "attr"])
        elif t in ("p10", "p20", "p0"):
            out.append(["src1" if fam.name == "vop3" else "vsrc", 1, "param"])
        elif t in ("vcc_lo", "off"):
            out.append([t, 1, "special"])
        elif "sdata" in fields and t == str(fields["sdata"][0]):
            out.append(["sdata", 1, "dec"])  # s_atc_probe prints its sdata field as a number
        elif imm_kind(t):
            imm = [f for f in fields if fields[f][1] == "imm"]
            out.append([imm[0] if imm else "literal", 1, imm_kind(t)])
        else:
            return None
    return mnem, out, mods


def probes(fam):
    opt = fam.optional
    for k in range(len(opt), -1, -1):
        for subset in combinations(opt, k):
            yield {f: fam.fields[f][0] for f in fam.fields if f in subset or f not in opt}


def sweep(fam):
    cands, keys = [], []
    plist = [dict(p, **v) for v in fam.variants for p in probes(fam)]
    for op in fam.ops:
        for i, p in enumerate(plist):
            cands.append(fam.build(op, p))
            keys.append((op, i))
    res = mc.disassemble(cands, marker="vmov" if fam.name == "sopp" else "nop")
    # prefer the probe whose every set optional field shows up in the text (a field LLVM
    # ignores would otherwise hide bits that other fields share, like VOP3b sdst and abs)
    best, loose = {}, {}
    for (op, i), r in zip(keys, res):
        if r is None or op in best:
            continue
        got = interpret(fam, {f: fam.fields[f] for f in plist[i] if f in fam.fields}, r[0])
        if got is None:
            continue
        entry = {"code": op, "text": r[0], "mnemonic": got[0], "operands": got[1],
                 "mods": got[2], "words": r[1], "probe": plist[i],
                 "w0": fam.build(op, plist[i])[0]}
        printed = {o[0] for o in got[1]}
        if all(f in printed for f in fam.optional if f in plist[i]):
            best[op] = entry
        else:
            loose.setdefault(op, entry)
    for op, entry in loose.items():
        best.setdefault(op, entry)
    return [best[op] for op in sorted(best)]


def main():
    root = os.path.join(os.path.dirname(__file__), "..")
    data = {}
    for fam in FAMILIES:
        data[fam.name] = sweep(fam)
        print(fam.name, len(data[fam.name]), file=sys.stderr)
    data["vop3_mods"] = rules.probe_vop3_modifiers(data["vop3"], vop3)
    for fam, build in (("sopp", sopp), ("sopk", sopk)):
        rules.classify_imm16(data[fam], build)
    for fam in ("sop2", "sop1", "sopc", "vop1", "vop2", "vopc", "vop3", "vop3p"):
        rules.probe_source_classes(data[fam])
    data["mtbuf_formats"] = rules.sweep_mtbuf_formats()
    rules.sweep_mimg_addr(data["mimg"], mimg)
    data["mimg"] = sorted(data["mimg"] + rules.sweep_bvh(), key=lambda e: e["code"])
    rules.probe_smem_cache_bits(data["smem"], smem)
    for fam in ("vop1", "vop2", "vopc"):
        rules.probe_vop_ext(fam, data[fam])
    for fam, build in (("vop1", vop1), ("vop2", vop2), ("vopc", vopc), ("vop3", vop3),
                       ("vop3p", vop3p)):
        rules.probe_half_literals(fam, data[fam], build)
    for fam, build in (("vop1", vop1), ("vop2", vop2), ("vopc", vopc)):
        rules.probe_vgpr_fields(fam, data[fam], build)
    with open(os.path.join(root, "gen", "sweep.json"), "w") as fh:
        json.dump(data, fh, indent=0)


if __name__ == "__main__":
    main()
