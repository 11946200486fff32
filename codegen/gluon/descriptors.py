"""Tensor descriptors a kernel makes itself (``tl.make_tensor_descriptor``), made by the generated launcher instead.

Triton 3.x tutorials and newer library kernels build their TMA descriptors in the kernel, from a pointer argument,
a shape and strides (``tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])``).
Where the descriptor is made once at the top of the kernel from its arguments and constants, it is the descriptor a
host would pass: the TTGIR is rewritten so that it is an argument of the kernel (its defining line left as a
comment, so line numbers hold), and the launcher makes it from the bound arguments (``LAUNCH_DESCRIPTORS``: the
base pointer's argument, the shape's and strides' expressions in them). One made from a base or a size
only the program knows (a batch's offset from a program id) is made in the generated kernel, as Triton's kernel
makes it (``ops.make_descriptor``); one made inside a loop or a branch is refused in one line naming it.
"""
from __future__ import annotations

import re

from codegen.gluon.ops import source_where
from codegen.gluon.values import py_name
from twill.errors import UnsupportedError
from twill.ir.function import read_function
from twill.ir.ttgir import IROp

MAKE = "tt.make_tensor_descriptor"
_SCALAR = {"arith.addi": "({0} + {1})", "arith.subi": "({0} - {1})", "arith.muli": "({0} * {1})",
           "arith.divsi": "({0} // {1})", "arith.divui": "({0} // {1})", "arith.ceildivsi": "(-(-{0} // {1}))",
           "arith.remsi": "({0} % {1})", "arith.minsi": "min({0}, {1})", "arith.maxsi": "max({0}, {1})"}
_SAME = {"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast"}


def launch_descriptors(ttgir: str, where: str) -> tuple[str, dict[str, tuple[str, list[str], list[str]]]]:
    """``ttgir`` with each descriptor the kernel makes at its top an argument of the kernel, and for each its
    base pointer's argument and its shape's and strides' expressions in the arguments (Python)."""
    if MAKE not in ttgir:
        return ttgir, {}
    fn = read_function(ttgir, where)
    top = {id(o) for o in fn.ops}
    made: dict[str, tuple[str, list[str], list[str]]] = {}
    lines = ttgir.splitlines()
    defs = {r: o for o in fn.ops for r in o.results}
    args = {a.name for a in fn.args}
    for op, _ in fn.module.walk():
        if op.name != MAKE:
            continue
        if id(op) not in top:
            raise UnsupportedError("a tensor descriptor made inside a loop or a branch (tl.make_tensor_descriptor)",
                                   where=f"{where}, {source_where(op)}",
                                   expected="one made at the top of the kernel, which the launcher makes instead")
        m = re.match(r"\s*(%[\w$.\-]+)\s*=\s*tt\.make_tensor_descriptor\s+(%[\w$.\-]+),\s*\[([^\]]*)\],\s*\[([^\]]*)\]"
                     r"\s*:\s*<[^>]*>,\s*<(tensor<.*>)>", op.text)
        if m is None:
            raise UnsupportedError("a tensor descriptor the Gluon back end cannot read", where=f"{where}, {source_where(op)}",
                                   expected="tt.make_tensor_descriptor %base, [shape], [strides] : <T>, <tensor<...>>",
                                   found=op.text.strip().split(" : ")[0])
        shape, strides = ([scalar_expression(v.strip(), defs, args) for v in m.group(g).split(",")] for g in (3, 4))
        if m.group(2) not in args or None in shape + strides:
            continue       # a base or a size only the program knows (a batch's offset): made in the kernel (``ops``)
        made[py_name(m.group(1))] = (py_name(m.group(2)), shape, strides)
        lines[op.lineno - 1] = f"    // twill: {m.group(1)} made by the launcher ({op.text.strip()[:60]})"
        head = next(i for i, ln in enumerate(lines) if "tt.func" in ln and ln.rstrip().endswith("{"))
        close = _args_end(lines[head])
        lines[head] = f"{lines[head][:close]}, {m.group(1)}: !tt.tensordesc<{m.group(5)}>{lines[head][close:]}"
    return "\n".join(lines) + ("\n" if ttgir.endswith("\n") else ""), made


def _args_end(header: str) -> int:
    """The index of the parenthesis closing a ``tt.func`` header's argument list."""
    depth, start = 0, header.index("(", header.index("@"))
    for i in range(start, len(header)):
        depth += {"(": 1, ")": -1}.get(header[i], 0)
        if depth == 0:
            return i
    raise UnsupportedError("a kernel header the Gluon back end cannot read", found=header.strip()[:80])


def scalar_expression(v: str, defs: dict[str, IROp], args: set[str]) -> str | None:
    """The scalar ``v`` as a Python expression in the kernel's arguments: an argument, an integer constant, or
    integer arithmetic on them (``tl.cdiv``'s add, subtract and divide; remainders; ``min``, ``max``); None for
    anything else (a program id, a loaded value, a loop's index). Divisions floor, as Triton's do for the
    non-negative sizes they are applied to."""
    if v in args:
        return py_name(v)
    op = defs.get(v)
    text = op.text if op is not None else ""
    c = re.search(r"arith\.constant\s+(-?\d+)\s*:", text)
    if c:
        return c.group(1)
    if op is not None and op.name in _SAME:
        return scalar_expression(op.operands[0], defs, args)
    if op is None or len(op.operands) != 2 or op.name not in _SCALAR:
        return None
    a, b = (scalar_expression(x, defs, args) for x in op.operands)
    return None if a is None or b is None else _SCALAR[op.name].format(a, b)
