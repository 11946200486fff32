"""The Gluon calls whose names changed after Triton 3.6, written as the installed Triton spells them. The back end
writes 3.6's names (the GPU machine's and CI's Triton). Triton 3.9 renamed four: three are now stubs that raise
(``async_copy_global_to_shared has been removed; call async_load instead``) and ``gl.thread_barrier`` is gone
(``gl.barrier``), each taking the same arguments under its new name. A kernel generated where such a Triton is
installed takes the new names (``installed_spelling``); each rename is made only where the new name exists."""
from __future__ import annotations

import functools
import importlib
import re

GLUON = "triton.experimental.gluon.language"
# 3.6's call -> (the module that has the new name, the new call); the arguments are the same: TMA's descriptor,
# coordinates, barrier, buffer[, pred]; its store's descriptor, coordinates, buffer; cp.async's buffer, pointers[,
# mask]; the CTA barrier's none
RENAMED = {"tma.async_copy_global_to_shared(": (f"{GLUON}.nvidia.hopper.tma", "tma.async_load("),
           "tma.async_copy_shared_to_global(": (f"{GLUON}.nvidia.hopper.tma", "tma.async_store("),
           "async_copy.async_copy_global_to_shared(": (f"{GLUON}.nvidia.ampere.async_copy", "async_copy.async_load("),
           "gl.thread_barrier(": (GLUON, "gl.barrier(")}


@functools.lru_cache(maxsize=None)
def installed_renames() -> tuple[tuple[str, str], ...]:
    """(3.6's call, the installed Gluon's) for each call renamed there."""
    out = []
    for old, (module, new) in RENAMED.items():
        if hasattr(importlib.import_module(module), new.split(".")[-1].rstrip("(")):
            out.append((old, new))
    return tuple(out)


def installed_spelling(source: str, renames: tuple[tuple[str, str], ...] | None = None) -> str:
    """``source`` (3.6's names) with the calls the installed Gluon (or ``renames``) renamed under their new names.

    Examples
    --------
    >>> installed_spelling("tma.async_copy_global_to_shared(d, [0, 0], bar, buf)",
    ...                    (("tma.async_copy_global_to_shared(", "tma.async_load("),))
    'tma.async_load(d, [0, 0], bar, buf)'
    >>> installed_spelling("async_copy.async_copy_global_to_shared(buf, ptrs, mask=m)", ())
    'async_copy.async_copy_global_to_shared(buf, ptrs, mask=m)'
    """
    table = dict(installed_renames() if renames is None else renames)
    if not table:
        return source
    return re.sub("|".join(re.escape(k) for k in table), lambda m: table[m.group(0)], source)
