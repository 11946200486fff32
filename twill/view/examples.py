"""Example schedules for the view: the paper's Figure 1 and a sub-tiled flash-attention loop with
warp groups, as the dicts ``twill optimize`` writes (for tests, demos and design work).

The start times and warp groups below were found by twill's joint search (CP-SAT backend, the
H100 machine model) on these graphs and are kept as data, so that drawing them needs no solver.
"""
from __future__ import annotations

from typing import Any

KB = 1024


def _node(nid: str, kind: str, unit: str, cost: int, line: int, ir: list[str], ops: list[str], *, regs: int = 0,
          smem: int = 0, vl: bool = False, rrt: list[tuple[str, int, int]] | None = None) -> dict[str, Any]:
    res = rrt if rrt is not None else ([(unit, 0, cost)] if cost else [])
    return {"id": nid, "kind": kind, "unit": unit, "ops": ops, "ir": ir, "line": line, "file": "kernels/fa_example.py",
            "shape": [], "dtype": "", "variable_latency": vl, "streaming": vl, "regs": regs, "smem": smem, "tmem": 0,
            "attrs": {"async": True} if kind == "dot" else {}, "cycles": cost,
            "rrt": [{"unit": u, "offset": o, "length": ln, "count": 1} for u, o, ln in res], "cost_source": "model"}


def _edge(src: str, dst: str, delay: int, distance: int = 0, blocking: bool = False, value: str = "") -> dict[str, Any]:
    return {"src": src, "dst": dst, "delay": delay, "distance": distance, "blocking": blocking, "value": value}


def figure1_graph() -> dict[str, Any]:
    """The paper's Figure 1: S = Q K^T (GEMM), P = exp(S), O += P V (GEMM); each costs one unit."""
    nodes = [
        _node("S", "dot", "tc", 1, 12, ["%s = ttng.warp_group_dot %q, %k_t, %zero : !ttg.memdesc<128x128xf16> * "
                                        "!ttg.memdesc<128x128xf16> -> tensor<128x128xf32, #mma>"],
              ["ttng.warp_group_dot"], regs=64 * KB),
        _node("P", "sfu", "sfu", 1, 13, ["%p = math.exp2 %s : tensor<128x128xf32, #mma>"], ["math.exp2"], regs=64 * KB),
        _node("O", "dot", "tc", 1, 14, ["%o = ttng.warp_group_dot %p_f16, %v, %o_prev : tensor<128x128xf16, "
                                        "#ttg.dot_op<{opIdx = 0}>> * !ttg.memdesc<128x128xf16> -> tensor<128x128xf32, #mma>"],
              ["ttng.warp_group_dot"], regs=64 * KB),
    ]
    edges = [_edge("S", "P", 1, 0, True, "%s"), _edge("P", "O", 1, 0, False, "%p"), _edge("O", "O", 1, 1, True, "%o")]
    return {"schema": "twill.graph/1", "name": "figure1", "meta": {"kernel": "figure1", "num_warps": 4},
            "nodes": nodes, "edges": edges}


def figure1_schedule() -> dict[str, Any]:
    """The optimal modulo schedule of Figure 1 (II = 2, L = 4): the FA3 pipeline."""
    g = figure1_graph()
    return {"schema": "twill.schedule/1", "ii": 2, "length": 4, "stages": 2, "start": {"S": 0, "P": 1, "O": 3},
            "status": "optimal", "lower_bound": 2, "solve_seconds": 0.031, "backend": "cpsat", "gap": None,
            "time_unit_cycles": 1024.0, "kernel": "figure1", "arch": "h100", "machine": "h100",
            "capacity": {"tc": 1, "sfu": 1, "alu": 1, "tma": 1, "lsu": 1},
            "mii": {"mii": 2, "res_mii": 2, "rec_mii": 1},
            "proof": {"ii_proved": True, "length_proved": True, "ii_lower_bound": 2, "length_lower_bound": 4},
            "trace": [{"ii": 2, "status": "optimal", "result": "optimal", "seconds": 0.012, "length": 4}],
            "phases": {"extract": 0.0, "normalize": 0.004, "modulo": 0.031},
            "normalization": {"scale": 1024.0, "worst_ratio_error": 0.0},
            "predicted": {"iteration_cycles": 2048.0, "length_cycles": 4096.0}, "graph": g}


# TTGIR lines of the sub-tiled loop, written after the real pre-pipeline TTGIR of kernels/fa3.py.
_T = "tensor<64x128xf32, #mma>"
_R = "tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>"


def _fa_nodes() -> list[dict[str, Any]]:
    nodes = [
        _node("load_k", "tma_load", "tma", 0, 68, [
            "%k = tt.descriptor_load %desc_k[%offset_kv, %c0_i32] : !tt.tensordesc<tensor<128x128xf16, #shared>> "
            "-> tensor<128x128xf16, #blocked1>",
            "%k_s = ttg.local_alloc %k : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #smem>"],
            ["tt.descriptor_load", "ttg.local_alloc"], smem=32 * KB, vl=True),
        _node("load_v", "tma_load", "tma", 0, 77, [
            "%v = tt.descriptor_load %desc_v[%offset_kv, %c0_i32] : !tt.tensordesc<tensor<128x128xf16, #shared>> "
            "-> tensor<128x128xf16, #blocked1>",
            "%v_s = ttg.local_alloc %v : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #smem>"],
            ["tt.descriptor_load", "ttg.local_alloc"], smem=32 * KB, vl=True),
    ]
    for s, base in (("a", 69), ("b", 90)):
        nodes += [
            _node(f"qk_{s}", "dot", "tc", 2, base, [
                f"%kt_{s} = ttg.memdesc_trans %k_s {{order = array<i32: 1, 0>}} : !ttg.memdesc<128x128xf16, #shared, #smem>",
                f"%qk_{s} = ttng.warp_group_dot %q_{s}, %kt_{s}, %cst {{inputPrecision = 0 : i32}} : "
                f"!ttg.memdesc<64x128xf16, #shared, #smem> * !ttg.memdesc<128x128xf16, #shared1, #smem> -> {_T}"],
                ["ttng.warp_group_dot", "ttg.memdesc_trans"], regs=32 * KB),
            _node(f"max_{s}", "reduce", "alu", 1, base + 1, [
                f'%mx_{s} = "tt.reduce"(%qk_{s}) <{{axis = 1 : i32}}> ({{ arith.maxnumf }}) : ({_T}) -> {_R}',
                f"%m_new_{s} = arith.maxnumf %m_i_{s}, %mx_{s} : {_R}"],
                ["tt.reduce", "arith.maxnumf"], regs=256),
            _node(f"p_{s}", "sfu", "sfu", 2, base + 3, [
                f"%sc_{s} = arith.mulf %qk_{s}, %qk_scale : {_T}",
                f"%mb_{s} = tt.broadcast %m_new_{s} : tensor<64x1xf32, #mma> -> {_T}",
                f"%sub_{s} = arith.subf %sc_{s}, %mb_{s} : {_T}",
                f"%p_{s} = math.exp2 %sub_{s} : {_T}"],
                ["math.exp2", "arith.mulf", "tt.broadcast", "arith.subf"], regs=32 * KB,
                rrt=[("alu", 0, 1), ("sfu", 1, 1)]),
            _node(f"alpha_{s}", "sfu", "sfu", 1, base + 4, [
                f"%d_{s} = arith.subf %m_i_{s}, %m_new_{s} : {_R}",
                f"%alpha_{s} = math.exp2 %d_{s} : {_R}"], ["math.exp2", "arith.subf"], regs=256),
            _node(f"l_{s}", "reduce", "alu", 1, base + 5, [
                f'%ls_{s} = "tt.reduce"(%p_{s}) <{{axis = 1 : i32}}> ({{ arith.addf }}) : ({_T}) -> {_R}',
                f"%l_new_{s} = arith.addf %l_scaled_{s}, %ls_{s} : {_R}"], ["tt.reduce", "arith.addf"], regs=256),
            _node(f"cvt_{s}", "convert", "alu", 1, base + 6, [
                f"%p16_{s} = arith.truncf %p_{s} : {_T} to tensor<64x128xf16, #mma>",
                f"%pa_{s} = ttg.convert_layout %p16_{s} : tensor<64x128xf16, #mma> -> "
                "tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>"],
                ["arith.truncf", "ttg.convert_layout"], regs=16 * KB),
            _node(f"corr_{s}", "elementwise", "alu", 1, base + 7, [
                f"%ab_{s} = tt.broadcast %alpha_{s} : tensor<64x1xf32, #mma> -> {_T}",
                f"%acc_c_{s} = arith.mulf %acc_{s}, %ab_{s} : {_T}"], ["arith.mulf", "tt.broadcast"], regs=32 * KB),
            _node(f"pv_{s}", "dot", "tc", 2, base + 8, [
                f"%acc_n_{s} = ttng.warp_group_dot %pa_{s}, %v_s, %acc_c_{s} {{inputPrecision = 0 : i32}} : "
                f"tensor<64x128xf16, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>> * "
                f"!ttg.memdesc<128x128xf16, #shared, #smem> -> {_T}"], ["ttng.warp_group_dot"], regs=32 * KB),
        ]
    return nodes


def _fa_edges() -> list[dict[str, Any]]:
    edges = []
    for s in "ab":
        edges += [
            _edge("load_k", f"qk_{s}", 0, 0, True, "%k_s"),
            _edge(f"qk_{s}", f"max_{s}", 2, 0, True, f"%qk_{s}"),
            _edge(f"max_{s}", f"max_{s}", 1, 1, False, f"%m_new_{s}"),
            _edge(f"qk_{s}", f"p_{s}", 2, 0, True, f"%qk_{s}"),
            _edge(f"max_{s}", f"p_{s}", 1, 0, False, f"%m_new_{s}"),
            _edge(f"max_{s}", f"alpha_{s}", 1, 0, False, f"%m_new_{s}"),
            _edge(f"p_{s}", f"l_{s}", 2, 0, False, f"%p_{s}"),
            _edge(f"alpha_{s}", f"l_{s}", 1, 0, False, f"%alpha_{s}"),
            _edge(f"l_{s}", f"l_{s}", 1, 1, False, f"%l_new_{s}"),
            _edge(f"p_{s}", f"cvt_{s}", 2, 0, False, f"%p_{s}"),
            _edge(f"alpha_{s}", f"corr_{s}", 1, 0, False, f"%alpha_{s}"),
            _edge(f"pv_{s}", f"corr_{s}", 2, 1, True, f"%acc_n_{s}"),
            _edge(f"cvt_{s}", f"pv_{s}", 1, 0, False, f"%pa_{s}"),
            _edge(f"corr_{s}", f"pv_{s}", 1, 0, False, f"%acc_c_{s}"),
            _edge("load_v", f"pv_{s}", 0, 0, True, "%v_s"),
        ]
    return edges


def fa_subtiled_graph() -> dict[str, Any]:
    """Flash-attention forward with two 64-row sub-tiles (18 ops): per sub-tile a QK GEMM, row max,
    exp, rescale factor, row sum, conversion, accumulator correction and PV GEMM, fed by two TMA
    loads. Costs are in schedule units of 256 H100 cycles."""
    return {"schema": "twill.graph/1", "name": "fa_subtiled_example",
            "meta": {"kernel": "_attn_fwd_subtiled", "arch": "h100", "num_warps": 12},
            "nodes": _fa_nodes(), "edges": _fa_edges()}


# Found by twill.solve.search.joint_search(graph, load_machine("h100"), JointOptions(scale=256,
# warp_groups=3)) on fa_subtiled_graph(); see fa_subtiled_schedule().
_FA_SOLVED: dict[str, Any] = {'schema': 'twill.schedule/1',
     'ii': 10,
     'length': 14,
     'stages': 2,
     'start': {'load_k': 0,
               'load_v': 0,
               'qk_a': 4,
               'max_a': 6,
               'p_a': 8,
               'alpha_a': 7,
               'l_a': 13,
               'cvt_a': 11,
               'corr_a': 9,
               'pv_a': 12,
               'qk_b': 0,
               'max_b': 2,
               'p_b': 4,
               'alpha_b': 4,
               'l_b': 10,
               'cvt_b': 7,
               'corr_b': 5,
               'pv_b': 8},
     'status': 'optimal',
     'lower_bound': 10,
     'solve_seconds': 4.4,
     'backend': 'cpsat-joint',
     'gap': None,
     'time_unit_cycles': 256.0,
     'warp': {'load_k': 3,
              'load_v': 3,
              'qk_a': 0,
              'max_a': 0,
              'p_a': 0,
              'alpha_a': 0,
              'l_a': 1,
              'cvt_a': 0,
              'corr_a': 2,
              'pv_a': 0,
              'qk_b': 1,
              'max_b': 1,
              'p_b': 1,
              'alpha_b': 2,
              'l_b': 2,
              'cvt_b': 1,
              'corr_b': 2,
              'pv_b': 1},
     'joint': {'compute_groups': 3,
               'vl_group': 3,
               'reg_limit_bytes': 130560,
               'memory_capacity': {'registers': 262144, 'smem': 232448, 'tmem': 0},
               'no_cross_warp': False},
     'warp_groups': {'compute': 3, 'variable_latency': 3, 'reg_limit_bytes': 130560},
     'cross_warp': [{'src': 'load_k', 'dst': 'qk_a', 'groups': [3, 0], 'distance': 0, 'delay': 0, 'spill': 0},
                    {'src': 'p_a', 'dst': 'l_a', 'groups': [0, 1], 'distance': 0, 'delay': 2, 'spill': 2},
                    {'src': 'alpha_a', 'dst': 'l_a', 'groups': [0, 1], 'distance': 0, 'delay': 1, 'spill': 1},
                    {'src': 'alpha_a', 'dst': 'corr_a', 'groups': [0, 2], 'distance': 0, 'delay': 1, 'spill': 1},
                    {'src': 'pv_a', 'dst': 'corr_a', 'groups': [0, 2], 'distance': 1, 'delay': 2, 'spill': 2},
                    {'src': 'corr_a', 'dst': 'pv_a', 'groups': [2, 0], 'distance': 0, 'delay': 1, 'spill': 2},
                    {'src': 'load_v', 'dst': 'pv_a', 'groups': [3, 0], 'distance': 0, 'delay': 0, 'spill': 0},
                    {'src': 'load_k', 'dst': 'qk_b', 'groups': [3, 1], 'distance': 0, 'delay': 0, 'spill': 0},
                    {'src': 'max_b', 'dst': 'alpha_b', 'groups': [1, 2], 'distance': 0, 'delay': 1, 'spill': 1},
                    {'src': 'p_b', 'dst': 'l_b', 'groups': [1, 2], 'distance': 0, 'delay': 2, 'spill': 2},
                    {'src': 'pv_b', 'dst': 'corr_b', 'groups': [1, 2], 'distance': 1, 'delay': 2, 'spill': 2},
                    {'src': 'corr_b', 'dst': 'pv_b', 'groups': [2, 1], 'distance': 0, 'delay': 1, 'spill': 2},
                    {'src': 'load_v', 'dst': 'pv_b', 'groups': [3, 1], 'distance': 0, 'delay': 0, 'spill': 0}],
     'memory': {'peak': {'registers': 148992, 'smem': 98304, 'tmem': 0},
                'capacity': {'registers': 262144, 'smem': 232448, 'tmem': 0}},
     'liveness': {'registers': {'per_slot': [132352, 148736, 132352, 99328, 132352, 132352, 132352, 148992, 132608,
                                             132608],
                                'peak': 148992,
                                'capacity': 262144},
                  'smem': {'per_slot': [98304, 98304, 65536, 65536, 32768, 32768, 32768, 32768, 32768, 32768],
                           'peak': 98304,
                           'capacity': 232448},
                  'tmem': {'per_slot': [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'peak': 0, 'capacity': 0},
                  'registers_per_group': {'per_slot': {'0': [33280, 49664, 66048, 33024, 65792, 65792, 65792, 66048,
                                                             66048, 33280],
                                                       '1': [66048, 66048, 66048, 66048, 66048, 33280, 33280, 49664,
                                                             66048, 66048],
                                                       '2': [33024, 33024, 256, 256, 512, 33280, 33280, 33280, 512,
                                                             33280],
                                                       '3': [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]},
                                          'peak': {'0': 66048, '1': 66048, '2': 33280, '3': 0},
                                          'limit': 130560},
                  'live_copies': {'load_k': 1,
                                  'load_v': 2,
                                  'qk_a': 1,
                                  'max_a': 1,
                                  'p_a': 1,
                                  'alpha_a': 1,
                                  'l_a': 1,
                                  'cvt_a': 1,
                                  'corr_a': 1,
                                  'pv_a': 1,
                                  'qk_b': 1,
                                  'max_b': 1,
                                  'p_b': 1,
                                  'alpha_b': 1,
                                  'l_b': 1,
                                  'cvt_b': 1,
                                  'corr_b': 1,
                                  'pv_b': 1}},
     'streaming': {'load_k': {'stages_ahead': 0, 'min_buffers': 1, 'max_buffers_fit': 5},
                   'load_v': {'stages_ahead': 1, 'min_buffers': 2, 'max_buffers_fit': 6}},
     'search': [{'ii': 10,
                 'length': [14, 20],
                 'stages': 2,
                 'result': 'sat',
                 'seconds': 3.5899,
                 'found_length': 14,
                 'length_proved_minimal': True}],
     'search_summary': {'proof': 'optimal: every smaller (I, L) of Algorithm 1 was proved unsatisfiable',
                        'scope': 'I from the modulo optimum upward; at each I, L from the optimal modulo length L_M up '
                                 'to ceil(L_M / I) * I (Algorithm 1)',
                        'ii_tried': [10]},
     'modulo_seed': {'ii': 10, 'length': 14, 'status': 'optimal'},
     'mii': {'mii': 10, 'res_mii': 10, 'rec_mii': 3},
     'kernel': '_attn_fwd_subtiled',
     'arch': 'h100',
     'machine': 'h100',
     'triton_version': '3.6.0',
     'capacity': {'alu': 1, 'lsu': 1, 'sfu': 1, 'tc': 1, 'tma': 1},
     'phases': {'extract': 1.62, 'cost': 0.001, 'normalize': 0.41, 'modulo': 1.9, 'joint': 4.4, 'verify': 0.002},
     'normalization': {'scale': 256.0, 'worst_ratio_error': 0.031},
     'predicted': {'iteration_cycles': 2560.0, 'length_cycles': 3584.0}}


def fa_subtiled_schedule() -> dict[str, Any]:
    """A joint schedule of :func:`fa_subtiled_graph` with three compute warp groups and a producer group."""
    d = dict(_FA_SOLVED)
    d["graph"] = fa_subtiled_graph()
    return d


def fa_subtiled_profile() -> dict[str, Any]:
    """A measured profile in the shape ``twill profile`` writes (illustrative numbers, not a measurement)."""
    med = {"qk_a": 540, "qk_b": 552, "max_a": 210, "max_b": 236, "p_a": 470, "p_b": 498, "alpha_a": 40, "alpha_b": 44,
           "l_a": 220, "l_b": 214, "cvt_a": 180, "cvt_b": 176, "corr_a": 250, "corr_b": 262, "pv_a": 560, "pv_b": 548}
    nodes = {k: {"count": 4096, "median_cycles": v, "p10_cycles": round(v * 0.9), "p90_cycles": round(v * 1.18)}
             for k, v in med.items()}
    return {"schema": "twill.profile/1", "kernel": "_attn_fwd_subtiled", "arch": "h100", "nodes": nodes,
            "iteration": {"count": 4096, "median_cycles": 2480, "p10_cycles": 2390, "p90_cycles": 2700}}


def fa_subtiled_validation() -> dict[str, Any]:
    """A validation record in the shape ``twill validate`` writes (illustrative numbers)."""
    return {"measured_iteration_cycles": 2480, "predicted_iteration_cycles": 2304, "tflops": 612.4,
            "baseline_tflops": 571.0}
