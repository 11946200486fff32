"""_attn_bwd, written by twill from its joint schedule: I=337 L=337 (optimal), 3595 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 232): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring q_44: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring do: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 196720 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 2], instr_shape=[16, 64, 16]), k_width=2))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 2], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, q_44_buf, do_buf, k_c0_buf, v_c0_buf, out4_c0_buf, out5_c0_buf, q_44_ready, q_44_empty, do_ready, do_empty, k_c0_bar, v_c0_bar):
    pid_n = gl.program_id(0)
    off_hz = gl.program_id(1)
    offset_y = off_hz * N_CTX
    kv_y = pid_n * 128
    kv_y_28 = offset_y + kv_y
    mbarrier.expect(k_c0_bar.index(0), desc_k.block_type.nbytes)
    tma.async_copy_global_to_shared(desc_k, [kv_y_28, 0], k_c0_bar.index(0), k_c0_buf)
    mbarrier.wait(k_c0_bar.index(0), 0)
    mbarrier.expect(v_c0_bar.index(0), desc_v.block_type.nbytes)
    tma.async_copy_global_to_shared(desc_v, [kv_y_28, 0], v_c0_bar.index(0), v_c0_buf)
    mbarrier.wait(v_c0_bar.index(0), 0)
    qk_scale = sm_scale * 1.44269502
    offs_m = gl.arange(0, 64, layout=L1)
    row0 = off_hz.to(gl.int64)
    row0_31 = N_CTX.to(gl.int64)
    row0_32 = row0 * row0_31
    lse_base = LSE + row0_32
    delta_base = Delta + row0_32
    dq_base_33 = row0_32 * 128
    dq_base_34 = DQ + dq_base_33
    dq_offs_35 = gl.arange(0, 64, layout=L2)
    dq_offs_36 = gl.expand_dims(dq_offs_35, 1)
    dq_offs_37 = dq_offs_36 * 128
    dq_offs_38 = gl.arange(0, 128, layout=L3)
    dq_offs_39 = gl.expand_dims(dq_offs_38, 0)
    dq_offs_40 = dq_offs_37.broadcast_to([64, 128])
    dq_offs_41 = dq_offs_39.broadcast_to([64, 128])
    dq_offs_42 = dq_offs_40 + dq_offs_41
    twill_n = (N_CTX - 0 + 64 - 1) // 64
    dk = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    dv_58 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    m = lse_base + (0 + (0 - 0) * 64)  # load0_m: stage 0, partition 0 (group 0)
    m_46 = m  # load0_m: stage 0, partition 0 (group 0)
    m_47 = m_46 + offs_m  # load0_m: stage 0, partition 0 (group 0)
    m_48 = gl.load(m_47)  # load0_m: stage 0, partition 0 (group 0)
    Di = delta_base + (0 + (0 - 0) * 64)  # load1_Di: stage 0, partition 0 (group 0)
    Di_59 = Di  # load1_Di: stage 0, partition 0 (group 0)
    Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 0 (group 0)
    Di_61 = gl.load(Di_60)  # load1_Di: stage 0, partition 0 (group 0)
    Di_61_p1 = Di_61
    dk_p1 = dk
    dv_58_p1 = dv_58
    m_48_p1 = m_48
    for twill_b in range(1, twill_n):
        mbarrier.wait(do_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        tok_dpT_62 = warpgroup_mma(v_c0_buf, do_buf.index((twill_b - 1) % 2).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT: stage 1, partition 0 (group 0)
        mbarrier.wait(q_44_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        tok_sT_49 = warpgroup_mma(k_c0_buf, q_44_buf.index((twill_b - 1) % 2).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT: stage 1, partition 0 (group 0)
        m = lse_base + (0 + (twill_b - 0) * 64)  # load0_m: stage 0, partition 0 (group 0)
        m_46 = m  # load0_m: stage 0, partition 0 (group 0)
        m_47 = m_46 + offs_m  # load0_m: stage 0, partition 0 (group 0)
        m_48 = gl.load(m_47)  # load0_m: stage 0, partition 0 (group 0)
        dpT_62, sT_49 = warpgroup_mma_wait(0, deps=(tok_dpT_62, tok_sT_49,))
        pT_50 = sT_49 * qk_scale  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_51 = gl.expand_dims(m_48_p1, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_52 = pT_51.broadcast_to([128, 64])  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_53 = pT_50 - pT_52  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_54 = gl.exp2(pT_53)  # sfu0_pT: stage 1, partition 0 (group 0)
        Di = delta_base + (0 + (twill_b - 0) * 64)  # load1_Di: stage 0, partition 0 (group 0)
        Di_59 = Di  # load1_Di: stage 0, partition 0 (group 0)
        Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 0 (group 0)
        Di_61 = gl.load(Di_60)  # load1_Di: stage 0, partition 0 (group 0)
        dsT = gl.expand_dims(Di_61_p1, 0)  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT_63 = dsT.broadcast_to([128, 64])  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT_64 = dpT_62 - dsT_63  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT_65 = pT_54 * dsT_64  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT_66 = dsT_65.to(gl.float16)  # convert1_dsT: stage 1, partition 0 (group 0)
        dq = gl.permute(dsT_66, (1, 0))  # convert3_dq: stage 1, partition 0 (group 0)
        dq_68 = gl.convert_layout(dq, L6)  # convert3_dq: stage 1, partition 0 (group 0)
        dv_56 = pT_54.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
        dv_57 = gl.convert_layout(dv_56, L7)  # convert0_dv: stage 1, partition 0 (group 0)
        tok_dq_69 = warpgroup_mma(dq_68, k_c0_buf, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot4_dq: stage 1, partition 0 (group 0)
        dsT_67 = gl.convert_layout(dsT_66, L7)  # convert2_dsT: stage 1, partition 0 (group 0)
        dq_69 = warpgroup_mma_wait(0, deps=(tok_dq_69,))
        v11 = dq_69 * sm_scale  # elementwise1: stage 1, partition 0 (group 0)
        tok_dv_58 = warpgroup_mma(dv_57, do_buf.index((twill_b - 1) % 2), dv_58_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
        v12 = gl.convert_layout(v11, L9)  # convert4: stage 1, partition 0 (group 0)
        tok_dk = warpgroup_mma(dsT_67, q_44_buf.index((twill_b - 1) % 2), dk_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
        v7 = (0 + (twill_b - 1) * 64) * 128  # store0: stage 1, partition 0 (group 0)
        v8 = dq_base_34 + v7  # store0: stage 1, partition 0 (group 0)
        v9 = v8  # store0: stage 1, partition 0 (group 0)
        v10 = v9 + dq_offs_42  # store0: stage 1, partition 0 (group 0)
        v13 = gl.atomic_add(v10, v12, sem='relaxed', scope='gpu')  # store0: stage 1, partition 0 (group 0)
        dv_58, dk = warpgroup_mma_wait(0, deps=(tok_dv_58, tok_dk,))
        mbarrier.arrive(do_empty.index((twill_b - 1) % 2))
        mbarrier.arrive(q_44_empty.index((twill_b - 1) % 2))
        Di_61_p1 = Di_61
        dk_p1 = dk
        dv_58_p1 = dv_58
        m_48_p1 = m_48
    mbarrier.wait(do_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    tok_dpT_62 = warpgroup_mma(v_c0_buf, do_buf.index(((twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT: stage 1, partition 0 (group 0)
    mbarrier.wait(q_44_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    tok_sT_49 = warpgroup_mma(k_c0_buf, q_44_buf.index(((twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT: stage 1, partition 0 (group 0)
    dpT_62, sT_49 = warpgroup_mma_wait(0, deps=(tok_dpT_62, tok_sT_49,))
    pT_50 = sT_49 * qk_scale  # sfu0_pT: stage 1, partition 0 (group 0)
    pT_51 = gl.expand_dims(m_48_p1, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
    pT_52 = pT_51.broadcast_to([128, 64])  # sfu0_pT: stage 1, partition 0 (group 0)
    pT_53 = pT_50 - pT_52  # sfu0_pT: stage 1, partition 0 (group 0)
    pT_54 = gl.exp2(pT_53)  # sfu0_pT: stage 1, partition 0 (group 0)
    dsT = gl.expand_dims(Di_61_p1, 0)  # elementwise0_dsT: stage 1, partition 0 (group 0)
    dsT_63 = dsT.broadcast_to([128, 64])  # elementwise0_dsT: stage 1, partition 0 (group 0)
    dsT_64 = dpT_62 - dsT_63  # elementwise0_dsT: stage 1, partition 0 (group 0)
    dsT_65 = pT_54 * dsT_64  # elementwise0_dsT: stage 1, partition 0 (group 0)
    dsT_66 = dsT_65.to(gl.float16)  # convert1_dsT: stage 1, partition 0 (group 0)
    dq = gl.permute(dsT_66, (1, 0))  # convert3_dq: stage 1, partition 0 (group 0)
    dq_68 = gl.convert_layout(dq, L6)  # convert3_dq: stage 1, partition 0 (group 0)
    dv_56 = pT_54.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
    dv_57 = gl.convert_layout(dv_56, L7)  # convert0_dv: stage 1, partition 0 (group 0)
    tok_dq_69 = warpgroup_mma(dq_68, k_c0_buf, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot4_dq: stage 1, partition 0 (group 0)
    dsT_67 = gl.convert_layout(dsT_66, L7)  # convert2_dsT: stage 1, partition 0 (group 0)
    dq_69 = warpgroup_mma_wait(0, deps=(tok_dq_69,))
    v11 = dq_69 * sm_scale  # elementwise1: stage 1, partition 0 (group 0)
    tok_dv_58 = warpgroup_mma(dv_57, do_buf.index(((twill_n - 1 + 1) - 1) % 2), dv_58_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
    v12 = gl.convert_layout(v11, L9)  # convert4: stage 1, partition 0 (group 0)
    tok_dk = warpgroup_mma(dsT_67, q_44_buf.index(((twill_n - 1 + 1) - 1) % 2), dk_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
    v7 = (0 + ((twill_n - 1 + 1) - 1) * 64) * 128  # store0: stage 1, partition 0 (group 0)
    v8 = dq_base_34 + v7  # store0: stage 1, partition 0 (group 0)
    v9 = v8  # store0: stage 1, partition 0 (group 0)
    v10 = v9 + dq_offs_42  # store0: stage 1, partition 0 (group 0)
    v13 = gl.atomic_add(v10, v12, sem='relaxed', scope='gpu')  # store0: stage 1, partition 0 (group 0)
    dv_58, dk = warpgroup_mma_wait(0, deps=(tok_dv_58, tok_dk,))
    mbarrier.arrive(do_empty.index(((twill_n - 1 + 1) - 1) % 2))
    mbarrier.arrive(q_44_empty.index(((twill_n - 1 + 1) - 1) % 2))
    Di_61_p1 = Di_61
    dk_p1 = dk
    dv_58_p1 = dv_58
    m_48_p1 = m_48
    v2 = dk_p1 * sm_scale
    v3 = v2.to(gl.float16)
    v4 = gl.convert_layout(v3, L0)
    out4_c0_buf.store(v3)
    fence_async_shared()
    tma.async_copy_shared_to_global(desc_dk, [kv_y_28, 0], out4_c0_buf)
    tma.store_wait(0)
    v5 = dv_58_p1.to(gl.float16)
    v6 = gl.convert_layout(v5, L0)
    out5_c0_buf.store(v5)
    fence_async_shared()
    tma.async_copy_shared_to_global(desc_dv, [kv_y_28, 0], out5_c0_buf)
    tma.store_wait(0)

@gluon.jit
def producer_1(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, q_44_buf, do_buf, k_c0_buf, v_c0_buf, out4_c0_buf, out5_c0_buf, q_44_ready, q_44_empty, do_ready, do_empty, k_c0_bar, v_c0_bar):
    off_hz = gl.program_id(1)
    offset_y = off_hz * N_CTX
    for dv_43 in range(0, N_CTX, 64):
        twill_k = (dv_43 - 0) // 64
        q = offset_y + dv_43
        mbarrier.wait(do_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        mbarrier.expect(do_ready.index(twill_k % 2), desc_do.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_do, [q, 0], do_ready.index(twill_k % 2), do_buf.index(twill_k % 2))
        mbarrier.wait(q_44_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        mbarrier.expect(q_44_ready.index(twill_k % 2), desc_q.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_q, [q, 0], q_44_ready.index(twill_k % 2), q_44_buf.index(twill_k % 2))

@gluon.jit
def twill_kernel(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX):
    q_44_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], desc_q.layout)
    do_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], desc_do.layout)
    k_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], desc_k.layout)
    v_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], desc_v.layout)
    out4_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], desc_dk.layout)
    out5_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], desc_dv.layout)
    q_44_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_44_ready.index(i), count=1)
    q_44_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_44_empty.index(i), count=1)
    do_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(do_ready.index(i), count=1)
    do_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(do_empty.index(i), count=1)
    k_c0_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(k_c0_bar.index(i), count=1)
    v_c0_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(v_c0_bar.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, q_44_buf, do_buf, k_c0_buf, v_c0_buf, out4_c0_buf, out5_c0_buf, q_44_ready, q_44_empty, do_ready, do_empty, k_c0_bar, v_c0_bar)),
        (producer_1, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, q_44_buf, do_buf, k_c0_buf, v_c0_buf, out4_c0_buf, out5_c0_buf, q_44_ready, q_44_empty, do_ready, do_empty, k_c0_bar, v_c0_bar)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['desc_q', 'desc_k', 'desc_v', 'desc_do', 'desc_dk', 'desc_dv', 'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['desc_q', 'desc_k', 'desc_v', 'desc_do', 'desc_dk', 'desc_dv', 'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'HEAD_DIM': 128, 'BLOCK_M': 64, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'desc_q': [64, 128], 'desc_k': [128, 128], 'desc_v': [128, 128], 'desc_do': [64, 128], 'desc_dk': [128, 128], 'desc_dv': [128, 128]}
DESCRIPTOR_LAYOUTS = {'desc_q': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_k': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_v': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_do': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_dk': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_dv': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
NUM_WARPS = 8
MAXNREG = 168
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    block = DESCRIPTOR_BLOCKS[name]
    layout = eval("gl." + DESCRIPTOR_LAYOUTS[name])
    base = getattr(value, "base", value)
    shape = list(getattr(value, "shape", base.shape))
    strides = list(getattr(value, "strides", None) or base.stride())
    return TensorDescriptor(base, shape, strides, block, layout)


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS})
    for k, v in CONSTEXPRS.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    g = grid(dict(bound, **CONSTEXPRS)) if callable(grid) else grid
    return twill_kernel[tuple(g)](*runtime, num_warps=NUM_WARPS, maxnreg=MAXNREG)


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
