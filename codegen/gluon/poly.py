"""Integer polynomials over named atoms: the affine analysis of pointer tiles (``boxes``) and the canonical forms of
the integers a clamp's proof compares (``clamps``)."""
from __future__ import annotations

from dataclasses import dataclass

Mono = tuple[str, ...]          # a product of atoms, sorted


@dataclass(frozen=True)
class Poly:
    """An integer polynomial over atoms (SSA values, ``R<d>``: the tile's index along dimension d, ``I``)."""

    terms: tuple[tuple[Mono, int], ...] = ()

    @staticmethod
    def of(d: dict[Mono, int]) -> "Poly":
        return Poly(tuple(sorted((m, c) for m, c in d.items() if c != 0)))

    @staticmethod
    def const(c: int) -> "Poly":
        return Poly.of({(): c})

    @staticmethod
    def atom(a: str) -> "Poly":
        return Poly.of({(a,): 1})

    @property
    def d(self) -> dict[Mono, int]:
        return dict(self.terms)

    def __add__(self, o: "Poly") -> "Poly":
        d = self.d
        for m, c in o.terms:
            d[m] = d.get(m, 0) + c
        return Poly.of(d)

    def __neg__(self) -> "Poly":
        return Poly(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, o: "Poly") -> "Poly":
        return self + (-o)

    def __mul__(self, o: "Poly") -> "Poly":
        d: dict[Mono, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in o.terms:
                m = tuple(sorted(m1 + m2))
                d[m] = d.get(m, 0) + c1 * c2
        return Poly.of(d)

    def atoms(self) -> set[str]:
        return {a for m, _ in self.terms for a in m}

    def rename(self, f) -> "Poly":       # noqa: ANN001 - atom -> atom
        d: dict[Mono, int] = {}
        for m, c in self.terms:
            k = tuple(sorted(f(a) for a in m))
            d[k] = d.get(k, 0) + c
        return Poly.of(d)

    def value(self) -> int | None:
        """The constant, where the polynomial is one."""
        return self.d.get((), 0) if all(m == () for m, _ in self.terms) else None

    def py(self, name) -> str:           # noqa: ANN001 - atom -> Python expression
        """Python for it, each atom spelled by ``name``."""
        parts = []
        for m, c in self.terms:
            factors = [name(a) for a in m]
            if c != 1 or not factors:
                factors = [str(c)] + factors
            parts.append(" * ".join(factors))
        return " + ".join(parts).replace("+ -", "- ") if parts else "0"
