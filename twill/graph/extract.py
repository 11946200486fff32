"""A kernel file's loop dependence graph: the pre-pipeline TTGIR (``twill.ir``) parsed and built into a LoopGraph."""
from __future__ import annotations

from twill.graph.build import build_graph
from twill.graph.model import LoopGraph
from twill.ir.frontend import KernelIR, read_kernel
from twill.ir.target import Target
from twill.ir.ttgir import parse


def graph_of(kir: KernelIR, target: Target, loop: int | None = None, where: str | None = None) -> LoopGraph:
    """The loop graph of an already read kernel."""
    module = parse(kir.text, where=where or kir.kernel)
    return build_graph(module, target, loop=loop, kernel=kir.kernel, meta=kir.meta)


def graph_for_file(path: str, target: Target, kernel: str | None = None, loop: int | None = None,
                   args: dict[str, str] | None = None, consts: dict[str, str] | None = None,
                   num_warps: int | None = None) -> tuple[LoopGraph, KernelIR]:
    """The loop graph of a kernel file (.py or .ttgir) and the kernel IR it came from.

    Examples
    --------
    >>> g, kir = graph_for_file("kernels/fa3.py", Target("h100", 90))     # doctest: +SKIP
    >>> [o.id for o in g.ops if o.kind == "dot"]                          # doctest: +SKIP
    ['dot0_qk', 'dot1_acc']
    """
    kir = read_kernel(path, target, kernel, args, consts, num_warps)
    return graph_of(kir, target, loop, where=path), kir
