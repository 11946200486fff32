"""The error hierarchy: every user-facing failure is one of these, printed as one line."""
from __future__ import annotations


class TwillError(Exception):
    """A failure the user can act on.

    The message names what was expected, what was found and where (kernel, source line, op).
    The command line prints ``str(err)`` on one line and exits with ``exit_code``.

    Examples
    --------
    >>> str(TwillError("no loop in kernel", where="gemm", expected="an scf.for", found="none"))
    'gemm: no loop in kernel (expected an scf.for, found none)'
    """

    exit_code = 2

    def __init__(self, what: str, *, where: str | None = None, expected: str | None = None,
                 found: str | None = None, hint: str | None = None):
        self.what, self.where, self.expected, self.found, self.hint = what, where, expected, found, hint
        super().__init__(self._format())

    def _format(self) -> str:
        msg = self.what
        if self.where:
            msg = f"{self.where}: {msg}"
        detail = []
        if self.expected is not None:
            detail.append(f"expected {self.expected}")
        if self.found is not None:
            detail.append(f"found {self.found}")
        if detail:
            msg += " (" + ", ".join(detail) + ")"
        if self.hint:
            msg += f"; {self.hint}"
        return " ".join(msg.split("\n"))


class InputError(TwillError):
    """A file, flag or kernel specification that twill cannot use."""


class CompileError(TwillError):
    """Triton failed to compile a kernel or an annotated module."""


class UnsupportedError(TwillError):
    """Valid input that twill does not handle (control flow in the loop body, ...)."""


class GraphError(TwillError):
    """A loop graph that violates an invariant (dangling edge, zero-distance cycle, ...)."""


class MachineError(TwillError):
    """A machine model that is malformed, or lacks a unit an op needs."""


class SolverError(TwillError):
    """A solver that is missing or crashed. Infeasible and timed-out are statuses, not errors."""


class ProfileError(TwillError):
    """A profile that is malformed or belongs to another kernel or machine."""


class DeviceError(TwillError):
    """GPU work requested where no GPU (or no torch) is available."""
