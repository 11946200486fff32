"""Run 203 b's probe: ``twill optimize`` with every candidate of the Gluon route solved in one stage (each
partition's ops of an iteration before the next iteration's: ``gluon_route.one_stage_chain``, the loads held to
their readers' stage), warp-specialized or not. A kernel the route chose with spills in its loop, as Triton keeps its
loop's dots in one stage: does ptxas allocate it clean, and is it faster?

    PYTHONPATH=. python bench/results/gluon/runs/run203/one_stage_probe.py FILE -o DIR [optimize's options]
"""
import sys

from twill import gluon_route
from twill.cli import main

_candidate = gluon_route._candidate


def _one_stage(*args, **kwargs):
    kwargs["one_stage"] = True
    return _candidate(*args, **kwargs)


gluon_route._candidate = _one_stage
sys.exit(main(["optimize", *sys.argv[1:]]))
