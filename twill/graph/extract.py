"""A kernel file's loop dependence graph: the pre-pipeline TTGIR (``twill.ir``) parsed and built into a
LoopGraph; and every loop of every kernel of the file, for ``twill graph``'s listing."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from twill.errors import TwillError
from twill.graph.build import build_graph
from twill.graph.loops import LoopInfo, LoopSelector, loop_infos
from twill.graph.model import LoopGraph
from twill.ir.frontend import KernelIR, read_kernel
from twill.ir.load import kernel_defs, kernels_and_helpers, load_module
from twill.ir.target import Target
from twill.ir.ttgir import parse


def graph_of(kir: KernelIR, target: Target, loop: LoopSelector = None, where: str | None = None) -> LoopGraph:
    """The loop graph of an already read kernel."""
    module = parse(kir.text, where=where or kir.kernel)
    return build_graph(module, target, loop=loop, kernel=kir.kernel, meta=kir.meta)


def graph_for_file(path: str, target: Target, kernel: str | None = None, loop: LoopSelector = None,
                   args: dict[str, str] | None = None, consts: dict[str, str] | None = None,
                   num_warps: int | None = None, spec_file: str | None = None) -> tuple[LoopGraph, KernelIR]:
    """The loop graph of a kernel file (.py or .ttgir) and the kernel IR it came from.

    Examples
    --------
    >>> g, kir = graph_for_file("kernels/fa3.py", Target("h100", 90))     # doctest: +SKIP
    >>> [o.id for o in g.ops if o.kind == "dot"]                          # doctest: +SKIP
    ['dot0_qk', 'dot1_acc']
    """
    kir = read_kernel(path, target, kernel, args, consts, num_warps, spec_file)
    return graph_of(kir, target, loop, where=path), kir


@dataclass(frozen=True)
class KernelLoops:
    """The loops of one kernel of a file: from its TTGIR when it compiled (``loops``), else the ``for``
    and ``while`` statements of its source and its helpers' (``source``: (line, depth)), and why not."""

    kernel: str
    loops: tuple[LoopInfo, ...] = ()
    source: tuple[tuple[int, int], ...] = ()
    error: str | None = None


def _source_loops(node: ast.FunctionDef, defs: dict[str, ast.FunctionDef]) -> list[tuple[int, int]]:
    """(line, depth) of the loops of a kernel's source, its helpers' included (a helper's loops at
    its own lines)."""
    out: list[tuple[int, int]] = []
    seen: set[str] = set()

    def visit(n: ast.AST, depth: int) -> None:
        for child in ast.iter_child_nodes(n):
            loop = isinstance(child, (ast.For, ast.While))
            if loop:
                out.append((child.lineno, depth))
            if isinstance(child, ast.Call):
                callee = getattr(child.func, "attr", None) or getattr(child.func, "id", None)
                if callee in defs and callee not in seen and callee != node.name:
                    seen.add(callee)
                    visit(defs[callee], depth)
            visit(child, depth + loop)
    visit(node, 0)
    return sorted(set(out))


def file_loops(path: str, target: Target, kir: KernelIR, **flags) -> list[KernelLoops]:
    """Every loop of every kernel of ``path``: ``kir``'s kernel from its TTGIR, each other kernel
    compiled with its own specialisation (TWILL_SPEC's, its autotune configs', the spec file's), or,
    when that is incomplete, listed from its source with the reason."""
    out = [KernelLoops(kir.kernel, tuple(loop_infos(parse(kir.text, where=path))))]
    if not path.endswith(".py"):
        return out
    mod = load_module(path)
    defs = kernel_defs(mod)
    kernels, _ = kernels_and_helpers(mod)
    for name in sorted(k for k in kernels if k != kir.kernel):
        try:
            other = read_kernel(path, target, name, spec_file=flags.get("spec_file"))
            out.append(KernelLoops(name, tuple(loop_infos(parse(other.text, where=path)))))
        except TwillError as e:
            out.append(KernelLoops(name, source=tuple(_source_loops(defs[name], defs)) if name in defs else (),
                                   error=str(e)))
    return out
