"""The SASS of a compiled kernel, read back with nvdisasm: its innermost wgmma loops, the spills in them, and
the instruction mix and dependence depth of each loop (what ptxas made of the generated source: the
generator's tests and the model's per-iteration instruction counts read it). Imports no solver; needs no GPU.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

OPERAND = re.compile(r"\bR(\d+)\b")
GMMA = re.compile(r"^[HQI]GMMA\.(\d+)x(\d+)x(\d+)\S*\s+R\w+,\s*(\S+)")
STORE = re.compile(r"^STS(?:\.(U8|S8|U16|S16|64|128))?\s")
STSM = re.compile(r"^STSM\.16\.M88(?:\.(\d))?")
_STS_BYTES = {None: 4, "U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}
K_BYTES = 32        # a wgmma's K step is 32 bytes of each operand row: k16 for 16-bit types, k32 for 8-bit, k8 for tf32
PREDICATE = re.compile(r"^@!?U?P\w+\s+")


def spills_in_loops(nvdisasm: Path, cubin: Path, every: bool = False) -> int | None:
    """Spill instructions (STL, LDL) inside the innermost loops that issue wgmmas (HGMMA), or, in a kernel that
    issues none and where ``every``, inside every innermost loop (FlagGems' weight-norm backward held two [32, 512]
    fp32 tiles a stage ahead over 8 warps: 8.3 KB spilled a thread, in its loops, run 130), read from the SASS: a
    loop is a backward branch's range; None when the SASS cannot be read."""
    if not nvdisasm.is_file():
        return None
    r = subprocess.run([str(nvdisasm), "-c", str(cubin)], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    labels, insts = sass_listing(r.stdout)
    wgmma = any("HGMMA" in t for _, t in insts)
    inner = innermost_wgmma_loops(labels, insts) if wgmma or not every else innermost_loops(labels, insts)
    return sum(1 for a, t in insts if re.search(r"\b(STL|LDL)\b", t) and any(lo <= a <= hi for lo, hi in inner))


def loop_spills(cubin: bytes, nvdisasm: str | Path | None = None) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each innermost loop of ``cubin``, in address order: its spill instructions (STL, LDL) and the source lines
    its instructions came from (line info, as Triton compiles by default; () without). () when nvdisasm is not
    installed or cannot read it."""
    sass = _disassemble(cubin, nvdisasm, "-g")
    if sass is None:
        return ()
    labels, insts = sass_listing(sass)
    line_of: dict[int, int] = {}
    line = None
    for text in sass.splitlines():
        m = re.match(r'\s*//## File ".*", line (\d+)', text)
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s", text)
        if m and line is not None:
            line_of[int(m.group(1), 16)] = line
    return tuple((sum(1 for a, t in insts if lo <= a <= hi and re.search(r"\b(STL|LDL)\b", t)),
                  tuple(line_of[a] for a, _ in insts if lo <= a <= hi and a in line_of))
                 for lo, hi in innermost_loops(labels, insts))


def sass_listing(sass: str) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """nvdisasm's listing as its labels' addresses and its (address, instruction) pairs."""
    labels: dict[str, int] = {}
    insts: list[tuple[int, str]] = []
    pending: list[str] = []
    for line in sass.splitlines():
        m = re.match(r"\s*(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;", line)
        if m:
            addr = int(m.group(1), 16)
            for lab in pending:
                labels[lab] = addr
            pending = []
            insts.append((addr, m.group(2)))
    return labels, insts


def innermost_wgmma_loops(labels: dict[str, int], insts: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """The address ranges of the innermost loops (backward branches) that issue wgmmas (HGMMA)."""
    return innermost_loops(labels, insts, "HGMMA")


def innermost_loops(labels: dict[str, int], insts: list[tuple[int, str]], holding: str = "") -> list[tuple[int, int]]:
    """The address ranges of the innermost loops (backward branches) with an instruction naming ``holding`` (any
    loop where empty)."""
    # ptxas puts the slow path of a barrier wait after the kernel's last EXIT, branching back: not a loop
    end = max((a for a, t in insts if re.match(r"(@!?U?P\w+\s+)?EXIT\b", t)), default=insts[-1][0] if insts else 0)
    loops = []
    for addr, text in insts:
        m = re.search(r"\bBRA\b.*`\((\.L_x_\d+)\)", text)
        if m and addr < end and labels.get(m.group(1), addr + 1) <= addr:
            lo = labels[m.group(1)]
            if any(lo <= a <= addr and holding in t for a, t in insts):
                loops.append((lo, addr))
    return [(lo, hi) for lo, hi in loops if not any((lo, hi) != (a, b) and lo <= a and b <= hi for a, b in loops)]


@dataclass(frozen=True)
class Loop:
    """One innermost wgmma loop of the SASS: its instructions in order (predicates stripped)."""

    start: int
    end: int
    insts: tuple[str, ...]

    def opcode(self, inst: str) -> str:
        return inst.split()[0].split(".")[0]

    def counts(self) -> Counter:
        """Instructions per opcode (``FMNMX``, ``MUFU``, ``HGMMA``, ...) in one trip of the loop."""
        return Counter(self.opcode(i) for i in self.insts)

    @property
    def spills(self) -> int:
        """Local loads and stores (spills, or Proton's local bookkeeping) in one trip of the loop."""
        c = self.counts()
        return c["STL"] + c["LDL"]

    def census(self) -> dict[str, int]:
        """What one trip of the loop holds that a source-level region cannot time apart: its partition barriers
        (``BAR.SYNC``: before an mbarrier arrive from a multi-warp partition, around a layout conversion through
        shared memory, after a staged operand's fence), spills, wgmmas and waits on them, mbarrier waits and arrives."""
        ops = [i.split()[0] for i in self.insts]
        return {"instructions": len(ops), "partition_barriers": sum(o.startswith("BAR.SYNC") for o in ops),
                "spills": self.spills, "wgmma": sum(o.startswith("HGMMA") for o in ops),
                "wgmma_waits": sum(o.startswith("WARPGROUP.DEPBAR") for o in ops),
                "mbarrier_waits": sum(o.startswith("SYNCS.PHASECHK") for o in ops),
                "mbarrier_arrives": sum(o.startswith("SYNCS.ARRIVE") for o in ops)}

    def shared_bytes(self, warps: int) -> dict[str, int]:
        """Bytes one trip of the loop surely moves through shared memory, on a partition of ``warps`` warps:
        its wgmmas' operands (a [64, K] A tile where read from shared memory, ``gdesc`` as the operand after the
        accumulator, and the [K, N] B tile, each read once per instruction and warp group) and its stores (``STS``,
        ``STSM``: every thread's bytes its own). Loads from shared memory are left out: their threads may read the
        same bytes."""
        wgmma = stores = 0
        for inst in self.insts:
            m = GMMA.match(inst)
            if m:
                rows, cols = int(m.group(1)), int(m.group(2))
                a = K_BYTES * rows if m.group(4).startswith("gdesc[") else 0
                wgmma += (K_BYTES * cols + a) * max(1, warps // 4)
                continue
            m = STORE.match(inst)
            if m:
                stores += _STS_BYTES[m.group(1)] * 32 * warps
                continue
            m = STSM.match(inst)
            if m:
                stores += 128 * int(m.group(1) or 1) * warps      # 8 x 8 16-bit matrices, each warp its own
        return {"wgmma_operands": wgmma, "stores": stores}

    def chain(self, opcode: str) -> int:
        """The longest chain of ``opcode`` instructions each reading a register the previous one wrote
        (within one trip, in program order): 31 for a 32-value reduction written as a chain, 5 for a tree."""
        depth: dict[int, int] = {}
        best = 0
        for inst in self.insts:
            regs = [int(r) for r in OPERAND.findall(inst.split(" ", 1)[1] if " " in inst else "")]
            if not regs:
                continue
            dst, srcs = regs[0], regs[1:]
            if self.opcode(inst) == opcode:
                d = 1 + max((depth.get(r, 0) for r in srcs), default=0)
                best = max(best, d)
            else:
                d = 0
            depth[dst] = d
        return best


def wgmma_loops(cubin: bytes, nvdisasm: str | Path | None = None) -> list[Loop]:
    """The innermost loops of ``cubin`` that issue wgmmas, one per consumer partition; [] when nvdisasm
    is not installed or cannot read it."""
    sass = _disassemble(cubin, nvdisasm)
    if sass is None:
        return []
    labels, insts = sass_listing(sass)
    return [Loop(lo, hi, tuple(PREDICATE.sub("", t) for a, t in insts if lo <= a <= hi))
            for lo, hi in innermost_wgmma_loops(labels, insts)]


def _disassemble(cubin: bytes, nvdisasm: str | Path | None, *flags: str) -> str | None:
    """``cubin``'s SASS, read with nvdisasm (Triton's, beside its ptxas, where None); None without one."""
    if nvdisasm is None:
        try:
            from triton.backends.nvidia.compiler import get_ptxas
            nvdisasm = Path(get_ptxas(90).path).with_name("nvdisasm")
        except Exception:   # noqa: BLE001 - no NVIDIA back end here
            return None
    if not Path(nvdisasm).is_file():
        return None
    with tempfile.TemporaryDirectory(prefix="twill-sass-") as tmp:
        path = Path(tmp) / "k.cubin"
        path.write_bytes(cubin)
        r = subprocess.run([str(nvdisasm), "-c", *flags, str(path)], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None
