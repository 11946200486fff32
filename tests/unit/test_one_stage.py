"""``--one-stage``: a one-partition kernel whose loads run a stage ahead, at few warps an SM, also solved in one stage
where that kernel holds more CTAs an SM. ``auto`` (the default): both in one module, the launch timing them on a
launch key's first launch (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed; the schedule
does not tell which); ``on``: the one the model ranks faster per SM; ``off``: the pipelined kernel alone."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("triton")

from codegen.gluon.short import SHORT_KERNEL, short_device  # noqa: E402
from twill.gluon_route import ONE_STAGE_TIMED  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _chosen(path: str, one_stage: str):
    r = optimize(str(ROOT / path), load_machine("h200"), OptimizeOptions(time_limit=5.0, threads=2, one_stage=one_stage))
    return r.gluon.chosen


def _stages(c) -> int:
    return max(p.stages for p in c.kernel.plan.partitions)


def test_one_stage_on_takes_the_kernel_the_model_ranks_faster_off_keeps_the_pipelined_one():
    off = _chosen("tests/corpus/sfast_group_norm_stats.py", "off")
    assert _stages(off) >= 2 and off.kernel.short is None and SHORT_KERNEL not in off.kernel.source
    on = _chosen("tests/corpus/sfast_group_norm_stats.py", "on")
    assert _stages(on) == 1 and on.ctas_per_sm > off.ctas_per_sm and on.kernel.short is None
    meta = json.loads((ROOT / "bench/results/gluon/sfast_group_norm_stats/variant.json").read_text())
    assert "--one-stage on" in meta["command"]        # the committed kernel, measured x1.10 so (run 139)


def test_by_default_the_launch_times_the_pipelined_kernel_against_its_loop_in_one_stage():
    # DeepSpeed's residual layer norm: three row passes of 8192-wide tiles, pipelined in 1 CTA an SM (x0.71 of
    # Triton's default, run 219), in one stage in 2
    c = _chosen("tests/corpus/deepspeed_layer_norm_residual.py", "auto")
    assert _stages(c) == 2                             # the chosen candidate is the pipelined kernel ...
    short = c.kernel.short
    assert short is not None and short["timed"] and short["short_ctas"] > short["long_ctas"] == c.ctas_per_sm
    assert short["schedule"]["stages"] == 1 and short["schedule"]["ii"] >= c.schedule.ii
    line = next(d for d in c.kernel.decisions if d.startswith(ONE_STAGE_TIMED))
    assert f"{short['short_ctas']} CTA(s) an SM against this kernel's {short['long_ctas']}" in line
    src = c.kernel.source                              # ... with the one-stage kernel beside it, the launch timing both
    assert f"def {SHORT_KERNEL}(" in src and "def launch_long(" in src and "def launch_short(" in src
    assert "Run the faster of the pipelined kernel and the one-stage one" in src
    one = short_device(src)                            # the one-stage kernel loads each tile in the iteration reading it
    assert one is not None and "stage 1" not in one and "stage 0" in one
    assert "stage 1" in src.split("def twill_kernel(", 1)[0]
