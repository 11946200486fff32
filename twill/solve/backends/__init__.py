"""Solver backends behind one interface (``twill.solve.problem.Backend``), imported lazily; the
registry maps a backend name to its module, class and the package that provides its solver."""
from __future__ import annotations

import importlib
from typing import Any

from twill.errors import SolverError
from twill.graph.model import Reservation

# name -> (module, class, pip package)
REGISTRY = {
    "cpsat": ("twill.solve.backends.cpsat", "CpSatModulo", "ortools"),
    "cpsat-slots": ("twill.solve.backends.cpsat", "CpSatSlotsModulo", "ortools"),
    "scip": ("twill.solve.backends.scip", "ScipModulo", "pyscipopt"),
}


def get_backend(name: str) -> Any:
    """The modulo-scheduling backend ``name``; SolverError (with the pip command) when its solver
    is missing.

    Examples
    --------
    >>> get_backend("cpsat").name
    'cpsat'
    """
    if name not in REGISTRY:
        raise SolverError("unknown solver backend", expected=" | ".join(REGISTRY), found=name)
    module, cls, package = REGISTRY[name]
    backend = getattr(importlib.import_module(module), cls)()
    if not backend.is_installed():
        raise SolverError(f"solver backend {name} is not installed", hint=f"pip install {package}")
    return backend


def available() -> list[str]:
    """Names of the backends whose solver is installed here."""
    out = []
    for name, (module, cls, _) in REGISTRY.items():
        if getattr(importlib.import_module(module), cls)().is_installed():
            out.append(name)
    return out


def cpsat_solver(options: Any) -> Any:
    """A CP-SAT solver configured from ``options`` (time_limit, threads, seed), the one place every
    CP-SAT backend takes its parameters from.

    No LP relaxation (``linearization_level = 0``): these are scheduling problems whose bound on L
    comes from the modulo length already proved, and the LP's cuts do not prune them. No probing in
    presolve (``cp_model_probing_level = 0``): it costs most of a small refutation's time and, on
    the joint problems, more than the search it saves. Measured with one worker over six seeds on
    the Blackwell sub-tiled FA joint step (I = 200, hinted with the modulo seed): median 0.09 s,
    against 0.85 s with probing and 16.6 s (unhinted) with CP-SAT's defaults; the Hopper sub-tiled
    step (I = 412): 0.30 s against 0.68 s; a Hopper FA backward refutation: 50 ms against 86 ms.
    One worker: the two-worker portfolio on these models was slower on this 2-core machine.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.001, float(options.time_limit))
    solver.parameters.num_workers = max(1, int(options.threads))
    solver.parameters.random_seed = int(options.seed)
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_probing_level = 0
    return solver


def slot_coefficients(rrt: tuple[Reservation, ...], unit: str, ii: int) -> dict[tuple[int, int], int]:
    """``{(r, s): instances of unit}`` an op issued in modulo slot r holds in slot s.

    This is Figure 4's CAPACITY row ``sum_c op[v, i, t - c] * RRT[v][f, c]`` folded modulo II:
    reservation cycle c of an op issued at t falls in slot (t + offset + c) mod II, and a
    reservation longer than II wraps onto itself (counted once per wrap).
    """
    out: dict[tuple[int, int], int] = {}
    for res in rrt:
        if res.unit != unit or not res.count or not res.length:
            continue
        for r in range(ii):
            for c in range(res.length):
                s = (r + res.offset + c) % ii
                out[(r, s)] = out.get((r, s), 0) + res.count
    return out
