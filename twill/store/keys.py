"""Store keys: what a stored schedule depends on (kernel source, TTGIR, arch, Triton, machine model,
profile, solve options), each as a hash, and the IR normalisation that makes the TTGIR hash portable."""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Options that say how long or how to report, not which problem is solved: left out of the key.
# not in the key: limits and outputs that do not change the stored schedule (the Gluon route's kernel
# is not stored; `emit` only says whether it is written; `dump_dir` where intermediate files go)
_NOT_IN_KEY = frozenset({"time_limit", "profile", "annotate", "threads", "emit", "dump_dir"})


def sha256(data: str | bytes) -> str:
    """Hex SHA-256 of text (UTF-8) or bytes."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def file_sha(path: str | Path) -> str:
    """The kernel source hash: SHA-256 of the file's text, as ``twill.pipeline`` computes it.

    Examples
    --------
    >>> file_sha(__file__) == sha256(Path(__file__).read_text())
    True
    """
    return sha256(Path(path).read_text())


def strip_locations(ttgir: str) -> str:
    """MLIR text without source locations (``loc(...)`` suffixes and ``#locN = ...`` aliases).

    Locations name the absolute path of the kernel file, which differs between a CI checkout and a
    user's machine; the ops, types and attributes, which decide the schedule, do not.

    Examples
    --------
    >>> strip_locations('%0 = arith.addi %a, %b : i32 loc(#loc3)\\n#loc3 = loc("k.py":4:5)\\n')
    '%0 = arith.addi %a, %b : i32\\n'
    """
    out = []
    for line in ttgir.splitlines():
        if line.startswith("#loc"):
            continue
        out.append(_drop_loc_calls(line).rstrip())
    return "\n".join(out) + "\n"


def _drop_loc_calls(line: str) -> str:
    """Remove every ``loc(...)`` (balanced parentheses, quoted strings skipped) from one line."""
    res: list[str] = []
    i, n = 0, len(line)
    while i < n:
        j = line.find("loc(", i)
        # A real location starts a token: ``loc(`` not preceded by an identifier character.
        while j > 0 and (line[j - 1].isalnum() or line[j - 1] in "_.#"):
            j = line.find("loc(", j + 1)
        if j < 0:
            res.append(line[i:])
            break
        res.append(line[i:j].rstrip(" "))
        depth, k, quoted = 0, j + 3, False
        while k < n:
            c = line[k]
            if quoted:
                if c == "\\":
                    k += 1
                elif c == '"':
                    quoted = False
            elif c == '"':
                quoted = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1
    return "".join(res)


def ir_sha(ttgir: str) -> str:
    """Hash of TTGIR text with locations removed (the store's TTGIR hash)."""
    return sha256(strip_locations(ttgir))


def options_sha(opts: Any) -> str:
    """Hash of the solve options that change the problem (backend, SWP only, bounds, ...), not the
    time limit. ``opts`` is a ``twill.pipeline.OptimizeOptions`` (any dataclass works)."""
    d = {k: v for k, v in dataclasses.asdict(opts).items() if k not in _NOT_IN_KEY}
    return sha256(json.dumps(d, sort_keys=True, default=str))


@dataclass(frozen=True)
class StoreKey:
    """Everything a stored schedule was computed from. Equal keys give the same problem.

    Examples
    --------
    >>> k = StoreKey("a" * 64, "b" * 64, "h100", "3.6.0", "c" * 64, "", "d" * 64)
    >>> len(k.digest), k.short()
    (64, 'h100 aaaaaaaa/bbbbbbbb')
    """

    kernel_sha: str      # SHA-256 of the kernel file's text
    ttgir_sha: str       # SHA-256 of the pre-pipeline TTGIR without locations (or of the graph JSON)
    arch: str            # h100 | h200 | b200
    triton_version: str
    machine_sha: str     # the machine model's hash (twill.machine.model.machine_sha)
    profile_sha: str     # the measured profile's hash, "" when the machine model alone was used
    options_sha: str     # the solve options that change the problem (options_sha)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if not isinstance(getattr(self, f.name), str):
                raise TypeError(f"StoreKey.{f.name} must be a str, got {type(getattr(self, f.name)).__name__}")

    @property
    def digest(self) -> str:
        """One hash of all fields: the database's primary key."""
        return sha256("\x1f".join(dataclasses.astuple(self)))

    def short(self) -> str:
        return f"{self.arch} {self.kernel_sha[:8]}/{self.ttgir_sha[:8]}"

    def to_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)
