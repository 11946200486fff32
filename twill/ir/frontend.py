"""From a kernel file (.py or .ttgir) to its loop graph: load, specialise, compile offline, parse, build."""
from __future__ import annotations

import hashlib
from pathlib import Path

from twill.errors import InputError
from twill.graph.model import LoopGraph
from twill.ir.load import ARCH_SM, KernelSpec, load_kernel, load_module, make_spec, pick_kernel, source_of
from twill.ir.pipeline import pre_pipeline_ttgir

__all__ = ["ARCH_SM", "KernelSpec", "graph_for_file", "load_module", "make_spec", "pick_kernel", "source_of",
           "ttgir_for_file"]


def ttgir_for_file(path: str, arch: str, kernel: str | None = None, args: dict[str, str] | None = None,
                   consts: dict[str, str] | None = None, num_warps: int | None = None) -> tuple[str, str, dict]:
    """The pre-pipeline TTGIR of a kernel file: (text, kernel name, provenance meta).

    A ``.ttgir`` / ``.mlir`` file is used as it is; a ``.py`` is loaded safely and compiled offline.
    """
    if arch not in ARCH_SM:
        raise InputError("unknown arch", expected=" | ".join(ARCH_SM), found=arch)
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", where=path, expected="a kernel .py or a .ttgir")
    data = p.read_bytes()
    meta: dict = {"source_file": p.name, "source_sha256": hashlib.sha256(data).hexdigest()}
    if p.suffix in (".ttgir", ".mlir"):
        return data.decode(errors="replace"), kernel or p.stem, meta
    if p.suffix != ".py":
        raise InputError("unknown input kind", where=path, expected="a .py kernel or a .ttgir",
                         found=p.suffix or "no suffix")
    spec = load_kernel(path, arch, kernel, args, consts, num_warps)
    meta.update(num_stages=spec.num_stages, constexprs=dict(spec.constexprs))
    return pre_pipeline_ttgir(spec, arch), spec.name, meta


def graph_for_file(path: str, arch: str, kernel: str | None = None, loop: int | None = None,
                   args: dict[str, str] | None = None, consts: dict[str, str] | None = None,
                   num_warps: int | None = None) -> tuple[LoopGraph, str]:
    """The loop graph of a kernel file (.py or .ttgir) and the pre-pipeline TTGIR it came from.

    Examples
    --------
    >>> g, text = graph_for_file("kernels/fa3.py", "h100")     # doctest: +SKIP
    >>> [o.id for o in g.ops if o.kind == "dot"]               # doctest: +SKIP
    ['dot0_qk', 'dot1_acc']
    """
    from twill.graph.build import build_graph
    from twill.ir.ttgir import parse

    text, name, meta = ttgir_for_file(path, arch, kernel, args, consts, num_warps)
    module = parse(text, where=path)
    return build_graph(module, arch, loop=loop, kernel=name, meta=meta), text
