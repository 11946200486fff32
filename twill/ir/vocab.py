"""The TTGIR op vocabulary: which op names are dots, loads, stores, views, casts, waits, ... in one place.

Every layer that reads or edits TTGIR (graph building, annotation, warp partitions, profiling
records, the Gluon back end) classifies ops through these sets, so a new op is added once.
"""
from __future__ import annotations

# Tensor-core GEMMs (Hopper wgmma, Blackwell tcgen05, and the generic dot before lowering).
DOTS = frozenset({"ttng.warp_group_dot", "tt.dot", "ttng.tc_gen5_mma", "tt.dot_scaled", "ttng.tc_gen5_mma_scaled"})
# GEMMs Triton 3.6's pipeliner cannot predicate when placed before a loop's last stage.
UNPREDICABLE = frozenset({"ttng.warp_group_dot", "ttng.tc_gen5_mma", "tt.dot"})
# Side effects Triton 3.6's pipeliner cannot predicate before a loop's last stage (checked offline).
UNPREDICABLE_EFFECTS = frozenset({"gpu.barrier", "ttg.barrier", "tt.descriptor_store", "tt.atomic_cas",
                                  "tt.descriptor_reduce", "tt.descriptor_scatter", "ttng.async_tma_copy_local_to_global"})
# Tile loads through a tensor descriptor (TMA).
TMA_LOADS = frozenset({"tt.descriptor_load", "ttng.async_tma_copy_global_to_local", "tt.descriptor_gather"})
POINTER_LOAD = "tt.load"
# Every op that brings a tile from global memory (what a load node's defining op is).
LOADS = TMA_LOADS | {POINTER_LOAD}
# Global stores, TMA stores and atomics: ops with a memory effect and (usually) no result.
STORES = frozenset({"tt.store", "tt.descriptor_store", "tt.atomic_rmw", "tt.atomic_cas",
                    "ttng.async_tma_copy_local_to_global", "tt.descriptor_reduce", "tt.descriptor_scatter"})
# Views of a shared-memory buffer: no work, an alias of the buffer.
SMEM_VIEWS = frozenset({"ttg.memdesc_trans", "ttg.memdesc_reshape", "ttg.memdesc_index", "ttg.memdesc_subslice",
                        "ttg.memdesc_reinterpret", "ttg.memdesc_subview"})
# Ops that move or reinterpret data without tile arithmetic (they fold into their consumer's node).
VIEWS = frozenset({"tt.expand_dims", "tt.broadcast", "tt.reshape", "tt.trans", "tt.splat", "tt.make_range",
                   "tt.addptr", "arith.constant", "tt.join", "tt.split", "ttng.warp_group_dot_wait"}) | SMEM_VIEWS
CASTS = frozenset({"arith.truncf", "arith.extf", "arith.fptosi", "arith.sitofp", "arith.fptoui", "arith.uitofp",
                   "tt.bitcast", "arith.bitcast", "tt.fp_to_fp", "ttg.convert_layout", "arith.extsi",
                   "arith.trunci"})
# Barriers between the threads of a CTA (``tl.debug_barrier``): they order the memory accesses around them.
BARRIERS = frozenset({"gpu.barrier", "ttg.barrier"})
# Special-function unit (MUFU) math.
SFU = frozenset({"math.exp2", "math.exp", "math.log", "math.log2", "math.rsqrt", "math.sqrt", "math.sin", "math.cos",
                 "math.tanh", "tt.precise_sqrt", "tt.precise_divf", "tt.approx_divf", "math.erf",
                 "math.powf"})
# Structured control flow: ops with regions other than the loop itself.
CONTROL_FLOW = frozenset({"scf.if", "scf.while", "scf.execute_region", "scf.index_switch"})
# Unstructured control flow: blocks and branches (an early ``return`` inside an ``if`` becomes a ``cf.cond_br``).
BRANCHES = frozenset({"cf.cond_br", "cf.br", "cf.switch"})
LOOP = "scf.for"
WHILE = "scf.while"
YIELD = "scf.yield"
REDUCE = "tt.reduce"
LOCAL_ALLOC = "ttg.local_alloc"
LOCAL_LOAD = "ttg.local_load"
LOCAL_STORE = "ttg.local_store"
TMEM_LOAD = "ttng.tmem_load"
TMEM_WRITES = frozenset({"ttng.tmem_store", "ttng.tmem_alloc", "ttng.tmem_copy"})
PROTON_RECORD = "proton.record"
# Waits the pipeliner inserts for asynchronous ops (timed apart from the issues by profiling).
ASYNC_WAITS = frozenset({"ttng.warp_group_dot_wait", "ttng.wait_barrier"})
# Ops whose printed signature lists operand types only: their results are async tokens.
TOKEN_RESULTS = frozenset({"ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled", "ttng.tmem_store", "ttng.tmem_copy",
                           "ttg.async_copy_global_to_local", "ttg.async_commit_group", "ttg.async_wait"})
# Elementwise ops the ALU runs besides plain arith/math (arith.* and math.* are elementwise too).
ELEMENTWISE_EXTRA = frozenset({"tt.clampf", "tt.mulhiui", "arith.select"})
