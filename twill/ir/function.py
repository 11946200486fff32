"""A kernel's TTGIR function as a whole: its arguments (tensor descriptors with the shape and stride
arguments Triton expands them into), its top-level ops and the printed type of every SSA value.

Graph building reads one loop; the row-split analysis and the Gluon back end read the whole
function (the code before and after the loop too), through this view.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from twill.errors import InputError
from twill.ir import vocab
from twill.ir.ttgir import IROp, Module, parse, split_top
from twill.util import clip


@dataclass(frozen=True)
class Arg:
    """One argument of the TTGIR function. A tensor descriptor argument is followed by the scalars
    Triton expands it into (its shape, then its strides): those carry ``of`` = (descriptor, field, index)."""

    name: str                       # the SSA name, e.g. %desc_q
    type: str                       # the printed type
    divisible: bool = False         # tt.divisibility = 16
    of: tuple[str, str, int] | None = None

    @property
    def is_descriptor(self) -> bool:
        return self.type.startswith("!tt.tensordesc")


@dataclass
class Function:
    """The kernel function of a TTGIR module."""

    name: str
    args: tuple[Arg, ...]
    module: Module
    types: dict[str, str] = field(default_factory=dict)   # SSA value -> printed type

    @property
    def ops(self) -> list[IROp]:
        return self.module.ops

    def type_of(self, value: str) -> str:
        if value not in self.types:
            raise InputError("a value without a known type", where=self.name, found=value)
        return self.types[value]


def _args(header: str) -> tuple[str, tuple[Arg, ...]]:
    m = re.search(r"tt\.func\s+(?:public\s+|private\s+)?@([\w$.]+)\((.*)\)\s*(?:attributes\s*\{.*\})?\s*\{\s*$", header)
    if not m:
        raise InputError("not a TTGIR kernel function", expected="tt.func @name(...)", found=clip(header.strip(), 80))
    out: list[Arg] = []
    expand: list[tuple[str, str, int]] = []
    for part in split_top(m.group(2)):
        part = re.sub(r"\s*loc\(.*\)\s*$", "", part.strip())
        if not part:
            continue
        name, _, rest = part.partition(":")
        rest = rest.strip()
        attrs = re.search(r"\{(.*)\}\s*$", rest)
        typ = rest[:attrs.start()].strip() if attrs else rest
        arg = Arg(name.strip(), typ, bool(attrs and "tt.divisibility = 16" in attrs.group(1)),
                  expand.pop(0) if expand and not typ.startswith("!tt.tensordesc") else None)
        out.append(arg)
        if arg.is_descriptor:
            rank = len(re.findall(r"(\d+)x", typ.split("<", 2)[2])) if typ.count("<") >= 2 else 2
            expand = [(arg.name, "shape", i) for i in range(rank)] + [(arg.name, "strides", i) for i in range(rank)]
    return m.group(1), tuple(out)


def read_function(text: str, where: str = "ttgir") -> Function:
    """The kernel function of a TTGIR module, with the type of every value it defines.

    Examples
    --------
    >>> f = read_function(open("fa3.ttgir").read())   # doctest: +SKIP
    >>> [a.name for a in f.args][:2], f.type_of("%qk_31")  # doctest: +SKIP
    (['%sm_scale', '%M'], 'tensor<128x128xf32, #mma>')
    """
    module = parse(text, where)
    header = next(line for line in module.text.splitlines() if "tt.func" in line and line.rstrip().endswith("{"))
    name, args = _args(header)
    types = {a.name: a.type for a in args}
    _collect(module.ops, types)
    return Function(name, args, module, types)


def _collect(ops: list[IROp], types: dict[str, str]) -> None:
    for op in ops:
        if op.name == vocab.LOOP and op.body is not None:
            carried = loop_result_types(op)
            for r, t in zip(op.results, carried):
                types[r] = t
            types[op.body.args[0]] = _iv_type(op)
            for a, t in zip(op.body.args[1:], carried):
                types[a] = t
            _collect(op.body.ops, types)
            continue
        for r, t in zip(op.results, op.result_types):
            types[r] = t
        if op.name == vocab.WHILE and len(op.regions) == 2:   # its arguments: before (typed in its head), after
            for (a, _), t in zip(while_inits(op), split_top(_while_types(op))):
                types[a] = t.strip()
            _collect(op.regions[0].ops, types)
            cond = op.regions[0].ops[-1] if op.regions[0].ops else None
            for a, v in zip(op.regions[1].args, cond.operands[1:] if cond is not None else ()):
                types[a] = types.get(v, "i32")
            _collect(op.regions[1].ops, types)
            continue
        for region in op.regions:          # an scf.if's branches (their ops run outside any loop's schedule)
            _collect(region.ops, types)


def while_inits(op: IROp) -> list[tuple[str, str]]:
    """An ``scf.while``'s (argument, initial value) pairs, from ``scf.while (%a = %init, ...)``."""
    m = re.search(r"scf\.while\s*\(([^)]*)\)", op.text)
    return [tuple(x.strip() for x in p.split("=", 1)) for p in m.group(1).split(",") if "=" in p] if m else []


def _while_types(op: IROp) -> str:
    m = re.search(r"scf\.while\s*\([^)]*\)\s*:\s*\(([^)]*)\)", op.text)
    return m.group(1) if m else ""


def loop_result_types(loop: IROp) -> tuple[str, ...]:
    """The types an ``scf.for`` carries (its ``-> (...)`` list), one per iter_arg."""
    head = loop.text.rsplit("{", 1)[0]
    if "->" not in head:
        return ()
    tail = head.rsplit("->", 1)[1].strip()
    if tail.startswith("("):
        depth = 0
        for i, ch in enumerate(tail):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                tail = tail[1:i]
                break
    else:
        tail = tail.split(" : ")[0]
    return tuple(t.strip() for t in split_top(tail) if t.strip())


def _iv_type(loop: IROp) -> str:
    m = re.search(r"\)\s*:\s*(i\d+)\s*\{?\s*$", loop.text) or re.search(r":\s*(i\d+)\s*\{\s*$", loop.text)
    return m.group(1) if m else "i32"
