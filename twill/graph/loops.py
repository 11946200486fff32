"""Every loop of a kernel module, what work each holds, and which one a run schedules (``--loop``).

A kernel can have several loops: siblings (a softmax's max-then-normalise passes), loops nested in
``scf.if`` / ``scf.while`` (a grouped GEMM's tile loop, the guard of a flattened persistent loop),
loops of helpers that stay calls. They are numbered in text order (the order ``ttgir.loops`` sees
them in), and a loop is picked by that index or by its source line. By default the innermost loop
with the most tensor-core work, then the most memory traffic, is picked, and the choice says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from twill.errors import InputError, UnsupportedError
from twill.ir import vocab
from twill.ir.ttgir import IROp, Module, Site, int_constant, loop_bounds, operand_types, stored_type, type_info

LoopSelector = int | str | None   # an index, ":LINE" / "FILE:LINE", or None for the default


@dataclass(frozen=True)
class LoopInfo:
    """One loop: its index, where it is (TTGIR line, source file and line, function, enclosing
    constructs), whether it holds another loop, and its work (counted over nested regions too)."""

    index: int
    lineno: int                      # the scf.for's line in the TTGIR text (1-based)
    file: str | None
    line: int | None
    func: str
    helper: bool                     # in a helper function that stayed a call, not in the kernel itself
    parents: tuple[str, ...]         # enclosing region ops, outermost first (scf.if, scf.while, scf.for)
    depth: int                       # loops around it
    innermost: bool
    dots: int
    loads: int
    stores: int
    ops: int                         # top-level ops of the body, the yield left out
    flops: int                       # 2*m*n*k summed over the dots
    bytes: int                       # bytes loaded and stored an iteration
    own_line: int | None = None      # a loop of an inlined helper: the ``for``'s line in the helper (``line``: the call's)
    all_ops: int = 0                 # the body's ops at any depth (both branches of an if), the yields left out
    runs: int = 1                    # how often the enclosing loops run it: their constant trip counts' product

    @property
    def where(self) -> str:
        if not (self.file and self.line):
            return f"ttgir line {self.lineno}"
        return f"{self.file}:{self.own_line} (in a helper called at line {self.line})" if self.own_line \
            else f"{self.file}:{self.line}"

    def describe(self) -> str:
        """``line 38, depth 1, 2 dots, 2 loads, 1 store, 14 ops (in scf.if > scf.for)``; a loop of an inlined helper
        ``line 79 (in a helper called at line 217), ...``."""
        inside = f" in {' > '.join(self.parents)}" if self.parents else ""
        helper = f" in helper {self.func}" if self.helper else ""
        line = str(self.line) if self.line is not None else "?"
        if self.own_line is not None:
            line = f"{self.own_line} (in a helper called at line {self.line})"
        runs = f", run {self.runs} times a program by the loops around it" if self.runs > 1 else ""
        return (f"line {line}, depth {self.depth}, {self.dots} dots, "
                f"{self.loads} loads, {self.stores} stores, {self.ops} ops{inside}{helper}{runs}")


def _nested(op: IROp) -> list[IROp]:
    out: list[IROp] = []
    for block in ((op.body,) if op.body is not None else ()) + op.regions:
        for o in block.ops:
            out.append(o)
            out.extend(_nested(o))
    return out


def _work(body: list[IROp]) -> tuple[int, int, int, int, int]:
    """(dots, loads, stores, flops, bytes) an iteration of ``body`` does, what its ops' regions hold included. An
    ``scf.if`` runs one of its branches, so it counts as the larger (vLLM's ROCm FlashAttention loads the masked
    loop's K tile under an ``if`` whose branches differ only in the mask: one tile read, not two)."""
    dots = loads = stores = flops = nbytes = 0
    for o in body:
        if o.name == "scf.if":
            branches = [_work(b.ops) for b in o.regions] or [(0, 0, 0, 0, 0)]
            w = max(branches, key=lambda b: (b[3], b[0], b[4], b[1] + b[2]))
            dots, loads, stores, flops, nbytes = (a + b for a, b in zip((dots, loads, stores, flops, nbytes), w))
            continue
        for block in ((o.body,) if o.body is not None else ()) + o.regions:     # a loop's body, a while's
            w = _work(block.ops)
            dots, loads, stores, flops, nbytes = (a + b for a, b in zip((dots, loads, stores, flops, nbytes), w))
        if o.name in vocab.DOTS:
            dots += 1
            t = operand_types(o)
            if len(t) >= 2 and len(t[0].shape) >= 2 and len(t[1].shape) >= 2:
                flops += 2 * t[0].shape[0] * t[1].shape[-1] * t[0].shape[-1]
        elif o.name in vocab.LOADS:
            loads += 1
            nbytes += sum(type_info(t).bytes for t in o.result_types[:1])
        elif o.name in vocab.STORES:
            stores += 1
            t = stored_type(o)
            nbytes += t.bytes if t else 0
    return dots, loads, stores, flops, nbytes


def _short(func: str) -> str:
    """A helper's printed name without its module prefix and specialisation suffix."""
    return re.sub(r"__.*$", "", func.rsplit(".", 1)[-1]) if "." in func else func


def loop_infos(module: Module) -> list[LoopInfo]:
    """Every ``scf.for`` of ``module`` (every function, any nesting), in text order.

    Examples
    --------
    >>> [(i.index, i.line, i.depth, i.dots) for i in loop_infos(parse(text))]   # doctest: +SKIP
    [(0, 14, 0, 0), (1, 20, 0, 0)]
    """
    out: list[LoopInfo] = []
    walk = module.walk()
    sites: list[tuple[IROp, Site]] = [(op, s) for op, s in walk if op.name == vocab.LOOP]
    consts = {r: k for op, _ in walk if (k := int_constant(op)) is not None for r in op.results[:1]}
    for k, (op, site) in enumerate(sites):
        body = [o for o in (op.body.ops if op.body else []) if o.name != vocab.YIELD]
        inner = _nested(op)
        dots, loads, stores, flops, nbytes = _work(body)
        out.append(LoopInfo(
            index=k, lineno=op.lineno, file=op.loc.file, line=op.loc.line, func=_short(site.func),
            helper=bool(module.funcs) and site.func != module.funcs[0].name,
            parents=tuple(p.name for p in site.parents), depth=site.depth,
            innermost=not any(o.name in (vocab.LOOP, "scf.while") for o in inner),
            dots=dots, loads=loads, stores=stores, ops=len(body), flops=flops, bytes=nbytes,
            own_line=op.loc.own if op.loc.inlined() and op.loc.own_file == op.loc.file else None,
            all_ops=sum(o.name != vocab.YIELD for o in inner), runs=_runs(site.parents, consts)))
    return out


def _runs(parents: tuple[IROp, ...], consts: dict[str, int]) -> int:
    """The product of the constant trip counts of the ``scf.for`` loops in ``parents`` (a loop whose bounds are
    not constants, a ``while``, counts once): how often the loop inside runs per program, as far as the TTGIR
    says (FlashInfer's top-k renorm: a vocabulary loop inside a 32-step bisection ``for``)."""
    n = 1
    for p in parents:
        b = loop_bounds(p) if p.name == vocab.LOOP else None
        lo, hi, st = (consts.get(x) for x in b) if b else (None, None, None)
        if lo is not None and hi is not None and st:
            n *= max(1, -(-(hi - lo) // st)) if st > 0 else 1
    return n


def _by_line(infos: list[LoopInfo], sel: str, where: str) -> LoopInfo:
    file, _, line = sel.rpartition(":")
    if not line.isdigit():
        raise InputError("bad --loop", where=where, expected="an index N, or :LINE / FILE:LINE of the for statement",
                         found=sel)
    # a loop of an inlined helper answers to the helper's `for` line and to the line of the call
    hits = [i for i in infos if int(line) in (i.line, i.own_line) and (not file or (i.file or "").endswith(file))]
    if len(hits) == 1:
        return hits[0]
    lines = ", ".join(f"{i.index}: line {i.line}" + (f" (a helper's for, line {i.own_line})" if i.own_line else "")
                      for i in infos) or "none"
    if not hits:
        raise InputError("no loop at that source line", where=where, expected=f"one of the loops ({lines})", found=sel)
    calls = sorted({f":{i.line}" for i in hits if i.own_line is not None and i.line != int(line)})
    also = f", or the line of its call ({', '.join(calls)})" if len(calls) == len(hits) else ""
    raise InputError("several loops at that source line (a helper inlined more than once)", where=where,
                     expected=f"--loop N with N one of {', '.join(str(i.index) for i in hits)}{also}", found=sel)


def _static(node: Any) -> bool:
    """Whether a ``for``'s iterator is ``tl.static_range(...)`` (or ``static_range``), which Triton unrolls."""
    call = node.iter
    fn = getattr(call, "func", None)
    return (getattr(fn, "attr", None) or getattr(fn, "id", None)) == "static_range"


def _source_fors(file: str | None, kernel: str) -> list[tuple[int, bool]]:
    """The lines of the ``for`` statements of function ``kernel`` in ``file`` (empty where it cannot be read), each
    with whether it is a ``tl.static_range``."""
    import ast
    try:
        tree = ast.parse(open(file).read()) if file else None
    except (OSError, SyntaxError, ValueError):
        return []
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == kernel] if tree else []
    return sorted({(n.lineno, _static(n)) for f in fns for n in ast.walk(f) if isinstance(n, ast.For)})


def find_loop(module: Module, loop: LoopSelector, where: str) -> tuple[IROp, LoopInfo, str]:
    """The loop ``loop`` names (an index, ``":LINE"`` / ``"FILE:LINE"``, a digit string), else the
    default: the innermost loop with the most tensor-core work, then memory traffic (an iteration's, times the
    constant trip counts of the loops around it), then the fewest ops (first in text order on ties). Returns the loop, its info and one line saying which loop and why.

    Fewest ops: sibling loops doing the same dots on the same bytes differ in what they add to that work, and
    what they add is masking (causal attention's diagonal, FlexAttention's partial blocks, a backward's masked
    steps): the boundary blocks that need it are few and the bulk that does not is the loop that runs long. Ops are
    counted at any depth (an if's branches both): masking a load under an ``if`` (vLLM's ROCm FlashAttention) moves
    it out of the loop's top level without taking it from the loop's work."""
    loops = module.loops()
    infos = loop_infos(module)
    if not loops:
        whiles = [op for op, _ in module.walk() if op.name == "scf.while"]
        found = "none"
        if whiles:        # `while` (scf.while): its trip count is not known when it starts, so no schedule runs ahead
            at = f"{whiles[0].loc.file.rsplit('/', 1)[-1]}:{whiles[0].loc.line}" if whiles[0].loc.file else "it"
            found = (f"only a `while` loop (scf.while, {at}): twill pipelines counted `for ... in range(...)` loops; "
                     "a loop that waits on memory (a spin lock) has none to pipeline")
        file = next((op.loc.file for op, _ in module.walk() if op.loc.file), None)   # the kernel's file, named too
        folded = _source_fors(file, where) if not whiles else []
        static = [line for line, st in folded if st]
        if static:          # Liger's mHC norm: its K loop a tl.static_range of 32 trips
            found = (f"none, though the source has `for` at line {', '.join(map(str, static))}: a tl.static_range, "
                     "which Triton unrolls into straight code at every specialisation; written as tl.range it stays "
                     "a loop twill can schedule")
        elif folded:        # xFormers' padded RoPE: range(0, dim // 2, BLOCK_SIZE // 2), one trip at its constexprs
            found = (f"none, though the source has `for` at line {', '.join(str(x) for x, _ in folded)}: at these "
                     "constexprs it runs one trip, which Triton unrolls into straight code; a specialisation giving "
                     "it more trips (--const) keeps it a loop")
        raise InputError("no loop in kernel", where=f"{file.rsplit('/', 1)[-1]}, kernel {where}" if file else where,
                         expected="an scf.for in the kernel or its helpers", found=found)
    if isinstance(loop, str) and loop.strip().lstrip("-").isdigit():
        loop = int(loop)
    if loop is not None:
        if isinstance(loop, int):
            if not 0 <= loop < len(loops):
                raise InputError("no such loop", where=where, expected=f"--loop 0..{len(loops) - 1}", found=str(loop))
            info = infos[loop]
        else:
            info = _by_line(infos, loop.strip(), where)
        chosen = loops[info.index]
        if not info.innermost:
            raise UnsupportedError("loop is not innermost (nested loops are not pipelined)",
                                   where=f"{where} ({info.where})", expected="an innermost scf.for",
                                   found="a loop containing a loop")
        return chosen, info, f"loop {info.index} of {len(loops)} ({info.describe()}): chosen by --loop"
    candidates = [i for i in infos if i.innermost]
    if not candidates:        # every for holds another loop: a `while` (FlagGems' radix sort: a spin wait per block)
        first = infos[0]
        raise UnsupportedError("no innermost counted loop to pipeline: each `for` holds a `while` loop",
                               where=f"{where} ({first.where})", expected="a `for ... in range(...)` loop holding no "
                               "loop", found="a `while` (scf.while) inside every `for`")
    # the work a program does in the loop: an iteration's, times the constant trip counts of the loops around it
    def work(i: LoopInfo) -> tuple[int, int, int]:
        return i.flops * i.runs, i.dots, i.bytes * i.runs
    best = max(candidates, key=lambda i: (*work(i), -i.all_ops, -i.index))
    why = "the only loop" if len(loops) == 1 else \
        "the innermost loop with the most tensor-core and memory work; --loop N or --loop :LINE picks another"
    if any(work(i) == work(best) and i.all_ops > best.all_ops for i in candidates):
        why = ("the innermost loop with the most tensor-core and memory work, and of those alike the fewest ops "
               "(loops alike in work usually differ by the masking of boundary blocks); --loop N or --loop :LINE "
               "picks another")
    return loops[best.index], best, f"loop {best.index} of {len(loops)} ({best.describe()}): {why}"
