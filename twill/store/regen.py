"""Regenerate stored schedules: every kernel x arch x config, solved in parallel (local processes or
Ray), written to the schedule database by this process alone; ``check`` re-solves and reports drift."""
from __future__ import annotations

import dataclasses
import json
import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from twill.errors import InputError, TwillError
from twill.graph.io import graph_to_dict
from twill.ir.load import load_module, pick_kernel
from twill.ir.triton_hooks import triton_version
from twill.machine.model import load_machine, machine_sha
from twill.pipeline import OptimizeOptions, extract, optimize
from twill.store.db import Entry, ScheduleDB, open_db
from twill.store.executors import make_executor
from twill.store.keys import StoreKey, file_sha, ir_sha, options_sha, sha256

KERNEL_SUFFIXES = (".py", ".ttgir", ".mlir", ".json")
_DIR_SUFFIXES = (".py", ".ttgir")       # a folder scan skips .json (it may hold anything)
# Proof strength: a --check fails when it goes down (optimal -> feasible, feasible -> timeout).
_PROOF = {"optimal": 2, "infeasible": 2, "feasible": 1, "timeout": 0}
# Solver workers per solve. CP-SAT with one worker and a fixed seed (SolveOptions.seed, 0) is
# deterministic when it ends by proof; several workers race and may return another optimal schedule,
# which --check would report as drift. Regen runs tasks in parallel instead (--jobs).
REGEN_THREADS = 1


# -- tasks ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """One solve: a kernel file for one arch and one of its configs. Picklable; carries the file's
    text so a worker on another machine (Ray) can solve it without a shared file system."""

    path: str                                   # as the driver sees it
    source: str                                 # stable id of the file in the store (relative path)
    source_sha: str
    source_text: str = field(repr=False)
    kernel: str
    arch: str
    config_name: str
    config: tuple[tuple[str, Any], ...]         # flat: constexpr overrides, num_warps, num_stages
    opts: Any                                   # twill.pipeline.OptimizeOptions for this config
    known: frozenset[str] = frozenset()         # digests already stored: extract, then skip the solve

    @property
    def label(self) -> str:
        cfg = "" if self.config_name == "default" else f" {self.config_name}"
        return f"{Path(self.source).name}::{self.kernel} [{self.arch}]{cfg}"


@dataclass(frozen=True)
class TaskResult:
    """What a worker sends back: the key, and the new entry unless the key was already stored."""

    task: Task
    outcome: str                                # hit | solved | error
    key: StoreKey | None = None
    entry: Entry | None = None
    error: str | None = None
    seconds: float = 0.0


def _source_id(path: Path) -> str:
    """The path relative to the working directory when under it (stable across CI checkouts)."""
    p = path.resolve()
    try:
        return p.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def kernel_files(paths: Iterable[str]) -> list[Path]:
    """The kernel files named by ``paths``: files as given, folders scanned (not recursively) for
    ``.py`` files that define a Triton kernel and for ``.ttgir`` files."""
    out: list[Path] = []
    for s in paths:
        p = Path(s)
        if p.is_dir():
            for f in sorted(p.iterdir()):
                if not f.is_file() or f.suffix not in _DIR_SUFFIXES or f.name.startswith(("_", ".")):
                    continue
                if f.suffix == ".py" and "triton.jit" not in f.read_text(errors="replace"):
                    continue
                out.append(f)
        elif p.is_file():
            if p.suffix not in KERNEL_SUFFIXES:
                raise InputError("unknown input kind", where=s, expected="a kernel .py, .ttgir or graph .json",
                                 found=p.suffix or "no suffix")
            out.append(p)
        else:
            raise InputError("no such file or folder", where=s, expected="kernel files or a folder of them")
    if not out:
        raise InputError("no kernel files", where=" ".join(paths), expected="a .py with @triton.jit, a .ttgir or "
                         "a graph .json")
    unique: dict[Path, Path] = {}
    for f in out:
        unique.setdefault(f.resolve(), f)       # a file named twice (directly and by its folder) once
    return list(unique.values())


def kernel_configs(path: Path) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """The kernel's name and its configs ``[(name, flat config)]`` from ``TWILL_SPEC["configs"]``.

    A config is a dict of constexpr overrides plus ``num_warps`` / ``num_stages``, either flat
    (``{"BLOCK_N": 64, "num_warps": 4}``) or nested (``{"constexprs": {...}, "num_warps": 4}``), with an
    optional ``"name"``. No configs: one, ``default`` (TWILL_SPEC as it is).
    """
    if path.suffix != ".py":
        return path.stem, [("default", {})]
    mod = load_module(str(path))
    spec = getattr(mod, "TWILL_SPEC", None)
    name, _ = pick_kernel(mod, None, str(path))
    raw = spec.get("configs") if isinstance(spec, dict) else None
    if raw is None:
        return name, [("default", {})]
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InputError("bad TWILL_SPEC configs", where=str(path), expected="a non-empty list of dicts",
                         found=type(raw).__name__)
    out: list[tuple[str, dict[str, Any]]] = []
    for i, c in enumerate(raw):
        if not isinstance(c, dict):
            raise InputError("bad TWILL_SPEC config", where=f"{path}: configs[{i}]", expected="a dict",
                             found=type(c).__name__)
        flat = {k: v for k, v in c.items() if k not in ("name", "constexprs")}
        flat.update(c.get("constexprs") or {})
        for k in ("num_warps", "num_stages"):
            if k in flat and not isinstance(flat[k], int):
                raise InputError(f"bad {k}", where=f"{path}: configs[{i}]", expected="an int", found=repr(flat[k]))
        cname = str(c.get("name") or ",".join(f"{k}={flat[k]}" for k in sorted(flat)) or "default")
        if cname in (n for n, _ in out):
            raise InputError("duplicate config", where=f"{path}: configs[{i}]", expected="distinct configs",
                             found=cname)
        out.append((cname, flat))
    return name, out


def config_options(opts: Any, config: dict[str, Any]) -> Any:
    """``opts`` with a config's constexprs and num_warps applied (num_stages is recorded only: the
    schedule decides the stages)."""
    consts = dict(opts.consts)
    consts.update({k: str(v) for k, v in config.items() if k not in ("num_warps", "num_stages")})
    kv: dict[str, Any] = {"consts": tuple(sorted(consts.items()))}
    if "num_warps" in config:
        kv["num_warps"] = int(config["num_warps"])
    return dataclasses.replace(opts, **kv)


def plan(paths: Iterable[str], archs: Iterable[str], opts: Any) -> list[Task]:
    """Every kernel file x arch x config under ``paths``, in a stable order."""
    archs = list(dict.fromkeys(archs))
    for a in archs:
        load_machine(a)               # an unknown arch is one error, before any task runs
    if not archs:
        raise InputError("no arch", expected="--arch h100 (repeatable)", found="none")
    tasks: list[Task] = []
    for f in kernel_files(paths):
        text = f.read_text()
        kernel, configs = kernel_configs(f)
        for arch in archs:
            for cname, cfg in configs:
                tasks.append(Task(path=str(f), source=_source_id(f), source_sha=sha256(text), source_text=text,
                                  kernel=kernel, arch=arch, config_name=cname, config=tuple(sorted(cfg.items())),
                                  opts=config_options(opts, cfg)))
    return tasks


# -- one task (runs in a worker) -----------------------------------------------------------------------
def task_key(task: Task, pre_ttgir: str | None, graph: Any, source_sha: str) -> StoreKey:
    """The store key of a task once its TTGIR (or graph) is known."""
    ttgir = ir_sha(pre_ttgir) if pre_ttgir else sha256(json.dumps(graph_to_dict(graph), sort_keys=True))
    profile = task.opts.profile
    return StoreKey(kernel_sha=source_sha, ttgir_sha=ttgir, arch=task.arch, triton_version=triton_version(),
                    machine_sha=machine_sha(load_machine(task.arch)),
                    profile_sha=file_sha(profile) if profile else "", options_sha=options_sha(task.opts))


def run_task(task: Task) -> TaskResult:
    """Extract (for the key), then solve unless the key is in ``task.known``. Never raises: a
    failure is a result with a one-line ``error``."""
    t0 = time.perf_counter()
    try:
        with _materialised(task) as path:
            machine = load_machine(task.arch)
            graph, kir, src_sha = extract(path, machine, task.opts)
            pre_ttgir = kir.text if kir else None
            if src_sha != task.source_sha:
                raise InputError("kernel file changed during regen", where=task.source, expected=task.source_sha[:12],
                                 found=src_sha[:12])
            key = task_key(task, pre_ttgir, graph, src_sha)
            if key.digest in task.known:
                return TaskResult(task, "hit", key=key, seconds=time.perf_counter() - t0)
            r = optimize(path, machine, task.opts, extracted=(graph, kir, src_sha))
            if r.kernel_source_sha != src_sha:
                raise InputError("kernel file changed during regen", where=task.source, expected=src_sha[:12],
                                 found=r.kernel_source_sha[:12])
            s = r.schedule
            stats = {"solve_seconds": s.solve_seconds, "backend": s.backend, "gap": s.gap,
                     "lower_bound": s.lower_bound, "time_limit": task.opts.time_limit,
                     "phases": {k: round(v, 4) for k, v in r.phases.items()}, "notes": list(r.notes),
                     "host": socket.gethostname(), "wall_seconds": round(time.perf_counter() - t0, 3),
                     "ir_sha": key.ttgir_sha if pre_ttgir else None}
            entry = Entry(key=key, kernel_name=r.kernel_name, config_name=task.config_name,
                          config=dict(task.config), source=task.source, schedule=s.to_dict(),
                          graph=graph_to_dict(r.scheduled_graph), annotated_ttgir=r.annotated_ttgir, stats=stats)
            return TaskResult(task, "solved", key=key, entry=entry, seconds=time.perf_counter() - t0)
    except TwillError as e:
        return TaskResult(task, "error", error=str(e), seconds=time.perf_counter() - t0)
    except Exception as e:   # noqa: BLE001 - one task's crash must not lose the others' results
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        msg = f"{type(e).__name__}: {lines[-1].strip() if lines else ''}"
        return TaskResult(task, "error", error=f"{task.label}: {msg}", seconds=time.perf_counter() - t0)


class _materialised:
    """The task's file path: the driver's own when it holds the same text, else a private copy."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.tmp: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> str:
        p = Path(self.task.path)
        try:
            if p.is_file() and file_sha(p) == self.task.source_sha:
                return str(p)
        except OSError:
            pass
        self.tmp = tempfile.TemporaryDirectory(prefix="twill-regen-")
        copy = Path(self.tmp.name) / p.name
        copy.write_text(self.task.source_text)
        return str(copy)

    def __exit__(self, *exc: Any) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()


# -- --check ----------------------------------------------------------------------------------------------
def compare(old: Entry | None, new: Entry) -> tuple[str, list[str]]:
    """``(verdict, diff lines)`` of a re-solved entry against the stored one. Verdicts: ``same``,
    ``changed`` (the schedule or its proof status differs), ``weakened`` (a weaker proof: optimal ->
    feasible), ``stale`` (only an entry under another key: the kernel, TTGIR, Triton, machine model or
    options changed), ``missing`` (nothing stored for this task).

    II, length, stages, status and warp groups are always compared; start times only when both
    schedules are proved optimal. A solve that ended on its time limit returns whatever schedule it
    held at that moment, so its start times depend on the machine's speed; one that ended by proof
    is reproducible (one worker, fixed seed: ``REGEN_THREADS``), so there a different start time
    means the problem or the solver changed.

    Examples
    --------
    >>> compare(None, new)[0]         # doctest: +SKIP
    'missing'
    """
    if old is None:
        return "missing", ["no stored schedule for this task; run `twill regen` without --check to add it"]
    lines: list[str] = []
    if old.key != new.key:
        changed = [f"{f.name} {getattr(old.key, f.name)[:12] or '-'} -> {getattr(new.key, f.name)[:12] or '-'}"
                   for f in dataclasses.fields(StoreKey) if getattr(old.key, f.name) != getattr(new.key, f.name)]
        lines.append("key: " + "; ".join(changed))
    a, b = old.schedule, new.schedule
    weaker = _PROOF.get(b.get("status"), -1) < _PROOF.get(a.get("status"), -1)
    if a.get("status") != b.get("status"):
        gap = f" (gap {b.get('gap')})" if b.get("gap") not in (None, 0) else ""
        lines.append(f"proof: {a.get('status')} -> {b.get('status')}{gap}")
    for f in ("ii", "length", "stages"):
        if a.get(f) != b.get(f):
            lines.append(f"{'II' if f == 'ii' else f}: {a.get(f)} -> {b.get(f)}")
    proved = a.get("status") == b.get("status") == "optimal"
    for f in ("start", "warp") if proved else ("warp",):
        x, y = a.get(f) or {}, b.get(f) or {}
        for op in sorted(set(x) | set(y)):
            if x.get(op) != y.get(op):
                lines.append(f"{f} {op}: {x.get(op, '-')} -> {y.get(op, '-')}")
    if weaker:
        return "weakened", lines
    if len(lines) > (1 if old.key != new.key else 0):
        return "changed", lines
    if old.key != new.key:
        return "stale", lines + ["same schedule; run `twill regen` to store it under the new key"]
    return "same", lines


# -- the driver ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """One task's line in the report."""

    label: str
    verdict: str          # hit | solved | error | same | changed | weakened | stale | missing
    detail: str = ""
    diff: tuple[str, ...] = ()
    seconds: float = 0.0


@dataclass(frozen=True)
class RegenReport:
    db: str
    check: bool
    outcomes: tuple[Outcome, ...]
    entries: int

    def count(self, *verdicts: str) -> int:
        return sum(o.verdict in verdicts for o in self.outcomes)

    @property
    def ok(self) -> bool:
        bad = ("error", "changed", "weakened", "stale", "missing") if self.check else ("error",)
        return self.count(*bad) == 0

    def summary(self) -> str:
        n = len(self.outcomes)
        if self.check:
            parts = [f"{self.count(v)} {v}" for v in ("same", "changed", "weakened", "stale", "missing", "error")
                     if self.count(v) or v == "same"]
        else:
            parts = [f"{self.count('hit')} cache hits", f"{self.count('solved')} solved", f"{self.count('error')} failed"]
        return f"{n} tasks: {', '.join(parts)}; {self.db} holds {self.entries} schedules"

    def diff_text(self) -> str:
        """The readable diff of a --check: one block per task that drifted."""
        out = []
        for o in self.outcomes:
            if o.verdict in ("changed", "weakened", "stale", "missing", "error"):
                out.append(f"{o.verdict.upper()} {o.label}" + (f": {o.detail}" if o.detail else ""))
                out.extend(f"    {line}" for line in o.diff)
        return "\n".join(out)


def _schedule_brief(s: dict[str, Any]) -> str:
    return f"II={s.get('ii')} L={s.get('length')} {s.get('status')}"


def regen(paths: Iterable[str], archs: Iterable[str], db_path: str | Path, opts: Any | None = None, *,
          jobs: int = 1, executor: str = "local", check: bool = False,
          progress: Callable[[str], None] | None = None, argv: Iterable[str] = ()) -> RegenReport:
    """Solve every kernel x arch x config under ``paths`` into the database at ``db_path``; stored keys
    are reused (cache hits). With ``check``, re-solve everything, write nothing, and compare.

    Each result is committed on arrival, so an interrupted run keeps what it finished and the next
    run resumes from there.

    Examples
    --------
    >>> r = regen(["kernels/gemm.py"], ["h100", "b200"], "schedules.sqlite")   # doctest: +SKIP
    >>> r.summary()                                                            # doctest: +SKIP
    '2 tasks: 0 cache hits, 2 solved, 0 failed; schedules.sqlite holds 2 schedules'
    """
    say = progress or (lambda _line: None)
    opts = opts if opts is not None else OptimizeOptions()
    if getattr(opts, "threads", None) is None:
        opts = dataclasses.replace(opts, threads=REGEN_THREADS)
    if getattr(opts, "emit", "triton") == "auto":
        opts = dataclasses.replace(opts, emit="triton")   # the store keeps the Triton route's schedule only
    tasks = plan(paths, archs, opts)
    pool = make_executor(executor, jobs)            # a bad --executor fails before the database is touched
    outcomes: list[Outcome] = []
    with open_db(db_path, create=not check) as db:
        known = frozenset() if check else frozenset(db.digests())
        tasks = [dataclasses.replace(t, known=known) for t in tasks]
        run_id = None if check else db.start_run(list(argv))
        width = len(str(len(tasks)))
        with pool:
            for res in pool.map_unordered(run_task, tasks, on_error=_lost):
                o = _record(db, res, check, run_id)
                outcomes.append(o)
                tail = f"  {o.detail}" if o.detail else ""
                say(f"[{len(outcomes):>{width}}/{len(tasks)}] {o.verdict:<8} {o.label}{tail}  ({o.seconds:.1f}s)")
        report = RegenReport(db=str(db_path), check=check, outcomes=tuple(outcomes), entries=len(db))
        if run_id is not None:
            db.finish_run(run_id, {"tasks": len(tasks), "hits": report.count("hit"), "solved": report.count("solved"),
                                   "errors": report.count("error")})
    return report


def _lost(task: Task, e: BaseException) -> TaskResult:
    lines = [ln for ln in str(e).splitlines() if ln.strip()]
    return TaskResult(task, "error", error=f"{task.label}: worker lost ({type(e).__name__}: "
                      f"{lines[-1].strip() if lines else ''})")


def _record(db: ScheduleDB, res: TaskResult, check: bool, run_id: int | None) -> Outcome:
    """Write (or, for --check, compare) one result; the report line."""
    t = res.task
    if res.outcome == "error":
        return Outcome(t.label, "error", res.error or "", seconds=res.seconds)
    assert res.key is not None
    if res.outcome == "hit":
        stored = db.get(res.key)
        return Outcome(t.label, "hit", _schedule_brief(stored.schedule) if stored else "", seconds=res.seconds)
    assert res.entry is not None
    entry = dataclasses.replace(res.entry, run_id=run_id)
    if not check:
        db.put(entry)
        return Outcome(t.label, "solved", _schedule_brief(entry.schedule), seconds=res.seconds)
    old = db.get(res.key) or db.latest_for(entry.source, entry.kernel_name, t.arch, t.config_name)
    verdict, diff = compare(old, entry)
    return Outcome(t.label, verdict, _schedule_brief(entry.schedule), tuple(diff), seconds=res.seconds)


def default_jobs() -> int:
    """Worker processes when --jobs is not given: one per core."""
    return max(1, os.cpu_count() or 1)
