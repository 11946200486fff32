"""The one registry of solver backends: what each solves, what it can do, and what to install for it.

An entry is one backend for one kind of problem: ``modulo`` (``ModuloAtII``: the minimal length at a
fixed II), ``joint`` (``JointAtIL``: Algorithm 1's step) or ``normalize`` (the section 5.2 cost
ILP). It names the module and class that implement it, the pip package that provides the solver
and the module whose presence proves that package installed, and its features beyond ``solve``:

- ``ii_range`` (modulo): ``smallest_ii(ModuloIIRange, options)``, the smallest feasible II of a
  range in one model with II a variable, valid for II >= ``range_floor(problem)``.

Every backend has a ``name`` and ``solve(problem, options) -> Solution``. Nothing is imported until
``get_backend`` is called, and a backend imports its solver only inside its methods: importing
``twill.solve`` works on a machine without any solver (the GPU machine has none). CP-SAT's
parameters, and the measurements behind them, are in ``cpsat_base.cpsat_solver``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from twill.errors import SolverError
from twill.util import is_installed

MODULO, JOINT, NORMALIZE = "modulo", "joint", "normalize"
II_RANGE = "ii_range"


@dataclass(frozen=True)
class SolverEntry:
    name: str                       # what --backend / --joint-backend take
    problem: str                    # MODULO | JOINT | NORMALIZE
    module: str
    cls: str
    package: str                    # pip install <package>
    probe: str                      # a module of the package: found (not imported) iff installed
    features: frozenset[str] = frozenset()


_CPSAT = ("ortools", "ortools.sat.python.cp_model")
_SCIP = ("pyscipopt", "pyscipopt")
_Z3 = ("z3-solver", "z3")

REGISTRY: dict[tuple[str, str], SolverEntry] = {(e.problem, e.name): e for e in (
    SolverEntry("cpsat", MODULO, "twill.solve.backends.cpsat", "CpSatModulo", *_CPSAT, frozenset({II_RANGE})),
    SolverEntry("cpsat-slots", MODULO, "twill.solve.backends.cpsat", "CpSatSlotsModulo", *_CPSAT),
    SolverEntry("scip", MODULO, "twill.solve.backends.scip", "ScipModulo", *_SCIP),
    SolverEntry("cpsat", JOINT, "twill.solve.backends.cpsat_joint", "CpSatJoint", *_CPSAT),
    SolverEntry("z3", JOINT, "twill.solve.backends.z3_joint", "Z3Joint", *_Z3),
    SolverEntry("scip", NORMALIZE, "twill.solve.backends.scip", "ScipNormalize", *_SCIP),
)}


def names(problem: str = MODULO) -> list[str]:
    """The backends registered for ``problem``.

    Examples
    --------
    >>> names("joint")
    ['cpsat', 'z3']
    """
    return [name for kind, name in REGISTRY if kind == problem]


def entry(name: str, problem: str = MODULO) -> SolverEntry:
    """The registry entry of backend ``name`` for ``problem``; SolverError listing the names for
    that problem when there is none."""
    got = REGISTRY.get((problem, name))
    if got is None:
        kind = "" if problem == MODULO else f"{problem} "
        raise SolverError(f"unknown {kind}solver backend", expected=" | ".join(names(problem)), found=name)
    return got


def supports(name: str, feature: str, problem: str = MODULO) -> bool:
    """Whether backend ``name`` for ``problem`` declares ``feature``.

    Examples
    --------
    >>> supports("cpsat", II_RANGE), supports("scip", II_RANGE)
    (True, False)
    """
    return feature in entry(name, problem).features


def get_backend(name: str, problem: str = MODULO) -> Any:
    """A new instance of backend ``name`` for ``problem``, its module imported now; SolverError
    with the pip command when its solver is missing.

    Examples
    --------
    >>> get_backend("cpsat").name, get_backend("z3", "joint").name
    ('cpsat', 'z3')
    """
    e = entry(name, problem)
    if not is_installed(e.probe):
        kind = "" if problem == MODULO else f"{problem} "
        raise SolverError(f"{kind}solver backend {name} is not installed", hint=f"pip install {e.package}")
    return getattr(importlib.import_module(e.module), e.cls)()
