"""The scheduled loop's trip count a CTA, as an expression in the Triton kernel's arguments: what a launch evaluates
to route short loops (``codegen.gluon.short``) and to refuse a launch too short for a pipeline that must fill its
prologue (``codegen.gluon.host``)."""
from __future__ import annotations

import ast

from codegen.gluon.descriptors import scalar_expression
from codegen.gluon.plan import KernelPlan
from twill.ir.ttgir import loop_bounds


def launch_trips(plan: KernelPlan) -> tuple[str, bool] | None:
    """The scheduled loop's iterations a CTA as a Python expression in the kernel's arguments (``((K - 0) + 31) //
    32``-like), and whether it is exact; else an upper bound, where a bound takes the ``min`` of an argument and a
    value only the CTA knows (Mamba's ``min(chunk_size, seqlen - pid_c * chunk_size)``: at most ``chunk_size``). None
    where no bound is computed from arguments and constants alone (a program id, a loaded length, an outer loop's
    index) or the kernel has other loops beside it."""
    if plan.siblings:
        return None
    found = loop_trips(plan, plan.loop)
    return None if found is None or _is_constant(found[0]) else found


def loop_trips(plan: KernelPlan, loop) -> tuple[str, bool] | None:
    """Loop ``loop``'s (one of ``plan.fn``'s) iterations a CTA as ``launch_trips`` writes them, a constant trip
    count included; None where its bounds are not computed from the arguments and constants alone."""
    bounds = loop_bounds(loop)
    if bounds is None:
        return None
    defs = {r: o for o, _ in plan.fn.module.walk() for r in o.results}
    args = {a.name for a in plan.fn.args}
    lb, ub = _bound(bounds[0], defs, args, upper=False), _bound(bounds[1], defs, args, upper=True)
    step = scalar_expression(bounds[2], defs, args)
    if lb is None or ub is None or step is None:
        return None
    exact = all(scalar_expression(v, defs, args) is not None for v in bounds[:2])
    trips = (ub if (lb, step) == ("0", "1") else f"({ub} + {step} - 1) // {step}" if lb == "0"
             else f"({ub} - {lb} + {step} - 1) // {step}")
    return trips, exact


def counted_at_launch(plan: KernelPlan, loop) -> str | None:
    """Loop ``loop``'s exact trip count as the launch evaluates it (``loop_trips``), where the launch can: a loop
    whose pipeline must fill its prologue is then refused there when too short (``host._least_check``); where it
    cannot (an in-kernel length, a program id, an outer loop's index), the loop guards itself in the kernel."""
    found = loop_trips(plan, loop)
    return found[0] if found is not None and found[1] else None


_TIGHTER = {("arith.minsi", True): "min", ("arith.minui", True): "min",
            ("arith.maxsi", False): "max", ("arith.maxui", False): "max"}


def _bound(v: str, defs: dict, args: set[str], upper: bool) -> str | None:
    """The scalar ``v`` exactly (``scalar_expression``), else an upper (``upper``) or lower bound of it in the
    arguments: a ``min`` is at most its computable side, a ``max`` at least, through sums and differences."""
    exact = scalar_expression(v, defs, args)
    op = defs.get(v)
    if exact is not None or op is None:
        return exact
    if op.name in ("arith.extsi", "arith.extui", "arith.index_cast"):
        return _bound(op.operands[0], defs, args, upper)
    if len(op.operands) != 2:
        return None
    a, b = op.operands
    if (op.name, upper) in _TIGHTER:
        sides = [x for x in (_bound(a, defs, args, upper), _bound(b, defs, args, upper)) if x is not None]
        return None if not sides else sides[0] if len(sides) == 1 else f"{_TIGHTER[op.name, upper]}({', '.join(sides)})"
    if op.name == "arith.addi":
        x, y = _bound(a, defs, args, upper), _bound(b, defs, args, upper)
        return None if x is None or y is None else f"({x} + {y})"
    if op.name == "arith.subi":
        x, y = _bound(a, defs, args, upper), _bound(b, defs, args, not upper)
        return None if x is None or y is None else f"({x} - {y})"
    return None


def _is_constant(expr: str) -> bool:
    return not any(isinstance(n, ast.Name) for n in ast.walk(ast.parse(expr, mode="eval")))
