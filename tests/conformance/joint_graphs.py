"""Hand-made loop graphs for the joint problem (costs in schedule units; 1 unit = 512 H100 cycles,
a 64x128x128 GEMM, so a 32 KB register tile crosses warp groups in 1 unit at 128 B/cycle)."""
from twill.graph.model import Dep, LoopGraph, Op, Reservation

KB = 1024
UNIT = 512.0


def op(i, kind, unit, cycles, regs=0, vl=False, smem=0):
    rrt = (Reservation(unit, 0, cycles),) if cycles else ()
    attrs = (("async", True),) if kind == "dot" else ()
    return Op(i, kind, unit, cycles=cycles, rrt=rrt, regs=regs, smem=smem, variable_latency=vl, streaming=vl,
              attrs=attrs)


def figure1(blocking=False, num_warps=4, regs=0):
    """The paper's Figure 1: S = gemm, P = exp(S), O += gemm(P); GEMM and EXP cost 1."""
    ops = (op("S", "dot", "tc", 1, regs), op("P", "sfu", "sfu", 1, regs), op("O", "dot", "tc", 1, regs))
    deps = (Dep("S", "P", 1, 0, blocking), Dep("P", "O", 1, 0), Dep("O", "O", 1, 1))
    return LoopGraph("figure1", ops, deps, meta=(("num_warps", num_warps),))


def subtiled(num_warps=8, load=False, tiles="ab"):
    """Two sub-tiles of Figure 1 (64-row tiles); the exps wait on their GEMM (blocking)."""
    ops, deps = [], []
    if load:
        ops.append(op("load_k", "tma_load", "tma", 0, vl=True, smem=32 * KB))
    for s in tiles:
        ops += [op(f"gemm_{s}", "dot", "tc", 1, 32 * KB), op(f"exp_{s}", "sfu", "sfu", 1, 16 * KB),
                op(f"gemm2_{s}", "dot", "tc", 1, 32 * KB)]
        deps += [Dep(f"gemm_{s}", f"exp_{s}", 1, 0, True), Dep(f"exp_{s}", f"gemm2_{s}", 1, 0),
                 Dep(f"gemm2_{s}", f"gemm2_{s}", 1, 1)]
        if load:
            deps.append(Dep("load_k", f"gemm_{s}", 0, 0, True))
    return LoopGraph("subtiled", tuple(ops), tuple(deps), meta=(("num_warps", num_warps),))


def untiled(num_warps=8):
    """Figure 1 on one 128-row tile: each op costs two sub-tile units and holds twice the registers."""
    ops = (op("gemm", "dot", "tc", 2, 64 * KB), op("exp", "sfu", "sfu", 2, 32 * KB), op("gemm2", "dot", "tc", 2, 64 * KB))
    deps = (Dep("gemm", "exp", 2, 0, True), Dep("exp", "gemm2", 2, 0), Dep("gemm2", "gemm2", 2, 1))
    return LoopGraph("untiled", ops, deps, meta=(("num_warps", num_warps),))


def rescaled(num_warps=12):
    """Sub-tiled FA with a row max (blocking on the GEMM) and an accumulator rescale that reads the
    previous accumulator (blocking, like a tensor-memory load on Blackwell)."""
    ops, deps = [], []
    for s in "ab":
        ops += [op(f"gemm_{s}", "dot", "tc", 1, 32 * KB), op(f"max_{s}", "reduce", "alu", 1, 256),
                op(f"exp_{s}", "sfu", "sfu", 1, 16 * KB), op(f"gemm2_{s}", "dot", "tc", 1, 32 * KB),
                op(f"corr_{s}", "elementwise", "alu", 1, 32 * KB)]
        deps += [Dep(f"gemm_{s}", f"max_{s}", 1, 0, True), Dep(f"gemm_{s}", f"exp_{s}", 1, 0, True),
                 Dep(f"max_{s}", f"exp_{s}", 1, 0), Dep(f"max_{s}", f"max_{s}", 1, 1),
                 Dep(f"exp_{s}", f"gemm2_{s}", 1, 0), Dep(f"max_{s}", f"corr_{s}", 1, 0),
                 Dep(f"gemm2_{s}", f"corr_{s}", 1, 1, True), Dep(f"corr_{s}", f"gemm2_{s}", 1, 0)]
    return LoopGraph("rescaled", tuple(ops), tuple(deps), meta=(("num_warps", num_warps),))
