"""Solver backends behind one interface, imported lazily; the registry maps names to them."""
from __future__ import annotations

import importlib
from typing import Any

from twill.errors import SolverError

# name -> (module, class, pip package)
REGISTRY = {
    "cpsat": ("twill.solve.backends.cpsat", "CpSatModulo", "ortools"),
    "scip": ("twill.solve.backends.scip", "ScipModulo", "pyscipopt"),
}


def get_backend(name: str) -> Any:
    if name not in REGISTRY:
        raise SolverError("unknown solver backend", expected=" | ".join(REGISTRY), found=name)
    module, cls, package = REGISTRY[name]
    backend = getattr(importlib.import_module(module), cls)()
    if not backend.is_installed():
        raise SolverError(f"solver backend {name} is not installed", hint=f"pip install {package}")
    return backend


def slot_coefficients(rrt: tuple, unit: str, ii: int) -> dict[tuple[int, int], int]:
    """{(r, s): units of ``unit`` an op issued at modulo slot r holds in slot s} (Figure 4 CAPACITY,
    folded modulo ii)."""
    out: dict[tuple[int, int], int] = {}
    for res in rrt:
        if res.unit != unit or not res.count or not res.length:
            continue
        for r in range(ii):
            for c in range(res.length):
                s = (r + res.offset + c) % ii
                out[(r, s)] = out.get((r, s), 0) + res.count
    return out
