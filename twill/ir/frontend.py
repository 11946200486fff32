"""From a kernel file (.py or .ttgir) to its pre-pipeline TTGIR: load, specialise, compile offline up to the
scheduling passes."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twill.errors import CompileError, InputError
from twill.ir.load import KernelSpec, load_kernel, source_of
from twill.ir.spec import json_safe
from twill.ir.target import Target
from twill.ir import vocab
from twill.ir.function import read_function
from twill.ir.ttgir import hoist_invariant_allocs, int_constant, loop_bounds, name_params, sink_fma_operands
from twill.ir.triton_hooks import (ACCUMULATOR_FLAGS, PRE_PIPELINE_PASS, SCHEDULED_SKIP, PassPlan, StopCompile, compile_planned,
                                  module_text)
from twill.util import sha256


@dataclass(frozen=True)
class KernelIR:
    """A kernel's pre-pipeline TTGIR and where it came from: the kernel name, provenance (source file
    and hash, launch options, constexprs) and, for a kernel .py, its specialisation (what the
    annotated module is compiled with later; ``None`` for a .ttgir input)."""

    text: str
    kernel: str
    meta: dict[str, Any] = field(default_factory=dict)
    spec: KernelSpec | None = None
    # the same TTGIR with Triton's loop fusion left out, where the kernel has a ``tl.range(..., flatten=True)``
    # loop (``None`` otherwise): the tile loop around the K loop as written, which the Gluon back end keeps
    nested: str | None = None

    @property
    def source_sha256(self) -> str:
        return str(self.meta["source_sha256"])


FUSE_PASS = "add_fuse_nested_loops"   # sm_80 to sm_100: a ``flatten=True`` loop nest made one loop
FLATTEN_ATTR = "tt.flatten"


def pre_pipeline_ttgir(spec: KernelSpec, target: Target, fuse: bool = True,
                       flattened: list[bool] | None = None) -> str:
    """The kernel's TTGIR right before ``assign_latencies`` (the scheduling passes), with locations;
    compilation stops there (no PTX is made). Triton's Hopper warp specialization is left out
    (``SCHEDULED_SKIP``): a ``warp_specialize=True`` loop is extracted whole. Not ``fuse``: Triton's
    loop fusion is left out too (a ``flatten=True`` loop stays a loop around its inner loop);
    ``flattened`` gets whether the module had such a loop before fusion (where the pass runs).

    Examples
    --------
    >>> spec = load_kernel("kernels/fa3.py", "h100")                            # doctest: +SKIP
    >>> "ttng.warp_group_dot" in pre_pipeline_ttgir(spec, Target("h100", 90))   # doctest: +SKIP
    True
    """
    captured: dict[str, str] = {}

    def grab(mod: Any) -> None:
        captured["text"] = module_text(mod)
        raise StopCompile()

    def look(mod: Any) -> None:
        if flattened is not None:
            flattened.append(FLATTEN_ATTR in module_text(mod))

    fuses = 80 <= target.sm < 110      # where the installed make_ttgir runs the fusion pass
    plan = PassPlan(before=((FUSE_PASS, look),) if fuses else (), skip=() if fuse else (FUSE_PASS,))
    try:
        compile_planned(source_of(spec), target.sm, spec.options,
                        plan + ACCUMULATOR_FLAGS + PassPlan(before=((PRE_PIPELINE_PASS, grab),), skip=SCHEDULED_SKIP))
    except StopCompile:
        pass
    if "text" not in captured:   # pragma: no cover - the callback raises StopCompile when it runs
        raise CompileError("the pre-pipeline callback never ran", where=spec.name)
    return name_params(captured["text"], [a for a, t in spec.signature.items() if t != "constexpr"])


def read_kernel(path: str, target: Target, kernel: str | None = None, args: dict[str, str] | None = None,
                consts: dict[str, str] | None = None, num_warps: int | None = None,
                spec_file: str | None = None) -> KernelIR:
    """The pre-pipeline TTGIR of a kernel file. A ``.ttgir`` / ``.mlir`` file is used as it is; a
    ``.py`` is loaded safely (nothing of it runs but kernels, helpers and constants) and compiled
    offline for ``target``, specialised as ``twill.ir.spec`` says (``spec_file``: one captured from a
    launch by ``twill capture``). ``meta["notes"]`` says what loading skipped or chose.

    Examples
    --------
    >>> k = read_kernel("kernels/gemm.py", Target("h100", 90))     # doctest: +SKIP
    >>> k.kernel, k.spec.num_warps                                 # doctest: +SKIP
    ('_gemm', 8)
    """
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", where=path, expected="a kernel .py or a .ttgir")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError("cannot read kernel file", where=path, found=e.strerror) from None
    meta: dict[str, Any] = {"source_file": p.name, "source_sha256": sha256(data)}
    if p.suffix in (".ttgir", ".mlir"):
        return KernelIR(_hoisted(data.decode(errors="replace"), meta), kernel or p.stem, meta)
    if p.suffix != ".py":
        raise InputError("unknown input kind", where=path, expected="a .py kernel or a .ttgir",
                         found=p.suffix or "no suffix")
    spec = load_kernel(path, target.arch, kernel, args, consts, num_warps, spec_file, target.sm)
    meta.update(num_stages=spec.num_stages, constexprs=json_safe(spec.constexprs))
    if spec.notes:
        meta["notes"] = list(spec.notes)
    flattened: list[bool] = []
    raw = pre_pipeline_ttgir(spec, target, flattened=flattened)
    unrolled = static_nests(spec, raw)
    if unrolled:
        raw = pre_pipeline_ttgir(spec, target, flattened=flattened)
        meta.setdefault("notes", []).append(
            f"unrolled as tl.static_range (a loop of {UNROLL_MAX} trips at most, its bounds constexpr, around another "
            f"loop and carrying a tile from trip to trip; written with tl.static_range, Triton unrolls it the same): "
            f"the loop at line {', '.join(map(str, unrolled))}")
    text = _hoisted(raw, meta)
    nested = _hoisted(pre_pipeline_ttgir(spec, target, fuse=False), {}) if any(flattened) else None
    return KernelIR(text, spec.name, meta, spec, nested)


UNROLL_MAX = 16          # trips of a constexpr loop nest's outer loop that ``static_nests`` unrolls
STATIC_RANGE = "_twill_static_range"     # the name the rewritten source calls tl.static_range by


def static_nests(spec: KernelSpec, text: str) -> list[int]:
    """Where a loop of the kernel (``text`` its TTGIR) runs a constant number of trips, at most ``UNROLL_MAX``,
    around another loop and carries a tile (a depthwise conv's ``for kh in range(KH): for kw in range(KW): acc
    += ...``; a kernel's own tile loop carries scalars only, and the Gluon back end writes no other kind around the
    scheduled loop), its ``range`` over constexprs in ``spec.fn``'s source made ``tl.static_range`` (the line kept,
    so every location stays), as the kernel's author would write it: Triton unrolls it into loops in sequence,
    which the back end writes as siblings. Returns the source lines rewritten (none: ``spec`` untouched)."""
    fn = spec.fn
    if not all(hasattr(fn, a) for a in ("_unsafe_update_src", "src", "raw_src", "starting_line_number")):
        return []                       # a Triton whose JIT function keeps its source otherwise: left as it is
    try:
        function = read_function(text, spec.name)
    except Exception:  # noqa: BLE001 - a TTGIR the reader cannot take is left as it is
        return []
    consts = {o.results[0]: int_constant(o) for o in function.ops if o.name == "arith.constant" and o.results}
    lines = set()
    for loop in function.module.loops():
        bounds = loop_bounds(loop)
        if (loop.body is None or bounds is None or loop.loc.line is None
                or not any(o.name == vocab.LOOP for o in loop.nested())
                or not any("tensor<" in t for t in loop.result_types)):
            continue
        lb, ub, step = (consts.get(b) for b in bounds)
        if lb is not None and ub is not None and step and 0 < (ub - lb + step - 1) // step <= UNROLL_MAX:
            lines.add(loop.loc.line)
    if not lines:
        return []
    src = fn.src.split("\n")
    first = fn.starting_line_number + next((i for i, ln in enumerate(fn.raw_src) if re.match(r"\s*def\s", ln)), 0)
    done = []
    for line in sorted(lines):
        k = line - first
        if not 0 <= k < len(src):
            continue
        new = _static_range(src[k], set(spec.constexprs))
        if new is not None:
            src[k] = new
            done.append(line)
    if done:
        import triton.language as tl
        fn.__globals__[STATIC_RANGE] = tl.static_range
        fn._unsafe_update_src("\n".join(src))
    return done


def _static_range(line: str, constexprs: set[str]) -> str | None:
    """``line`` (a ``for ... in range(...)``) with ``range`` made ``STATIC_RANGE``, where its bounds read only
    integers and ``constexprs``; else None."""
    m = re.match(r"(\s*for\s+\w+\s+in\s+)range\((.*)\)(\s*:.*)$", line)
    if not m or not all(w in constexprs for w in re.findall(r"[A-Za-z_]\w*", m.group(2))):
        return None
    return f"{m.group(1)}{STATIC_RANGE}({m.group(2)}){m.group(3)}"


def _hoisted(text: str, meta: dict[str, Any]) -> str:
    """``text`` with its loops' invariant shared allocations moved before them (``hoist_invariant_allocs``), said in
    ``meta["notes"]``."""
    text, moved = hoist_invariant_allocs(text)
    if moved:
        meta.setdefault("notes", []).append(f"moved before their loops (the same buffer every iteration, as Triton's "
                                            f"own passes move them): {', '.join(moved)}")
    text, sunk = sink_fma_operands(text)
    if sunk:
        meta.setdefault("notes", []).append(f"FMA dot operands made before their loops stored in shared memory there "
                                            f"and loaded in the loop, as Triton's own passes write them: {', '.join(sunk)}")
    return text


_LAYOUT_DEF = re.compile(r"^#[\w.]+ = #ttg\.\w+<.*$", re.M)


def widened(kir: KernelIR, target: Target) -> KernelIR | None:
    """The kernel compiled as if its integer arguments not known 16-divisible were so, where that changes the
    layouts Triton gives it (a row's pointer loads 16 bytes a thread, not 2: ``tl.load(x + row * N + cols)`` with
    ``N`` unknown): the TTGIR the Gluon back end writes its kernel from. Triton's launcher specialises a launch's
    integers divisible by 16 as such and lays the loads out wide; a kernel written from the narrow layouts keeps
    narrow loads at every launch (FlagGems' softmax x0.64 Triton's best, run 65). Written wide, the kernel stays
    correct where a launch's integers are not divisible: Gluon's load and store lowering takes the vector width
    from what the launch's specialisation proves aligned, capped by the layout (run 66: correct at N = 33001, x1.00
    at N = 65536). None where no such argument changes a layout (or the kernel has no spec)."""
    spec = kir.spec
    if spec is None:
        return None
    ints = tuple(n for n, t in spec.signature.items() if t in ("i32", "i64") and n not in spec.divisibility)
    if not ints:
        return None
    wide = dataclasses.replace(spec, divisibility=tuple(spec.divisibility) + ints, assumed=ints)
    flattened: list[bool] = []
    text = _hoisted(pre_pipeline_ttgir(wide, target, flattened=flattened), {})   # as ``kir``'s (its notes said)
    if _LAYOUT_DEF.findall(text) == _LAYOUT_DEF.findall(kir.text):
        return None
    nested = _hoisted(pre_pipeline_ttgir(wide, target, fuse=False), {}) if any(flattened) else None
    return KernelIR(text, kir.kernel, dict(kir.meta), wide, nested)
