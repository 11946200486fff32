"""Where regen's solve tasks run: in this process, a local process pool, or a Ray cluster. Every
executor only computes; results come back to the driver, which alone writes the database."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from twill.errors import InputError, TwillError


# Turns a task whose worker died (killed, out of memory, lost node) into a result instead of an abort.
OnError = Callable[[Any, BaseException], Any]


class Executor(Protocol):
    """Runs ``fn`` on every item and yields the results as they finish (any order)."""

    name: str

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any],
                      on_error: OnError | None = None) -> Iterator[Any]: ...

    def __enter__(self) -> "Executor": ...

    def __exit__(self, *exc: Any) -> None: ...


class LocalExecutor:
    """``jobs`` worker processes (spawned, so no solver or SQLite state is forked); ``jobs=1`` runs
    the tasks in this process."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise InputError("bad --jobs", expected="a positive number of processes", found=str(jobs))
        self.jobs = jobs
        self._pool: Any = None

    def __enter__(self) -> "LocalExecutor":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pool is not None:
            if exc[0] is not None:
                # Interrupted: queued tasks are dropped and running solves stopped (finished results
                # were already written); otherwise the interpreter would wait for them at exit.
                for proc in list((getattr(self._pool, "_processes", None) or {}).values()):
                    proc.terminate()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any],
                      on_error: OnError | None = None) -> Iterator[Any]:
        items = list(items)
        if self.jobs == 1 or len(items) <= 1:
            for it in items:
                yield fn(it)
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        self._pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(items)),
                                         mp_context=multiprocessing.get_context("spawn"))
        futures = {self._pool.submit(fn, it): it for it in items}
        for f in as_completed(futures):
            try:
                res = f.result()
            except Exception as e:   # noqa: BLE001 - a dead worker (BrokenProcessPool, ...)
                if on_error is None:
                    raise
                res = on_error(futures[f], e)
            yield res


class RayExecutor:
    """The same tasks as Ray remote functions: on the cluster at ``address``, or on a Ray instance
    started here (stopped again at the end) when no address is given and none is running.

    Workers of a remote cluster need twill (same version) installed; kernel files travel inside the
    tasks, so no shared file system is needed.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise InputError("--executor ray needs Ray", expected="the ray package", found="not installed",
                             hint="pip install 'twill[ray]' (or pip install ray)") from None
        self.address = address
        self.num_cpus = num_cpus
        self._started = False

    def __enter__(self) -> "RayExecutor":
        import ray

        if not ray.is_initialized():
            kw: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False,
                                  "log_to_driver": False, "logging_level": "ERROR"}
            if self.address:
                kw["address"] = self.address
            else:
                # A local instance: its workers import twill from where this process does.
                kw["num_cpus"] = self.num_cpus
                root = str(Path(__file__).resolve().parents[2])
                kw["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(
                    [root] + [p for p in sys.path if p and Path(p).is_dir()])}}
            try:
                ray.init(**kw)
            except Exception as e:   # noqa: BLE001 - connection failures come in many types
                raise TwillError("cannot start or reach Ray", where=self.address or "local",
                                 found=f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}",
                                 hint="check --executor ray=ADDRESS (e.g. ray://head:10001 or auto)") from None
            self._started = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any],
                      on_error: OnError | None = None) -> Iterator[Any]:
        import ray

        remote = ray.remote(num_cpus=1, max_retries=1)(fn)
        refs = {remote.remote(it): it for it in items}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    res = ray.get(done[0])
                except Exception as e:   # noqa: BLE001 - RayTaskError, WorkerCrashedError, ...
                    if on_error is None:
                        raise
                    res = on_error(refs[done[0]], e)
                yield res
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def make_executor(spec: str, jobs: int = 1) -> LocalExecutor | RayExecutor:
    """``local`` | ``ray`` | ``ray=ADDRESS`` -> an executor (``jobs`` bounds local processes, and the
    CPUs of a Ray instance started here).

    Examples
    --------
    >>> make_executor("local", 2).jobs
    2
    """
    name, _, address = spec.partition("=")
    if name == "local" and not address:
        return LocalExecutor(jobs)
    if name == "ray":
        return RayExecutor(address or None, num_cpus=jobs)
    raise InputError("unknown executor", expected="local | ray | ray=ADDRESS", found=spec)
