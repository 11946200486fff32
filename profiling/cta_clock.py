"""Each CTA's life in SM cycles and in nanoseconds, read inside a generated persistent Gluon kernel: ``%clock64``
and ``%globaltimer`` just before ``gl.warp_specialize`` starts the partitions and just after they all return.

So the cycles an iteration over the whole kernel (the tiles' prologues and epilogues and the last round of tiles
included) and the clock the SMs ran at come from the kernel itself, at no cost inside the loop (four reads and five
stores a CTA). Run 117 on the H200: the FA forward's 2514 cycles an iteration at 1.438 GHz under the 700 W cap, where
nvidia-smi reported 1575 MHz; iterations x cycles / clock gave each kernel's time within 1 %.

``probed(source)`` is the source transform (pure text, testable offline); ``measure`` runs it (GPU, torch).
Imports no solver.
"""
from __future__ import annotations

import re
import statistics
import tempfile
import time
from typing import Any, Callable

from profiling.gluon import load_source
from twill.errors import InputError

READ = 'gl.inline_asm_elementwise("mov.u64 $0, %{reg};", "=l", [], dtype=gl.int64, is_pure=False, pack=1)'
ROW = 5         # start and end cycles, start and end nanoseconds, tiles run


def probed(source: str) -> str:
    """``source`` with the probe: a first parameter ``twill_probe`` (an int64 [programs, ROW] buffer) of
    ``twill_kernel``, the four reads around its ``gl.warp_specialize`` call and one row stored per program. Refused
    in one line for a kernel that is not a persistent warp-specialized one (its CTAs' lives are then not the loop's
    tiles)."""
    m = re.search(r"^def twill_kernel\((.*?)\):\n", source, re.M)
    call = source.find("    gl.warp_specialize([", m.end()) if m else -1
    close = re.compile(r"^    \], .*\)$", re.M).search(source, call) if call >= 0 else None
    if not m or "twill_g0" not in m.group(1) or close is None:
        raise InputError("the in-kernel clock reads a persistent warp-specialized kernel", where="kernel_gluon.py",
                         expected="twill_kernel(..., twill_g0, twill_g1, twill_g2) calling gl.warp_specialize",
                         found=("no twill_kernel" if not m else "a kernel launched one CTA per tile"
                                if "twill_g0" not in m.group(1) else "no gl.warp_specialize call in it"))
    before = (f"    twill_t0 = {READ.format(reg='globaltimer')}\n"
              f"    twill_c0 = {READ.format(reg='clock64')}\n")
    after = (f"\n    twill_c1 = {READ.format(reg='clock64')}\n"
             f"    twill_t1 = {READ.format(reg='globaltimer')}\n"
             "    twill_pid = gl.program_id(0)\n"
             "    twill_np = gl.num_programs(0)\n"
             f"    twill_row = twill_probe + twill_pid * {ROW}\n"
             "    gl.store(twill_row, twill_c0)\n"
             "    gl.store(twill_row + 1, twill_c1)\n"
             "    gl.store(twill_row + 2, twill_t0)\n"
             "    gl.store(twill_row + 3, twill_t1)\n"
             "    gl.store(twill_row + 4, (twill_g0 * twill_g1 * twill_g2 - twill_pid + twill_np - 1) // twill_np)\n")
    out = source[:close.end()] + after + source[close.end():]
    out = out[:call] + before + out[call:]
    return out.replace(f"def twill_kernel({m.group(1)}):", f"def twill_kernel(twill_probe, {m.group(1)}):", 1)


def call_row(rows: list[list[int]], event_ms: float, per_tile: float) -> dict[str, float] | None:
    """One launch's figures from its CTAs' rows: the clock (median over CTAs), the cycles an iteration of the CTAs
    that ran the most tiles (they set the launch's time), the CTAs' span and the events' time; None without rows.

    >>> r = call_row([[0, 2000, 0, 1000, 2], [0, 1000, 0, 500, 1], [0, 0, 0, 0, 0]], 0.001, 10)
    >>> r["ghz"], r["cycles_per_iteration"], r["span_ms"]
    (2.0, 100.0, 0.001)
    """
    rows = [r for r in rows if r[4] > 0 and r[3] > r[2]]
    if not rows:
        return None
    most = max(r[4] for r in rows)
    return {"ghz": statistics.median((r[1] - r[0]) / (r[3] - r[2]) for r in rows),
            "cycles_per_iteration": statistics.median((r[1] - r[0]) / (r[4] * per_tile) for r in rows if r[4] == most),
            "span_ms": (max(r[3] for r in rows) - min(r[2] for r in rows)) / 1e6, "event_ms": event_ms}


def measure(source: str, call: Callable[[Any], Any], per_tile: float, calls: int = 20,
            seconds: float = 1.0) -> dict[str, Any]:
    """Load the probed ``source``, warm the GPU for ``seconds`` with back-to-back launches, then launch it ``calls``
    times back to back, each with its own rows and CUDA events. ``call(kernel)`` launches the problem with
    ``kernel`` (the probed module's ``kernel``) in place of the Triton kernel; ``per_tile``: the loop's iterations
    a tile. The medians over the calls, their clock's range, and each call's row."""
    import torch

    with tempfile.TemporaryDirectory(prefix="twill-cta-clock-") as tmp:
        gmod = load_source(probed(source), tmp, "twill_cta_clock")
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        hist = torch.zeros((calls + 1, 4 * sms, ROW), dtype=torch.int64, device="cuda")
        slot = [calls]                       # the warm-up's rows go to the spare slot
        run = gmod._run
        gmod._run = lambda entry, g, runtime: run(entry, g, [hist[slot[0]]] + list(runtime))
        end = time.time() + seconds          # the clock the power cap settles at, as in a long run
        while time.time() < end:
            call(gmod.kernel)
        hist.zero_()
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(calls)]
        for i, (e0, e1) in enumerate(events):
            slot[0] = i
            e0.record()
            call(gmod.kernel)
            e1.record()
        torch.cuda.synchronize()
        rows = [call_row(r, e0.elapsed_time(e1), per_tile) for r, (e0, e1) in zip(hist.tolist(), events)]
    rows = [r for r in rows if r is not None]
    if not rows:
        return {"calls": 0}
    med = {k: round(statistics.median(r[k] for r in rows), 4) for k in rows[0]}
    return {"calls": len(rows), **med, "ghz_range": [round(min(r["ghz"] for r in rows), 4),
                                                     round(max(r["ghz"] for r in rows), 4)],
            "iterations_per_tile": per_tile, "per_call": rows}
