"""Stored schedules applied at compile time: ``use("schedules.sqlite")`` (or ``TWILL_SCHEDULES=path``)
installs a Triton stages hook; when a kernel whose source, arch and Triton version match a stored
entry is compiled, its ttgir stage runs with the stored annotated TTGIR's stages and clusters applied
right after Triton's own ``schedule_loops`` (before the pipeliner on sm_90, before ``warp_specialize``
on sm_100). Anything else compiles as Triton would, with one warning per kernel."""
from __future__ import annotations

import os
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from codegen.annotation import apply_annotation, read_annotation
from codegen.compile import schedule_point
from twill.errors import InputError, MachineError, TwillError
from twill.ir.triton_hooks import PRE_PIPELINE_PASS, SCHEDULED_SKIP, PassPlan, module_text, route_ttgir
from twill.machine.model import known, load_machine
from twill.store.db import Entry, open_db
from twill.store.keys import file_sha, ir_sha, sha256

ENV = "TWILL_SCHEDULES"     # path of the schedule database use() reads when given none
ARCH_ENV = "TWILL_ARCH"     # h100 | h200 | b200: which GPU's schedules, when the device cannot tell
_APPLICABLE = ("optimal", "feasible")


class ScheduleWarning(UserWarning):
    """A kernel compiled with Triton's own schedule although schedules are in use."""


@dataclass(frozen=True)
class Applied:
    """One compilation that received a stored schedule."""

    kernel: str
    arch: str
    digest: str
    ii: int
    stages: int
    config: str


class ScheduleHook:
    """The ``triton.knobs.runtime.add_stages_inspection_hook`` that applies stored schedules.

    ``applied`` lists the compilations it changed; ``warned`` the (kernel, reason) pairs it warned
    about (each once).
    """

    def __init__(self, path: str | Path, entries: Iterable[Entry], arch: str | None = None) -> None:
        if arch is not None:
            load_machine(arch)            # an unknown arch is one error here, not a silent miss later
        self.path = str(path)
        self.arch = arch
        self.entries = [e for e in entries if e.status in _APPLICABLE]
        self.by_kernel: dict[tuple[str, str], list[Entry]] = {}
        for e in self.entries:
            self.by_kernel.setdefault((e.key.kernel_sha, e.kernel_name), []).append(e)
        # Part of Triton's cache key where Triton asks for one (3.9): new schedules, new binaries.
        self.digest = sha256("\n".join(sorted(f"{e.key.digest}:{e.created}" for e in self.entries)))
        self.applied: list[Applied] = []
        self.warned: set[tuple[str, str]] = set()
        self.previous: Any = None
        self._shas: dict[tuple[str, int, int], str] = {}

    # -- the hook ----------------------------------------------------------------------------------
    def __call__(self, *args: Any) -> Any:
        if not args:   # triton >= 3.9: a (key, hash) pair for the compilation cache key
            prev = self.previous() if self.previous is not None else None
            return ("twill.store", self.digest if prev is None else f"{self.digest}:{prev}")
        if self.previous is not None:
            self.previous(*args)
        backend, stages, options, language, capability = args
        if "ttgir" not in stages or capability is None or "GLUON" in str(language).upper():
            return None   # Gluon kernels and non-NVIDIA backends: nothing twill schedules
        src = _compiling_source()
        fn = getattr(src, "fn", None)
        if fn is None or not hasattr(fn, "fn"):
            return None   # an IR file compiled directly: no kernel source to match
        name = fn.__name__
        file = fn.fn.__code__.co_filename
        label = f"{name} ({Path(file).name})"
        pool = self._candidates(label, file, name, int(capability))
        if pool:
            self._route(label, pool, backend, stages, options, language, capability)
        return None

    def _candidates(self, label: str, file: str, name: str, capability: int) -> list[Entry]:
        """Stored entries for this kernel, this Triton and this GPU; warns (once) when there are none."""
        import triton

        sha = self._file_sha(file)
        found = self.by_kernel.get((sha, name), []) if sha else []
        if not found:
            self._warn(label, "no-entry", f"no stored schedule for this kernel source in {self.path}")
            return []
        same = [e for e in found if e.key.triton_version == triton.__version__]
        if not same:
            versions = ", ".join(sorted({e.key.triton_version for e in found}))
            self._warn(label, "version", f"schedules stored for triton {versions}, running {triton.__version__}")
            return []
        on_sm = [e for e in same if _sm_of(e.key.arch) == capability]
        archs = sorted({e.key.arch for e in on_sm})
        arch = self.arch or os.environ.get(ARCH_ENV) or _device_arch(capability)
        if arch is not None:
            pool = [e for e in on_sm if e.key.arch == arch]
        elif len(archs) == 1 or len({_schedule_id(e) for e in on_sm}) == 1:
            pool = on_sm     # one GPU of this compute capability stored, or all agree
        else:
            self._warn(label, "arch", f"schedules for {', '.join(archs)} (all sm_{capability}) and no way to tell "
                       f"which GPU this is; set {ARCH_ENV} or twill.use(path, arch=...)")
            return []
        if not pool:
            stored = ", ".join(sorted({e.key.arch for e in same}))
            self._warn(label, "no-arch", f"no schedule stored for {arch or f'sm_{capability}'} (stored: {stored})")
        return pool

    def _route(self, label: str, pool: list[Entry], backend: Any, stages: dict, options: Any, language: Any,
               capability: Any) -> None:
        """Run the ttgir stage as a pass plan: check the pre-pipeline TTGIR against the stored configs
        before ``assign_latencies``, apply the matching schedule right after Triton's ``schedule_loops``
        (before ``pipeline`` on sm_90, before ``warp_specialize`` on sm_100: ``codegen.compile.schedule_point``)."""
        chosen: dict[str, Entry] = {}

        def match(mod: Any) -> None:
            h = ir_sha(module_text(mod))
            hits = [e for e in pool if e.key.ttgir_sha == h]
            if hits:
                chosen["entry"] = max(hits, key=lambda e: e.created)
            else:
                configs = ", ".join(sorted({e.config_name for e in pool}))
                self._warn(label, "ir", f"its pre-pipeline TTGIR matches no stored config ({configs}): another "
                           "specialisation or launch config than the one solved")

        def apply(mod: Any) -> str | None:
            e = chosen.get("entry")
            if e is None:
                return None
            try:
                text = _apply_schedule(module_text(mod), e)
            except TwillError as err:
                self._warn(label, "apply", f"stored schedule does not apply: {err}")
                return None
            s = e.schedule
            self.applied.append(Applied(e.kernel_name, e.key.arch, e.key.digest, int(s["ii"]),
                                        int(s.get("stages", 0)), e.config_name))
            return text

        plan = PassPlan(before=((PRE_PIPELINE_PASS, match), (schedule_point(int(capability)), apply)),
                        skip=SCHEDULED_SKIP)   # a warp_specialize=True loop stays whole, as it was extracted
        route_ttgir(plan, backend, stages, options, capability)

    # -- installing ------------------------------------------------------------------------------------
    def install(self) -> "ScheduleHook":
        import triton

        knobs = triton.knobs.runtime
        current = knobs.add_stages_inspection_hook
        if isinstance(current, ScheduleHook):      # a second use() replaces the first
            current = current.previous
        self.previous = current
        knobs.add_stages_inspection_hook = self
        return self

    def uninstall(self) -> None:
        import triton

        if triton.knobs.runtime.add_stages_inspection_hook is self:
            triton.knobs.runtime.add_stages_inspection_hook = self.previous

    # -- helpers ---------------------------------------------------------------------------------------
    def _warn(self, label: str, kind: str, msg: str) -> None:
        if (label, kind) in self.warned:
            return
        self.warned.add((label, kind))
        warnings.warn(f"twill: {label}: {msg}; compiling with Triton's default schedule", ScheduleWarning,
                      stacklevel=3)

    def _file_sha(self, file: str) -> str | None:
        try:
            st = os.stat(file)
            k = (file, st.st_mtime_ns, st.st_size)
            if k not in self._shas:
                self._shas[k] = file_sha(file)
            return self._shas[k]
        except (OSError, UnicodeDecodeError):
            return None


def _apply_schedule(text: str, e: Entry) -> str:
    """The TTGIR right after Triton's ``schedule_loops`` with the stages and clusters of the entry's
    annotated TTGIR copied on (codegen's ``read_annotation`` / ``apply_annotation``, the functions
    ``codegen.compile.compile_annotated`` uses)."""
    if not e.annotated_ttgir:
        raise InputError("stored entry has no annotated TTGIR", where=e.label,
                         expected="an entry made from a kernel .py or .ttgir", found="none")
    ann = _ANNOTATIONS.get(e.key.digest)
    if ann is None:
        ann = _ANNOTATIONS[e.key.digest] = read_annotation(e.annotated_ttgir)
    return apply_annotation(text, ann)


_ANNOTATIONS: dict[str, dict[str, tuple[int, int]]] = {}


def _schedule_id(e: Entry) -> str:
    s = e.schedule
    return repr((s.get("ii"), sorted((s.get("start") or {}).items()), sorted((s.get("warp") or {}).items())))


def _compiling_source() -> Any:
    """The ``src`` argument of the ``triton.compile`` call this hook runs inside (the hook itself is
    given only the backend, stages and options)."""
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_name == "compile" and "src" in f.f_locals and \
                f.f_code.co_filename.replace(os.sep, "/").endswith("triton/compiler/compiler.py"):
            return f.f_locals["src"]
        f = f.f_back
    return None


def _device_arch(capability: int) -> str | None:
    """h100 / h200 / b200 from the current GPU's name, when torch is already loaded and sees one."""
    torch = sys.modules.get("torch")
    try:
        if torch is None or not torch.cuda.is_available():
            return None
        name = torch.cuda.get_device_name().lower()
    except Exception:   # noqa: BLE001 - no driver, no device: the stored arch decides
        return None
    for arch in known():
        if arch in name and _sm_of(arch) == capability:
            return arch
    return None


def _sm_of(arch: str) -> int | None:
    """The compute capability of a stored entry's arch (None for a machine model not shipped here)."""
    try:
        return load_machine(arch).sm
    except MachineError:
        return None


def hook_in_cache_key() -> bool:
    """Whether this Triton calls the stages hook with no arguments for its cache key (3.9 does, 3.6
    does not)."""
    import triton

    root = Path(triton.__file__).parent
    pattern = re.compile(r"add_stages_inspection_hook\(\s*\)")
    for rel in ("compiler/compiler.py", "runtime/jit.py", "runtime/cache.py", "knobs.py"):
        try:
            if pattern.search((root / rel).read_text()):
                return True
        except OSError:
            continue
    return False


_INSTALLED: ScheduleHook | None = None


def use(path: str | os.PathLike[str] | None = None, *, arch: str | None = None, cache_dir: bool = True) -> ScheduleHook:
    """Apply the schedules stored in ``path`` (default: ``$TWILL_SCHEDULES``) whenever Triton compiles a
    matching kernel (same kernel source, arch and Triton version); other kernels compile as usual,
    with one ``ScheduleWarning`` each.

    Triton 3.6 leaves the hook out of its compilation cache key, so a kernel cached before would
    come back without the schedule: with ``cache_dir`` (the default) the cache moves to a
    subfolder named by the stored schedules (``TRITON_ALWAYS_COMPILE=1`` also works). Call it
    before a kernel's first launch in the process (Triton keeps launched kernels in memory).

    Examples
    --------
    >>> import twill
    >>> hook = twill.use("schedules.sqlite")      # doctest: +SKIP
    >>> out = my_kernel[grid](...)               # doctest: +SKIP
    >>> hook.applied[0].ii                       # doctest: +SKIP
    """
    global _INSTALLED
    import triton

    where = os.fspath(path) if path is not None else os.environ.get(ENV)
    if not where:
        raise InputError("no schedule database", expected=f"twill.use(path) or {ENV}=path", found="neither")
    with open_db(where, create=False) as db:
        entries = db.entries()
    hook = ScheduleHook(where, entries, arch=arch)
    if _INSTALLED is not None:
        _INSTALLED.uninstall()
    _INSTALLED = hook.install()
    if cache_dir and not hook_in_cache_key() and os.environ.get("TRITON_ALWAYS_COMPILE") != "1":
        base = Path(triton.knobs.cache.dir or Path.home() / ".triton" / "cache")
        if not base.name.startswith("twill-"):
            triton.knobs.cache.dir = str(base / f"twill-{hook.digest[:16]}")
        else:
            triton.knobs.cache.dir = str(base.parent / f"twill-{hook.digest[:16]}")
    return hook
