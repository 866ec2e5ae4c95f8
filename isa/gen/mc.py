"""Batch helpers around llvm-mc, used by the table generator (gen/sweep.py) only.

llvm-mc reads the disassembler input as one byte stream, so an undecodable word can swallow
the words after it. Each candidate is therefore preceded by five copies of a marker
instruction that names it (`s_nop <index>`, or `v_mov_b32 vK, vJ` with index K*256+J when
SOPP itself is swept); at least one copy survives whatever the previous candidate's
leftover words consumed.
"""
import subprocess

MC = ["llvm-mc", "-arch=amdgcn", "-mcpu=gfx1030"]
COPIES = 5


def _line(words):
    bs = b"".join(w.to_bytes(4, "little") for w in words)
    return ",".join("0x%02x" % b for b in bs)


def _vmov_marker(i):
    return 0x7E000200 | (i >> 8) << 17 | (256 + (i & 0xFF))


def _vmov_index(enc):
    w = int.from_bytes(enc, "little")
    if len(enc) == 4 and w & 0xFE01FE00 == 0x7E000200 and w & 0x100:
        return (w >> 17 & 0xFF) << 8 | (w & 0xFF)
    return None


def _nop_index(enc):
    if len(enc) == 4 and enc[2:] == b"\x80\xbf":
        return int.from_bytes(enc[:2], "little")
    return None


def disassemble(insts, marker="nop"):
    """insts: list of word lists. Returns, per candidate, (text, words used) or None.
    marker: "nop" (default) or "vmov" (to sweep SOPP itself)."""
    assert len(insts) < 0x10000
    mk, idx = (_vmov_marker, _vmov_index) if marker == "vmov" else (
        lambda i: 0xBF800000 | i, _nop_index)
    lines = []
    for i, words in enumerate(insts):
        lines.extend([_line([mk(i)])] * COPIES)
        lines.append(_line(words))
    p = subprocess.run(MC + ["--disassemble", "-show-encoding"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    bad = set()
    for l in p.stderr.splitlines():
        parts = l.split(":")
        if len(parts) > 3 and parts[0] == "<stdin>" and "warning" in l and parts[2] == "1":
            bad.add(int(parts[1]))
    first = {}
    cur = None
    for l in p.stdout.splitlines():
        if "; encoding:" not in l:
            continue
        text, enc = l.split("; encoding:")
        enc = bytes(int(x, 16) for x in enc.strip().strip("[]").split(","))
        k = idx(enc)
        if k is not None:
            cur = k
            continue
        if cur is not None and cur not in first:
            first[cur] = (text.strip(), len(enc) // 4)
    out = []
    for i in range(len(insts)):
        line = i * (COPIES + 1) + COPIES + 1
        out.append(None if line in bad else first.get(i))
    return out


def assemble(texts):
    """texts: list of asm strings. Returns per text the list of words, or None on error."""
    src = []
    for t in texts:
        src.append(t)
        src.append("s_nop 0x3abc")
    p = subprocess.run(MC + ["-show-encoding"], input="\n".join(src) + "\n",
                       capture_output=True, text=True)
    bad = set()
    for l in p.stderr.splitlines():
        parts = l.split(":")
        if len(parts) > 3 and parts[0] == "<stdin>" and "error" in l:
            bad.add(int(parts[1]))
    groups = [[]]
    for l in p.stdout.splitlines():
        if "; encoding:" not in l:
            continue
        enc = [int(x, 16) for x in l.split("; encoding:")[1].strip().strip("[]").split(",")]
        if enc == [0xbc, 0x3a, 0x80, 0xbf]:
            groups.append([])
        else:
            groups[-1].append(enc)
    out = []
    for i in range(len(texts)):
        if (2 * i + 1) in bad or i >= len(groups) or not groups[i]:
            out.append(None)
        else:
            bs = bytes(groups[i][0])
            out.append([int.from_bytes(bs[j:j + 4], "little") for j in range(0, len(bs), 4)])
    return out
