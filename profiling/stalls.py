"""Where each partition of a generated Gluon kernel spends its time, by hardware PC sampling: Nsight
Compute samples every warp's program counter and the reason it did not issue, per SASS instruction;
the kernel's line table puts each instruction on a line of ``kernel_gluon.py``; the line names its
partition and its region (``profiling.gluon.scopes_of``: the graph node or wait the Proton profile
times). What the Proton regions cannot see, the time ptxas spends between them (partition barriers,
fences, spill reloads, a register held by an atomic in flight), gets a name and a share here.

A stalled instruction is often not the cause: an instruction waiting on the long scoreboard waits for
a load (or for a store or atomic to read the register it is about to overwrite), one waiting on the
short scoreboard for a shared-memory access, a conversion or an SFU result, the one after a
``BAR.SYNC`` for the partition's other warps. ``attribute`` charges each such sample to the
instruction it waits for (``blame``: the nearest earlier variable-latency instruction, in the loop's
cyclic order, that writes a register or predicate the stalled one reads or reads one it writes). The
attribution is the listing's, not the hardware's: ptxas's scoreboards are not in the SASS text.

Capture needs a GPU and ``ncu`` (``capture``, one process per kernel, outside the timed runs: sampling
does not perturb the Proton figures); ``attribute`` runs anywhere. Imports no solver.
"""
from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, Mapping

from profiling.gluon import KernelScopes, load_source, scopes_of
from profiling.kernel import kernel_module
from twill.errors import DeviceError, InputError

SCHEMA = "twill.stalls/1"
SAMPLES = "Warp Stall Sampling (All Samples)"
# variable-latency instructions, whose results (or whose reads of their sources) a scoreboard tracks
VARIABLE = re.compile(r"^(LDG|LDL|LDS|LDSM|LDC|LD|STG|STL|STS|STSM|ST|REDG|RED|ATOMG|ATOMS|ATOM|MUFU|SHFL|S2R|CS2R|"
                      r"SYNCS|R2UR|HGMMA|WARPGROUP|F2F|I2F|F2I|POPC|FLO|BREV|DMUL|DADD|DFMA|MEMBAR|FENCE|UTMALDG|"
                      r"UTMASTG|LDGSTS|MATCH|VOTE)\b")
STORES = re.compile(r"^(STG|STL|STS|STSM|ST|REDG|RED)\b")
REG = re.compile(r"\b(U?R|U?P)(\d+)(?:\.64)?\b")
CAUSES = (("tensor core", ("HGMMA", "WARPGROUP.ARRIVE")), ("wgmma wait", ("WARPGROUP.DEPBAR",)),
          ("partition barrier", ("BAR.",)), ("mbarrier wait", ("SYNCS.PHASECHK",)),
          ("mbarrier arrive", ("SYNCS.ARRIVE",)), ("fence", ("FENCE", "MEMBAR")), ("spill", ("LDL", "STL")),
          ("atomic", ("REDG", "RED.", "ATOMG", "ATOM.")), ("global load", ("LDG",)), ("global store", ("STG",)),
          ("shared memory", ("LDS", "STS", "LDSM", "STSM")), ("sfu", ("MUFU",)), ("shuffle", ("SHFL",)),
          ("tma", ("UTMA", "UBLKCP")), ("special register", ("S2R", "CS2R")))
TOP = 12                              # instructions listed per partition


# -- capture (GPU) ---------------------------------------------------------------------------------------

def capture(kernel_file: str, schedule: str | Path, *, kernel: str, timeout: float = 300.0,
            problem: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Sample the generated kernel of ``schedule`` (a ``twill optimize`` directory) on this GPU: one launch
    of ``kernel`` under ``ncu`` (PC sampling, clocks left alone), its SASS with the line table of the very
    cubin that ran (``write`` saves the record)."""
    ncu = shutil.which("ncu")
    if ncu is None:
        raise DeviceError("no ncu on this machine", expected="Nsight Compute (ncu) on the PATH for --stalls")
    with tempfile.TemporaryDirectory(prefix="twill-stalls-") as tmp:
        rep, cubin = Path(tmp) / "k", Path(tmp) / "k.cubin"
        child = [sys.executable, "-m", "profiling.stalls", str(Path(kernel_file).resolve()),
                 str(Path(schedule).resolve()), str(cubin),
                 json.dumps(dict(problem or {}))]
        cmd = [ncu, "--clock-control", "none", "--kernel-name", f"regex:^{re.escape(kernel)}$", "--launch-skip", "1",
               "--launch-count", "1", "--section", "WarpStateStats", "--section", "SourceCounters",
               "--import-source", "no", "-f", "-o", str(rep)] + child
        root = str(Path(__file__).resolve().parents[1])
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=root)
        except subprocess.TimeoutExpired:
            raise DeviceError("ncu did not finish sampling the kernel", expected=f"under {timeout:.0f} s",
                              found="still running") from None
        if r.returncode != 0 or not cubin.is_file() or not rep.with_suffix(".ncu-rep").is_file():
            tail = (r.stderr or r.stdout).strip().splitlines()
            raise DeviceError("ncu could not sample the kernel", expected="a report and the launched cubin",
                              found=tail[-1] if tail else f"exit {r.returncode}")
        src = subprocess.run([ncu, "-i", str(rep.with_suffix(".ncu-rep")), "--page", "source", "--csv",
                              "--print-source", "sass"], capture_output=True, text=True, timeout=timeout)
        version = subprocess.run([ncu, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
        meta = json.loads(cubin.with_suffix(".json").read_text())
        record = combine(src.stdout, sass_lines(cubin.read_bytes()))
    record.update(kernel=kernel, ncu=version[-1] if version else "", **meta)
    return record


def _child(kernel_file: str, schedule: str, cubin: str, problem: str) -> None:
    """In the process ncu watches: launch the generated kernel three times, then save the cubin that ran."""
    import torch
    import triton

    mod = kernel_module(kernel_file)
    gj = json.loads((Path(schedule) / "gluon.json").read_text())
    jit = str((gj["graph"].get("meta") or {}).get("kernel") or gj["graph"].get("name"))
    size = dict(getattr(mod, "PROBLEM", {}) or {}, **json.loads(problem))
    with tempfile.TemporaryDirectory(prefix="twill-stalls-src-") as tmp:
        gmod = load_source((Path(schedule) / "kernel_gluon.py").read_text(), tmp, "twill_stalls_gluon")
        setattr(mod, jit, gmod.kernel)
        inp = mod.make_inputs(**size)
        for _ in range(3):
            mod.launch(inp)
        torch.cuda.synchronize()
        fn = getattr(gmod, gj["gluon"]["kernel"]["kernel"])
        compiled = [k for cache, *_ in fn.device_caches.values() for k in cache.values()]
    Path(cubin).write_bytes(compiled[-1].asm["cubin"])
    Path(cubin).with_suffix(".json").write_text(json.dumps({
        "gpu": torch.cuda.get_device_name(), "triton_version": triton.__version__, "torch_version": torch.__version__,
        "problem": size, "source_sha256": hashlib.sha256((Path(schedule) / "kernel_gluon.py").read_bytes()).hexdigest()}))


def sass_lines(cubin: bytes) -> list[tuple[int, str, int | None]]:
    """(offset, instruction, line of kernel_gluon.py or None) for each instruction of ``cubin``, by
    ``nvdisasm -g`` (Triton's own copy)."""
    from triton.backends.nvidia.compiler import get_ptxas

    nvdisasm = Path(get_ptxas(90).path).with_name("nvdisasm")
    with tempfile.TemporaryDirectory(prefix="twill-stalls-") as tmp:
        path = Path(tmp) / "k.cubin"
        path.write_bytes(cubin)
        r = subprocess.run([str(nvdisasm), "-g", "-c", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        raise DeviceError("nvdisasm cannot read the kernel", found=r.stderr.strip()[:200])
    return parse_listing(r.stdout)


def parse_listing(text: str) -> list[tuple[int, str, int | None]]:
    """``nvdisasm -g -c``'s listing as (offset, instruction, line of the generated source). The generated
    source is the file most lines name outside Triton's own package; an instruction Triton's library
    code placed (``gl.max``'s reduction tree, from ``triton/language/standard.py``: the line table has no
    inlining) takes the line of the nearest generated-source instruction before it, after it at a block's
    start; None where there is neither."""
    rows: list[tuple[int, str, str | None, int | None]] = []
    where: tuple[str | None, int | None] = (None, None)
    labels: dict[str, int] = {}
    pending: list[str] = []
    for raw in text.splitlines():
        m = re.match(r'\s*//## File "([^"]*)", line (\d+)', raw)
        if m:
            where = (m.group(1), int(m.group(2)))
            continue
        m = re.match(r"(\.L_x_\d+):", raw)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;", raw)
        if m:
            off = int(m.group(1), 16)
            labels.update((name, off) for name in pending)
            pending = []
            rows.append((off, " ".join(m.group(2).split()), *where))
    # a branch names its target by label: write the target's offset, which the loops are found by
    rows = [(off, re.sub(r"`\((\.L_x_\d+)\)", lambda g: f"{labels[g.group(1)]:#x}" if g.group(1) in labels
                          else g.group(0), text), f, ln) for off, text, f, ln in rows]
    files = Counter(f for _, _, f, _ in rows if f and "/triton/" not in f)
    mine = files.most_common(1)[0][0] if files else None
    lines: list[int | None] = [ln if f == mine else None for _, _, f, ln in rows]
    last: int | None = None
    for k, ln in enumerate(lines):
        last = ln if ln is not None else last
        lines[k] = last
    nxt: int | None = None
    for k in range(len(lines) - 1, -1, -1):
        if rows[k][2] == mine:
            nxt = rows[k][3]
        elif lines[k] is None:
            lines[k] = nxt
    return [(off, text, ln) for (off, text, _, _), ln in zip(rows, lines)]


def combine(source_csv: str, listing: list[tuple[int, str, int | None]]) -> dict[str, Any]:
    """ncu's source page (CSV, SASS view: absolute addresses, samples per stall reason) joined to the
    listing by offset from the function's first instruction; every opcode must agree."""
    rows = [r for r in csv.reader(io.StringIO(source_csv)) if r]
    head = next((i for i, r in enumerate(rows) if r and r[0] == "Address"), None)
    if head is None:
        raise DeviceError("ncu's source page has no SASS table", found=(rows[0][0] if rows else "nothing")[:120])
    cols = rows[head]
    reasons = [(i, c[len("stall_"):]) for i, c in enumerate(cols) if c.startswith("stall_") and "Not Issued" not in c]
    body = [r for r in rows[head + 1:] if len(r) == len(cols) and r[0].startswith("0x")]
    base = int(body[0][0], 16)
    by_offset = {off: text for off, text, _ in listing}
    samples: list[list[Any]] = []
    for r in body:
        off = int(r[0], 16) - base
        text = " ".join(r[1].split())
        if by_offset.get(off, "").split(" ")[:1] != text.split(" ")[:1]:
            raise DeviceError("the sampled SASS is not the listed cubin's", where=f"offset {off:#x}",
                              expected=by_offset.get(off, "(no instruction)")[:60], found=text[:60])
        got = {name: int(float(r[i])) for i, name in reasons if r[i] not in ("", "0")}
        if got:
            samples.append([off, got])
    return {"schema": SCHEMA, "sass": [list(x) for x in listing], "samples": samples}


def write(path: str | Path, record: Mapping[str, Any]) -> None:
    """``record`` as gzipped JSON at ``path``, written whole or not at all."""
    tmp = Path(f"{path}.tmp")
    with gzip.open(tmp, "wt") as f:
        json.dump(record, f, separators=(",", ":"))
    tmp.replace(path)


def read(path: str | Path) -> dict[str, Any]:
    """A stall record written by ``capture``; one InputError line for anything else."""
    try:
        with gzip.open(path, "rt") as f:
            rec = json.load(f)
    except (OSError, EOFError, ValueError) as e:
        raise InputError("cannot read the stall profile", where=str(path), expected="a gzipped JSON record from "
                         "twill validate --stalls", found=type(e).__name__) from None
    if not isinstance(rec, dict) or rec.get("schema") != SCHEMA:
        raise InputError("not a stall profile", where=str(path), expected=SCHEMA,
                         found=str(rec.get("schema") if isinstance(rec, dict) else type(rec).__name__))
    return rec


# -- attribution (anywhere) ------------------------------------------------------------------------------

def cause(inst: str) -> str:
    """The kind of an instruction, as a cause of time: ``partition barrier``, ``spill``, ``atomic``, ...;
    ``alu`` for the rest.

    >>> cause("BAR.SYNC.DEFER_BLOCKING 0x2, 0x80"), cause("@!P0 BRA 0x3a0"), cause("LDL R15, [R1]")
    ('partition barrier', 'alu', 'spill')
    """
    op = _strip(inst)
    for name, prefixes in CAUSES:
        if op.startswith(prefixes):
            return name
    return "alu"


def blame(insts: list[str], i: int, reason: str, loop: tuple[int, int] | None = None) -> int:
    """The index of the instruction a sample of ``insts[i]`` stalled for ``reason`` waits on: the preceding
    ``BAR`` for ``barrier``; for the scoreboards, the nearest earlier variable-latency instruction (cyclic
    within ``loop``, an inclusive index range) that writes what ``insts[i]`` reads or reads what it writes
    (a store or atomic not yet done with its source registers); ``i`` itself otherwise.

    >>> blame(["REDG.E.ADD.F32x4 desc[UR4][R16.64], R200", "FMUL R9, R9, R9", "MOV R201, R5"], 2, "long_sb")
    0
    >>> blame(["SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R14+URZ+0x38000], R11", "@!P0 BRA 0x10"], 1, "long_sb")
    0
    """
    if reason == "barrier":
        return i - 1 if i > 0 and _strip(insts[i - 1]).startswith("BAR.") else i
    if reason not in ("long_sb", "short_sb"):
        return i
    reads, writes = operands(insts[i])
    order = list(range(i - 1, -1, -1))
    if loop is not None and loop[0] <= i <= loop[1]:
        order = list(range(i - 1, loop[0] - 1, -1)) + list(range(loop[1], i, -1))
    for j in order:
        op = _strip(insts[j])
        if not VARIABLE.match(op):
            continue
        r, w = operands(insts[j])
        if w & reads or (STORES.match(op) and r & writes):
            return j
    return i


def attribute(record: Mapping[str, Any], source: str, nodes: Iterable[str] = ()) -> dict[str, Any]:
    """Per partition of the generated kernel ``source``: its share of the samples at each region (the
    Proton profile's names) and outside every region, each cause of its stalls (``blame``), its stall
    reasons and its costliest instructions. Shares are of the partition's own samples (its time)."""
    ks = scopes_of(source, nodes)
    listing = [(int(o), str(t), ln) for o, t, ln in record["sass"]]
    insts = [t for _, t, _ in listing]
    index = {o: k for k, (o, _, _) in enumerate(listing)}
    where = _line_owner(source, ks)
    loops = loops_of(listing)
    per: dict[str, dict[str, Any]] = defaultdict(lambda: {"samples": 0, "at": Counter(), "reasons": Counter(),
                                                          "cause": Counter(), "outside": Counter(), "insts": Counter()})
    for off, got in record["samples"]:
        k = index.get(int(off))
        if k is None:
            continue
        part, region = where(listing[k][2])
        loop = next((lp for lp in loops if lp[0] <= k <= lp[1]), None)
        p = per[part]
        for reason, n in got.items():
            j = blame(insts, k, reason, loop)
            _, culprit_region = where(listing[j][2])
            c = cause(insts[j])
            p["samples"] += n
            p["at"][region] += n
            p["reasons"][reason] += n
            p["cause"][c] += n
            p["insts"][(k, j, reason)] += n
            if region == "(outside every region)":
                p["outside"][f"{c} ({culprit_region})" if culprit_region != region else c] += n
    parts = []
    for pt in ks.partitions:
        p = per.get(pt.function)
        if not p or not p["samples"]:
            continue
        total = p["samples"]
        share = lambda c: {k: round(v / total, 4) for k, v in c.most_common() if v / total >= 0.001}  # noqa: E731
        top = [{"line": listing[k][2], "sass": insts[k][:80], "reason": reason, "share": round(n / total, 4),
                "waits_on": None if j == k else {"line": listing[j][2], "sass": insts[j][:80]}}
               for (k, j, reason), n in p["insts"].most_common(TOP)]
        parts.append({"function": pt.function, "warps": pt.num_warps, "samples": total,
                      "regions": share(p["at"]), "outside": round(p["at"]["(outside every region)"] / total, 4),
                      "outside_causes": share(p["outside"]), "causes": share(p["cause"]),
                      "reasons": share(p["reasons"]), "top": top})
    return {"gpu": record.get("gpu"), "problem": record.get("problem"), "ncu": record.get("ncu"),
            "samples": sum(n for _, got in record["samples"] for n in got.values()), "partitions": parts}


def _line_owner(source: str, ks: KernelScopes) -> Any:
    """line -> (partition function, region name) for the generated source: a line in a partition's loop and
    in one of its regions' spans gets the region; elsewhere in the loop '(outside every region)'; outside
    the loop '(outside the loop)'."""
    import ast

    tree = ast.parse(source)
    funcs = {f.name: (f.lineno, f.end_lineno or f.lineno) for f in tree.body if isinstance(f, ast.FunctionDef)}
    loops: dict[str, tuple[int, int]] = {}
    for pt in ks.partitions:
        fn = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == pt.function)
        lp = next(n for n in ast.walk(fn) if isinstance(n, ast.For) and n.lineno == pt.loop_line)
        loops[pt.function] = (lp.lineno, lp.end_lineno or lp.lineno)
    spans = [(a, b, s.name.split(":", 1)[1], s.partition) for s in ks.scopes for a, b in s.spans]

    def owner(line: int | None) -> tuple[str, str]:
        if line is None:
            return "(no line)", "(no line)"
        fn = next((n for n, (a, b) in funcs.items() if a <= line <= b), "(no function)")
        lo, hi = loops.get(fn, (0, -1))
        if not lo <= line <= hi:
            return fn, "(outside the loop)"
        return fn, next((name for a, b, name, _ in spans if a <= line <= b), "(outside every region)")
    return owner


def loops_of(listing: list[tuple[int, str, int | None]]) -> list[tuple[int, int]]:
    """Innermost backward-branch ranges of the listing, as inclusive index ranges."""
    index = {o: k for k, (o, _, _) in enumerate(listing)}
    out = []
    for k, (_, text, _) in enumerate(listing):
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", text)
        if m and _strip(text).startswith("BRA") and index.get(int(m.group(1), 16), k + 1) < k:
            out.append((index[int(m.group(1), 16)], k))
    return [lp for lp in out if not any(o != lp and lp[0] <= o[0] and o[1] <= lp[1] for o in out)]


def _strip(inst: str) -> str:
    return re.sub(r"^@!?U?P\w+\s+", "", inst)


def _width(op: str, accumulator: bool) -> int:
    """Registers a vector operand spans: ``.128``/``F32x4``: 4, ``.64``/``F32x2``: 2; a wgmma accumulator
    (``HGMMA.64xN.F32``): N / 2, its A operand from registers 4."""
    m = re.match(r"HGMMA\.64x(\d+)x\d+\.F32", op)
    if m:
        return int(m.group(1)) // 2 if accumulator else 4
    if re.search(r"\.128\b|F32x4", op):
        return 4
    if re.search(r"\.64\b|F32x2|\.WIDE", op):
        return 2
    return 1


def operands(inst: str) -> tuple[set[str], set[str]]:
    """(registers and predicates read, written) by ``inst``, from its text: the first operand is written
    unless the op is a store or a branch; vector operands span their width."""
    pred = re.match(r"^@!?(U?P\w+)\s+", inst)
    body = _strip(inst)
    op, _, rest = body.partition(" ")
    args = [a.strip() for a in re.split(r",(?![^\[]*\])", rest) if a.strip()]
    reads: set[str] = {pred.group(1)} if pred else set()
    writes: set[str] = set()
    store = STORES.match(op) is not None or op.startswith(("BRA", "BAR", "SYNCS.ARRIVE", "WARPGROUP"))
    for n, a in enumerate(args):
        regs = REG.findall(a)
        target = writes if n == 0 and not store and "[" not in a else reads
        for kind, num in regs:
            w = _width(op, n in (0, len(args) - 1)) if kind == "R" and "[" not in a else (2 if ".64" in a else 1)
            target.update(f"{kind}{int(num) + d}" for d in range(w) if kind in ("R", "UR") or d == 0)
        if op.startswith("HGMMA") and n == 0:          # the accumulator is read as well
            reads.update(r for r in writes)
    reads.discard("RZ")
    return reads, writes


if __name__ == "__main__":
    _child(*sys.argv[1:5])
