"""attn_fwd, written by twill from its joint schedule: I=287 L=287 (optimal), 1960 cycles per iteration predicted.

Decisions (each from the schedule):
- tensor_121 copied with cp.async at every launch, not by TMA: its last dimension is not contiguous
- tensor_139 copied with cp.async at every launch, not by TMA: its last dimension is not contiguous
- pointer-loaded tiles copied by a 4-warp producer through registers (tensor_121, tensor_139): their addresses and masks spread over 128 threads
- pointer tiles copied through registers (the producer's loads, then stores to the rings): cp.async would copy them in pieces under 4 bytes, their addresses not known aligned (computed from values loaded from memory, or from arguments not specialised divisible)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 236): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): copies through registers into the rings
- ring tensor_121: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring tensor_139: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 65616 bytes planned of 232448; maxnreg 256
- early return at vllm_rocm_flash_attn_fwd.py:181 (TTGIR line 116): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_rocm_flash_attn_fwd.py:197 (TTGIR line 135): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at vllm_rocm_flash_attn_fwd.py:268 (TTGIR line 211) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 35 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)
- if at vllm_rocm_flash_attn_fwd.py:209 (TTGIR line 139): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- if at vllm_rocm_flash_attn_fwd.py:279 (TTGIR line 282): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- if at vllm_rocm_flash_attn_fwd.py:307 (TTGIR line 437): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 0 iteration(s) ahead, 65536 bytes of shared memory compiled, ptxas 255 registers, ptxas serialises the wgmmas (insufficient register resources); none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))
L12 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L13 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L14 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L15 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, tensor_121_buf, tensor_139_buf, tensor_121_ready, tensor_121_empty, tensor_139_ready, tensor_139_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_16 = gl.arange(0, 128, layout=L0)
    offs_m_17 = gl.arange(0, 128, layout=L1)
    offs_m_18 = gl.arange(0, 128, layout=L2)
    offs_m_19 = gl.arange(0, 128, layout=L3)
    offs_m_20 = gl.arange(0, 128, layout=L4)
    offs_m_23 = offs_m + offs_m_17
    offs_m_24 = offs_m + offs_m_18
    offs_n = gl.arange(0, 64, layout=L3)
    offs_n_25 = gl.arange(0, 64, layout=L5)
    offs_n_26 = gl.arange(0, 64, layout=L6)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    off_h_k = off_h_q // 4
    v2 = seqlen_k < 64
    if v2:
        n_extra_tokens = 64 - seqlen_k
        v3 = n_extra_tokens
    else:
        v26 = seqlen_k % 64
        v3 = v26
    q_offset = gl.cast(off_z, gl.int64)
    q_offset_38 = q_offset * stride_qz
    q_offset_39 = gl.cast(off_h_q, gl.int64)
    q_offset_40 = q_offset_39 * stride_qh
    q_offset_41 = q_offset_38 + q_offset_40
    q_offset_42 = gl.cast(cu_seqlens_q_start_27, gl.int64)
    q_offset_43 = q_offset_42 * stride_qm
    q_offset_44 = q_offset_41 + q_offset_43
    Q_block_ptr = Q + q_offset_44
    Q_block_ptr_45 = gl.cast(seqlen_q, gl.int64)
    Q_block_ptr_46 = gl.cast(offs_m, gl.int64)
    k_offset = q_offset * stride_kz
    k_offset_47 = gl.cast(off_h_k, gl.int64)
    k_offset_48 = k_offset_47 * stride_kh
    k_offset_49 = k_offset + k_offset_48
    k_offset_50 = gl.cast(cu_seqlens_k_start_29, gl.int64)
    k_offset_51 = k_offset_50 * stride_kn
    k_offset_52 = k_offset_49 + k_offset_51
    K_block_ptr = K + k_offset_52
    K_block_ptr_53 = gl.cast(seqlen_k, gl.int64)
    v_offset = q_offset * stride_vz
    v_offset_54 = k_offset_47 * stride_vh
    v_offset_55 = v_offset + v_offset_54
    v_offset_56 = k_offset_50 * stride_vk
    v_offset_57 = v_offset_55 + v_offset_56
    V_block_ptr = V + v_offset_57
    qk_scale = sm_scale * 1.44269502
    tensor_59 = offs_m_16.to(gl.int64)
    tensor_60 = offs_m_19.to(gl.int64)
    tensor_61 = offs_m_20.to(gl.int64)
    tensor_62 = Q_block_ptr_46 + tensor_59
    tensor_63 = gl.expand_dims(tensor_62, 1)
    tensor_65 = tensor_63 * stride_qm
    tensor_66 = tensor_65.broadcast_to([128, 128])
    tensor_67 = gl.expand_dims(tensor_60, 0)
    tensor_68 = gl.expand_dims(tensor_61, 0)
    tensor_70 = tensor_67 * stride_qk
    tensor_71 = tensor_70.broadcast_to([128, 128])
    tensor_72 = tensor_66 + tensor_71
    tensor_73 = Q_block_ptr + tensor_72
    tensor_74 = tensor_63 >= 0
    tensor_76 = tensor_63 < Q_block_ptr_45
    tensor_77 = tensor_74 & tensor_76
    tensor_78 = tensor_77.broadcast_to([128, 128])
    tensor_79 = gl.load(tensor_73, mask=tensor_78, other=0.0)
    q = tensor_79.to(gl.float32)
    q_81 = q * qk_scale
    q_82 = q_81.to(gl.float16)
    is_modulo_mn = v3 == 0
    is_modulo_mn_83 = seqlen_q % 128
    is_modulo_mn_84 = is_modulo_mn_83 == 0
    is_modulo_mn_85 = is_modulo_mn & is_modulo_mn_84
    masked_blocks = is_modulo_mn_85 ^ True
    masked_blocks_86 = gl.cast(masked_blocks, gl.int32)
    masked_blocks_87 = masked_blocks_86 + 2
    masked_blocks_88 = gl.minimum(masked_blocks_87, n_blocks_37)
    n_full_blocks = n_blocks_37 - masked_blocks_88
    block_max = n_blocks_37 * 64
    block_min = n_full_blocks * 64
    q_106 = gl.convert_layout(q_82, L7)
    twill_n = (block_min - 0 + 64 - 1) // 64
    acc_144 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
    l_i_141 = gl.full([128], 1.0, gl.float32, layout=L1)
    m_ij_123 = gl.full([128], float("-inf"), gl.float32, layout=L1)
    acc_144_p1 = acc_144
    l_i_141_p1 = l_i_141
    m_ij_123_p1 = m_ij_123
    for twill_b in range(0, twill_n):
        mbarrier.wait(tensor_121_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        tok_qk = warpgroup_mma(q_106, tensor_121_buf.index((twill_b - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L9), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        acc_144_p1, qk = warpgroup_mma_wait(0, deps=(acc_144_p1, tok_qk,))
        mbarrier.arrive(tensor_139_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(tensor_121_empty.index((twill_b - 0) % 2))
        m_ij = gl.max(qk, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_ij_123 = gl.maximum(m_ij_123_p1, m_ij)  # elementwise0_m_ij: stage 0, partition 0 (group 0)
        alpha = m_ij_123_p1 - m_ij_123  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_127 = gl.exp2(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        qk_124 = gl.expand_dims(m_ij_123, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        qk_125 = qk_124.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        qk_126 = qk - qk_125  # sfu0_p: stage 0, partition 0 (group 0)
        p = gl.exp2(qk_126)  # sfu0_p: stage 0, partition 0 (group 0)
        acc_128 = gl.expand_dims(alpha_127, 1)  # convert0_acc: stage 0, partition 0 (group 0)
        acc_129 = gl.convert_layout(acc_128, L8)  # convert0_acc: stage 0, partition 0 (group 0)
        acc_130 = acc_129.broadcast_to([128, 128])  # elementwise1_acc: stage 0, partition 0 (group 0)
        acc_131 = acc_144_p1 * acc_130  # elementwise1_acc: stage 0, partition 0 (group 0)
        l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
        acc_142 = p.to(gl.float16)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_143 = gl.convert_layout(acc_142, L10)  # convert1_acc: stage 0, partition 0 (group 0)
        mbarrier.wait(tensor_139_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        tok_acc_144 = warpgroup_mma(acc_143, tensor_139_buf.index((twill_b - 0) % 2), acc_131, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
        l_i = l_i_141_p1 * alpha_127  # elementwise2_l_i: stage 0, partition 0 (group 0)
        l_i_141 = l_i + l_ij  # elementwise2_l_i: stage 0, partition 0 (group 0)
        acc_144 = warpgroup_mma_wait(1, deps=(tok_acc_144,))
        acc_144_p1 = acc_144
        l_i_141_p1 = l_i_141
        m_ij_123_p1 = m_ij_123
    acc_144_p1 = warpgroup_mma_wait(0, deps=(acc_144_p1,))
    tensor_121_buf._keep_alive()
    tensor_139_buf._keep_alive()
    mbarrier.arrive(tensor_139_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    gl.thread_barrier()
    v5 = masked_blocks_88 > 0
    if v5:
        offs_n_causal = seqlen_q - seqlen_k
        offs_n_causal_99 = offs_n_25 + offs_n_causal
        K_block_ptr_100 = n_full_blocks * 64
        K_block_ptr_101 = gl.cast(K_block_ptr_100, gl.int64)
        k = v3 != 0
        causal_mask = gl.expand_dims(offs_m_23, 1)
        causal_mask_102 = causal_mask.broadcast_to([128, 64])
        q_103 = gl.convert_layout(q_82, L7)
        acc_106 = acc_144_p1
        acc_107 = l_i_141_p1
        acc_108 = m_ij_123_p1
        K_block_ptr_109 = K_block_ptr_101
        for V_block_ptr_105 in range(block_min, block_max, 64):
            if k:
                tensor_138_l1 = gl.expand_dims(tensor_59, 1)
                tensor_140_l1 = tensor_138_l1 * stride_kk
                tensor_141 = tensor_140_l1.broadcast_to([128, 64])
                tensor_143 = offs_n.to(gl.int64)
                tensor_144 = K_block_ptr_109 + tensor_143
                tensor_145 = gl.expand_dims(tensor_144, 0)
                tensor_147 = tensor_145 * stride_kn
                tensor_148 = tensor_147.broadcast_to([128, 64])
                tensor_149 = tensor_141 + tensor_148
                tensor_150 = K_block_ptr + tensor_149
                tensor_151 = tensor_145 >= 0
                tensor_153 = tensor_145 < K_block_ptr_53
                tensor_154 = tensor_151 & tensor_153
                tensor_155 = tensor_154.broadcast_to([128, 64])
                tensor_156 = gl.load(tensor_150, mask=tensor_155, other=0.0)
                tensor_110_b293 = tensor_156
            else:
                tensor_138_l1_b317 = gl.expand_dims(tensor_59, 1)
                tensor_140_l1_b319 = tensor_138_l1_b317 * stride_kk
                tensor_141_b320 = tensor_140_l1_b319.broadcast_to([128, 64])
                tensor_143_b322 = offs_n.to(gl.int64)
                tensor_144_b323 = K_block_ptr_109 + tensor_143_b322
                tensor_145_b324 = gl.expand_dims(tensor_144_b323, 0)
                tensor_147_b326 = tensor_145_b324 * stride_kn
                tensor_148_b327 = tensor_147_b326.broadcast_to([128, 64])
                tensor_149_b328 = tensor_141_b320 + tensor_148_b327
                tensor_150_b329 = K_block_ptr + tensor_149_b328
                tensor_151_b330 = gl.load(tensor_150_b329)
                tensor_110_b293 = tensor_151_b330
            tensor_111_b333 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_110_b293)
            fence_async_shared()
            acc_112 = V_block_ptr_105 + 64
            acc_113 = acc_112 == block_max
            acc_114 = acc_113 & k
            if acc_114:
                size_n = gl.expand_dims(offs_n_25, 0)
                size_n_138 = V_block_ptr_105 + size_n
                mask_139 = size_n_138 < seqlen_k
                qk_140 = gl.where(mask_139, 0.0, float("-inf"))
                qk_141 = qk_140.broadcast_to([128, 64])
                acc_115 = qk_141
            else:
                acc_115 = gl.full([128, 64], 0.0, gl.float32, layout=L9)
            causal_boundary_116 = V_block_ptr_105 + offs_n_causal_99
            causal_mask_117 = gl.expand_dims(causal_boundary_116, 0)
            causal_mask_118 = causal_mask_117.broadcast_to([128, 64])
            causal_mask_119 = causal_mask_102 >= causal_mask_118
            qk_l1 = gl.where(causal_mask_119, acc_115, float("-inf"))
            qk_120 = warpgroup_mma(q_103, tensor_111_b333, qk_l1)
            m_ij_l1 = gl.max(qk_120, axis=1)
            m_ij_121 = gl.maximum(acc_108, m_ij_l1)
            qk_122 = gl.expand_dims(m_ij_121, 1)
            qk_123 = qk_122.broadcast_to([128, 64])
            qk_124_l1 = qk_120 - qk_123
            p_l1 = gl.exp2(qk_124_l1)
            l_ij_l1 = gl.sum(p_l1, axis=1)
            alpha_l1 = acc_108 - m_ij_121
            alpha_125 = gl.exp2(alpha_l1)
            acc_126 = gl.expand_dims(alpha_125, 1)
            acc_127 = gl.convert_layout(acc_126, L8)
            acc_128_l1 = acc_127.broadcast_to([128, 128])
            acc_129_l1 = acc_106 * acc_128_l1
            if k:
                tensor_139_l1_b380 = offs_n_26.to(gl.int64)
                tensor_140_l1_b381 = K_block_ptr_109 + tensor_139_l1_b380
                tensor_141_b382 = gl.expand_dims(tensor_140_l1_b381, 1)
                tensor_143_b384 = tensor_141_b382 * stride_vk
                tensor_144_b385 = tensor_143_b384.broadcast_to([64, 128])
                tensor_146_b387 = tensor_68 * stride_vn
                tensor_147_b388 = tensor_146_b387.broadcast_to([64, 128])
                tensor_148_b389 = tensor_144_b385 + tensor_147_b388
                tensor_149_b390 = V_block_ptr + tensor_148_b389
                tensor_150_b391 = tensor_141_b382 >= 0
                tensor_152_b393 = tensor_141_b382 < K_block_ptr_53
                tensor_153_b394 = tensor_150_b391 & tensor_152_b393
                tensor_154_b395 = tensor_153_b394.broadcast_to([64, 128])
                tensor_155_b396 = gl.load(tensor_149_b390, mask=tensor_154_b395, other=0.0)
                tensor_130 = tensor_155_b396
            else:
                tensor_139_l1_b401 = offs_n_26.to(gl.int64)
                tensor_140_l1_b402 = K_block_ptr_109 + tensor_139_l1_b401
                tensor_141_b403 = gl.expand_dims(tensor_140_l1_b402, 1)
                tensor_143_b405 = tensor_141_b403 * stride_vk
                tensor_144_b406 = tensor_143_b405.broadcast_to([64, 128])
                tensor_146_b408 = tensor_68 * stride_vn
                tensor_147_b409 = tensor_146_b408.broadcast_to([64, 128])
                tensor_148_b410 = tensor_144_b406 + tensor_147_b409
                tensor_149_b411 = V_block_ptr + tensor_148_b410
                tensor_150_b412 = gl.load(tensor_149_b411)
                tensor_130 = tensor_150_b412
            tensor_131 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_130)
            fence_async_shared()
            l_i_l1 = acc_107 * alpha_125
            l_i_132 = l_i_l1 + l_ij_l1
            acc_133 = p_l1.to(gl.float16)
            acc_134 = gl.convert_layout(acc_133, L10)
            acc_135 = warpgroup_mma(acc_134, tensor_131, acc_129_l1)
            K_block_ptr_136 = K_block_ptr_109 + 64
            acc_106 = acc_135
            acc_107 = l_i_132
            acc_108 = m_ij_121
            K_block_ptr_109 = K_block_ptr_136
        v6_r0 = acc_107
        v6_r1 = acc_106
    else:
        v6_r0 = l_i_141_p1
        v6_r1 = acc_144_p1
    acc_89 = gl.expand_dims(v6_r0, 1)
    acc_90 = gl.convert_layout(acc_89, L8)
    acc_91 = acc_90.broadcast_to([128, 128])
    acc_92 = v6_r1 / acc_91
    causal_start_idx = seqlen_q - seqlen_k
    acc_93 = acc_92.to(gl.float16)
    v7 = causal_start_idx > offs_m
    v8 = causal_start_idx < n_blocks_seqlen_32
    v9 = v7 & v8
    if v9:
        out_ptrs_mask = gl.expand_dims(offs_m_24, 1)
        out_ptrs_mask_99 = out_ptrs_mask >= causal_start_idx
        out_ptrs_mask_100 = out_ptrs_mask_99.broadcast_to([128, 128])
        acc_101 = gl.where(out_ptrs_mask_100, acc_93, 0.0)
        v10 = acc_101
    else:
        v10 = acc_93
    o_offset = q_offset * stride_oz
    o_offset_94 = q_offset_42 * stride_om
    o_offset_95 = o_offset + o_offset_94
    o_offset_96 = q_offset_39 * stride_oh
    o_offset_97 = o_offset_95 + o_offset_96
    O_block_ptr = Out + o_offset_97
    v13 = tensor_63 * stride_om
    v14 = v13.broadcast_to([128, 128])
    v16 = tensor_67 * stride_on
    v17 = v16.broadcast_to([128, 128])
    v18 = v14 + v17
    v19 = O_block_ptr + v18
    v20 = tensor_67 >= 0
    v21 = tensor_67 < 128
    v22 = v20 & v21
    v23 = v22.broadcast_to([128, 128])
    v24 = tensor_78 & v23
    v25 = gl.convert_layout(v10, L11)
    gl.store(v19, v25, mask=v24)

@gluon.jit
def producer_1(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, tensor_121_buf, tensor_139_buf, tensor_121_ready, tensor_121_empty, tensor_139_ready, tensor_139_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m_16 = gl.arange(0, 128, layout=L12)
    offs_m_20 = gl.arange(0, 128, layout=L13)
    offs_n = gl.arange(0, 64, layout=L14)
    offs_n_26 = gl.arange(0, 64, layout=L15)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    off_h_k = off_h_q // 4
    v2 = seqlen_k < 64
    if v2:
        n_extra_tokens = 64 - seqlen_k
        v3 = n_extra_tokens
    else:
        v26 = seqlen_k % 64
        v3 = v26
    q_offset = gl.cast(off_z, gl.int64)
    k_offset = q_offset * stride_kz
    k_offset_47 = gl.cast(off_h_k, gl.int64)
    k_offset_48 = k_offset_47 * stride_kh
    k_offset_49 = k_offset + k_offset_48
    k_offset_50 = gl.cast(cu_seqlens_k_start_29, gl.int64)
    k_offset_51 = k_offset_50 * stride_kn
    k_offset_52 = k_offset_49 + k_offset_51
    K_block_ptr = K + k_offset_52
    v_offset = q_offset * stride_vz
    v_offset_54 = k_offset_47 * stride_vh
    v_offset_55 = v_offset + v_offset_54
    v_offset_56 = k_offset_50 * stride_vk
    v_offset_57 = v_offset_55 + v_offset_56
    V_block_ptr = V + v_offset_57
    tensor_59 = offs_m_16.to(gl.int64)
    tensor_61 = offs_m_20.to(gl.int64)
    tensor_68 = gl.expand_dims(tensor_61, 0)
    is_modulo_mn = v3 == 0
    is_modulo_mn_83 = seqlen_q % 128
    is_modulo_mn_84 = is_modulo_mn_83 == 0
    is_modulo_mn_85 = is_modulo_mn & is_modulo_mn_84
    masked_blocks = is_modulo_mn_85 ^ True
    masked_blocks_86 = gl.cast(masked_blocks, gl.int32)
    masked_blocks_87 = masked_blocks_86 + 2
    masked_blocks_88 = gl.minimum(masked_blocks_87, n_blocks_37)
    n_full_blocks = n_blocks_37 - masked_blocks_88
    block_min = n_full_blocks * 64
    tensor_99 = gl.expand_dims(tensor_59, 1)
    tensor_101 = tensor_99 * stride_kk
    tensor_102 = tensor_101.broadcast_to([128, 64])
    tensor_103 = offs_n.to(gl.int64)
    tensor_104 = offs_n_26.to(gl.int64)
    tensor_110 = tensor_68 * stride_vn
    tensor_111 = tensor_110.broadcast_to([64, 128])
    arg40 = 0
    for V_block_ptr_113 in range(0, block_min, 64):
        twill_k = (V_block_ptr_113 - 0) // 64
        tensor_115 = arg40 + tensor_103
        tensor_116 = gl.expand_dims(tensor_115, 0)
        tensor_117 = tensor_116 * stride_kn
        tensor_118 = tensor_117.broadcast_to([128, 64])
        tensor_119 = tensor_102 + tensor_118
        tensor_120 = K_block_ptr + tensor_119
        tensor_133 = arg40 + tensor_104
        tensor_134 = gl.expand_dims(tensor_133, 1)
        tensor_135 = tensor_134 * stride_vk
        tensor_136 = tensor_135.broadcast_to([64, 128])
        tensor_137 = tensor_136 + tensor_111
        tensor_138 = V_block_ptr + tensor_137
        K_block_ptr_145 = arg40 + 64
        mbarrier.wait(tensor_121_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(tensor_121_buf.index(twill_k % 2), tensor_120)  # load0_tensor: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(tensor_121_ready.index(twill_k % 2), increment_count=False)
        else:
            tensor_121_buf.index(twill_k % 2).store(gl.load(tensor_120))  # load0_tensor: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(tensor_121_ready.index(twill_k % 2), count=128)
        mbarrier.wait(tensor_139_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(tensor_139_buf.index(twill_k % 2), tensor_138)  # load1_tensor: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(tensor_139_ready.index(twill_k % 2), increment_count=False)
        else:
            tensor_139_buf.index(twill_k % 2).store(gl.load(tensor_138))  # load1_tensor: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(tensor_139_ready.index(twill_k % 2), count=128)
        arg40 = K_block_ptr_145

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    v0 = offs_m > seqlen_q
    if v0:
        return
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    v1 = n_blocks_37 <= 0
    if v1:
        return
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_16 = gl.arange(0, 128, layout=L0)
    offs_m_17 = gl.arange(0, 128, layout=L1)
    offs_m_18 = gl.arange(0, 128, layout=L2)
    offs_m_19 = gl.arange(0, 128, layout=L3)
    offs_m_20 = gl.arange(0, 128, layout=L4)
    offs_m_23 = offs_m + offs_m_17
    offs_m_24 = offs_m + offs_m_18
    offs_n = gl.arange(0, 64, layout=L3)
    offs_n_25 = gl.arange(0, 64, layout=L5)
    offs_n_26 = gl.arange(0, 64, layout=L6)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    off_h_k = off_h_q // 4
    v2 = seqlen_k < 64
    if v2:
        n_extra_tokens = 64 - seqlen_k
        v3 = n_extra_tokens
    else:
        v26 = seqlen_k % 64
        v3 = v26
    q_offset = gl.cast(off_z, gl.int64)
    q_offset_38 = q_offset * stride_qz
    q_offset_39 = gl.cast(off_h_q, gl.int64)
    q_offset_40 = q_offset_39 * stride_qh
    q_offset_41 = q_offset_38 + q_offset_40
    q_offset_42 = gl.cast(cu_seqlens_q_start_27, gl.int64)
    q_offset_43 = q_offset_42 * stride_qm
    q_offset_44 = q_offset_41 + q_offset_43
    Q_block_ptr = Q + q_offset_44
    Q_block_ptr_45 = gl.cast(seqlen_q, gl.int64)
    Q_block_ptr_46 = gl.cast(offs_m, gl.int64)
    k_offset = q_offset * stride_kz
    k_offset_47 = gl.cast(off_h_k, gl.int64)
    k_offset_48 = k_offset_47 * stride_kh
    k_offset_49 = k_offset + k_offset_48
    k_offset_50 = gl.cast(cu_seqlens_k_start_29, gl.int64)
    k_offset_51 = k_offset_50 * stride_kn
    k_offset_52 = k_offset_49 + k_offset_51
    K_block_ptr = K + k_offset_52
    K_block_ptr_53 = gl.cast(seqlen_k, gl.int64)
    v_offset = q_offset * stride_vz
    v_offset_54 = k_offset_47 * stride_vh
    v_offset_55 = v_offset + v_offset_54
    v_offset_56 = k_offset_50 * stride_vk
    v_offset_57 = v_offset_55 + v_offset_56
    V_block_ptr = V + v_offset_57
    qk_scale = sm_scale * 1.44269502
    tensor_59 = offs_m_16.to(gl.int64)
    tensor_60 = offs_m_19.to(gl.int64)
    tensor_61 = offs_m_20.to(gl.int64)
    tensor_62 = Q_block_ptr_46 + tensor_59
    tensor_63 = gl.expand_dims(tensor_62, 1)
    tensor_65 = tensor_63 * stride_qm
    tensor_66 = tensor_65.broadcast_to([128, 128])
    tensor_67 = gl.expand_dims(tensor_60, 0)
    tensor_68 = gl.expand_dims(tensor_61, 0)
    tensor_70 = tensor_67 * stride_qk
    tensor_71 = tensor_70.broadcast_to([128, 128])
    tensor_72 = tensor_66 + tensor_71
    tensor_73 = Q_block_ptr + tensor_72
    tensor_74 = tensor_63 >= 0
    tensor_76 = tensor_63 < Q_block_ptr_45
    tensor_77 = tensor_74 & tensor_76
    tensor_78 = tensor_77.broadcast_to([128, 128])
    tensor_79 = gl.load(tensor_73, mask=tensor_78, other=0.0)
    q = tensor_79.to(gl.float32)
    q_81 = q * qk_scale
    q_82 = q_81.to(gl.float16)
    is_modulo_mn = v3 == 0
    is_modulo_mn_83 = seqlen_q % 128
    is_modulo_mn_84 = is_modulo_mn_83 == 0
    is_modulo_mn_85 = is_modulo_mn & is_modulo_mn_84
    masked_blocks = is_modulo_mn_85 ^ True
    masked_blocks_86 = gl.cast(masked_blocks, gl.int32)
    masked_blocks_87 = masked_blocks_86 + 2
    masked_blocks_88 = gl.minimum(masked_blocks_87, n_blocks_37)
    n_full_blocks = n_blocks_37 - masked_blocks_88
    block_max = n_blocks_37 * 64
    v4 = n_full_blocks > 0
    if not v4:
        gl.thread_barrier()
        v5 = masked_blocks_88 > 0
        if v5:
            offs_n_causal = seqlen_q - seqlen_k
            offs_n_causal_99 = offs_n_25 + offs_n_causal
            K_block_ptr_100 = n_full_blocks * 64
            K_block_ptr_101 = gl.cast(K_block_ptr_100, gl.int64)
            k = v3 != 0
            causal_mask = gl.expand_dims(offs_m_23, 1)
            causal_mask_102 = causal_mask.broadcast_to([128, 64])
            q_103 = gl.convert_layout(q_82, L7)
            acc_106 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
            acc_107 = gl.full([128], 1.0, gl.float32, layout=L1)
            acc_108 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            K_block_ptr_109 = K_block_ptr_101
            for V_block_ptr_105 in range(0, block_max, 64):
                if k:
                    tensor_138_l1 = gl.expand_dims(tensor_59, 1)
                    tensor_140_l1 = tensor_138_l1 * stride_kk
                    tensor_141 = tensor_140_l1.broadcast_to([128, 64])
                    tensor_143 = offs_n.to(gl.int64)
                    tensor_144 = K_block_ptr_109 + tensor_143
                    tensor_145 = gl.expand_dims(tensor_144, 0)
                    tensor_147 = tensor_145 * stride_kn
                    tensor_148 = tensor_147.broadcast_to([128, 64])
                    tensor_149 = tensor_141 + tensor_148
                    tensor_150 = K_block_ptr + tensor_149
                    tensor_151 = tensor_145 >= 0
                    tensor_153 = tensor_145 < K_block_ptr_53
                    tensor_154 = tensor_151 & tensor_153
                    tensor_155 = tensor_154.broadcast_to([128, 64])
                    tensor_156 = gl.load(tensor_150, mask=tensor_155, other=0.0)
                    tensor_110_b293 = tensor_156
                else:
                    tensor_138_l1_b317 = gl.expand_dims(tensor_59, 1)
                    tensor_140_l1_b319 = tensor_138_l1_b317 * stride_kk
                    tensor_141_b320 = tensor_140_l1_b319.broadcast_to([128, 64])
                    tensor_143_b322 = offs_n.to(gl.int64)
                    tensor_144_b323 = K_block_ptr_109 + tensor_143_b322
                    tensor_145_b324 = gl.expand_dims(tensor_144_b323, 0)
                    tensor_147_b326 = tensor_145_b324 * stride_kn
                    tensor_148_b327 = tensor_147_b326.broadcast_to([128, 64])
                    tensor_149_b328 = tensor_141_b320 + tensor_148_b327
                    tensor_150_b329 = K_block_ptr + tensor_149_b328
                    tensor_151_b330 = gl.load(tensor_150_b329)
                    tensor_110_b293 = tensor_151_b330
                tensor_111_b333 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_110_b293)
                fence_async_shared()
                acc_112 = V_block_ptr_105 + 64
                acc_113 = acc_112 == block_max
                acc_114 = acc_113 & k
                if acc_114:
                    size_n = gl.expand_dims(offs_n_25, 0)
                    size_n_138 = V_block_ptr_105 + size_n
                    mask_139 = size_n_138 < seqlen_k
                    qk_140 = gl.where(mask_139, 0.0, float("-inf"))
                    qk_141 = qk_140.broadcast_to([128, 64])
                    acc_115 = qk_141
                else:
                    acc_115 = gl.full([128, 64], 0.0, gl.float32, layout=L9)
                causal_boundary_116 = V_block_ptr_105 + offs_n_causal_99
                causal_mask_117 = gl.expand_dims(causal_boundary_116, 0)
                causal_mask_118 = causal_mask_117.broadcast_to([128, 64])
                causal_mask_119 = causal_mask_102 >= causal_mask_118
                qk_l1 = gl.where(causal_mask_119, acc_115, float("-inf"))
                qk_120 = warpgroup_mma(q_103, tensor_111_b333, qk_l1)
                m_ij_l1 = gl.max(qk_120, axis=1)
                m_ij_121 = gl.maximum(acc_108, m_ij_l1)
                qk_122 = gl.expand_dims(m_ij_121, 1)
                qk_123 = qk_122.broadcast_to([128, 64])
                qk_124_l1 = qk_120 - qk_123
                p_l1 = gl.exp2(qk_124_l1)
                l_ij_l1 = gl.sum(p_l1, axis=1)
                alpha_l1 = acc_108 - m_ij_121
                alpha_125 = gl.exp2(alpha_l1)
                acc_126 = gl.expand_dims(alpha_125, 1)
                acc_127 = gl.convert_layout(acc_126, L8)
                acc_128_l1 = acc_127.broadcast_to([128, 128])
                acc_129_l1 = acc_106 * acc_128_l1
                if k:
                    tensor_139_l1_b380 = offs_n_26.to(gl.int64)
                    tensor_140_l1_b381 = K_block_ptr_109 + tensor_139_l1_b380
                    tensor_141_b382 = gl.expand_dims(tensor_140_l1_b381, 1)
                    tensor_143_b384 = tensor_141_b382 * stride_vk
                    tensor_144_b385 = tensor_143_b384.broadcast_to([64, 128])
                    tensor_146_b387 = tensor_68 * stride_vn
                    tensor_147_b388 = tensor_146_b387.broadcast_to([64, 128])
                    tensor_148_b389 = tensor_144_b385 + tensor_147_b388
                    tensor_149_b390 = V_block_ptr + tensor_148_b389
                    tensor_150_b391 = tensor_141_b382 >= 0
                    tensor_152_b393 = tensor_141_b382 < K_block_ptr_53
                    tensor_153_b394 = tensor_150_b391 & tensor_152_b393
                    tensor_154_b395 = tensor_153_b394.broadcast_to([64, 128])
                    tensor_155_b396 = gl.load(tensor_149_b390, mask=tensor_154_b395, other=0.0)
                    tensor_130 = tensor_155_b396
                else:
                    tensor_139_l1_b401 = offs_n_26.to(gl.int64)
                    tensor_140_l1_b402 = K_block_ptr_109 + tensor_139_l1_b401
                    tensor_141_b403 = gl.expand_dims(tensor_140_l1_b402, 1)
                    tensor_143_b405 = tensor_141_b403 * stride_vk
                    tensor_144_b406 = tensor_143_b405.broadcast_to([64, 128])
                    tensor_146_b408 = tensor_68 * stride_vn
                    tensor_147_b409 = tensor_146_b408.broadcast_to([64, 128])
                    tensor_148_b410 = tensor_144_b406 + tensor_147_b409
                    tensor_149_b411 = V_block_ptr + tensor_148_b410
                    tensor_150_b412 = gl.load(tensor_149_b411)
                    tensor_130 = tensor_150_b412
                tensor_131 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_130)
                fence_async_shared()
                l_i_l1 = acc_107 * alpha_125
                l_i_132 = l_i_l1 + l_ij_l1
                acc_133 = p_l1.to(gl.float16)
                acc_134 = gl.convert_layout(acc_133, L10)
                acc_135 = warpgroup_mma(acc_134, tensor_131, acc_129_l1)
                K_block_ptr_136 = K_block_ptr_109 + 64
                acc_106 = acc_135
                acc_107 = l_i_132
                acc_108 = m_ij_121
                K_block_ptr_109 = K_block_ptr_136
            v6_r0 = acc_107
            v6_r1 = acc_106
        else:
            v6_r0 = gl.full([128], 1.0, gl.float32, layout=L1)
            v6_r1 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
        acc_89 = gl.expand_dims(v6_r0, 1)
        acc_90 = gl.convert_layout(acc_89, L8)
        acc_91 = acc_90.broadcast_to([128, 128])
        acc_92 = v6_r1 / acc_91
        causal_start_idx = seqlen_q - seqlen_k
        acc_93 = acc_92.to(gl.float16)
        v7 = causal_start_idx > offs_m
        v8 = causal_start_idx < n_blocks_seqlen_32
        v9 = v7 & v8
        if v9:
            out_ptrs_mask = gl.expand_dims(offs_m_24, 1)
            out_ptrs_mask_99 = out_ptrs_mask >= causal_start_idx
            out_ptrs_mask_100 = out_ptrs_mask_99.broadcast_to([128, 128])
            acc_101 = gl.where(out_ptrs_mask_100, acc_93, 0.0)
            v10 = acc_101
        else:
            v10 = acc_93
        o_offset = q_offset * stride_oz
        o_offset_94 = q_offset_42 * stride_om
        o_offset_95 = o_offset + o_offset_94
        o_offset_96 = q_offset_39 * stride_oh
        o_offset_97 = o_offset_95 + o_offset_96
        O_block_ptr = Out + o_offset_97
        v13 = tensor_63 * stride_om
        v14 = v13.broadcast_to([128, 128])
        v16 = tensor_67 * stride_on
        v17 = v16.broadcast_to([128, 128])
        v18 = v14 + v17
        v19 = O_block_ptr + v18
        v20 = tensor_67 >= 0
        v21 = tensor_67 < 128
        v22 = v20 & v21
        v23 = v22.broadcast_to([128, 128])
        v24 = tensor_78 & v23
        v25 = gl.convert_layout(v10, L11)
        gl.store(v19, v25, mask=v24)
        return
    tensor_121_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    tensor_139_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    tensor_121_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(tensor_121_ready.index(i), count=128)
    tensor_121_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(tensor_121_empty.index(i), count=1)
    tensor_139_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(tensor_139_ready.index(i), count=128)
    tensor_139_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(tensor_139_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, tensor_121_buf, tensor_139_buf, tensor_121_ready, tensor_121_empty, tensor_139_ready, tensor_139_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, tensor_121_buf, tensor_139_buf, tensor_121_ready, tensor_121_empty, tensor_139_ready, tensor_139_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L7_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))

@gluon.jit
def consumer_0_short(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base):
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_16 = gl.arange(0, 128, layout=L0_short)
    offs_m_17 = gl.arange(0, 128, layout=L1_short)
    offs_m_18 = gl.arange(0, 128, layout=L2_short)
    offs_m_19 = gl.arange(0, 128, layout=L3_short)
    offs_m_20 = gl.arange(0, 128, layout=L4_short)
    offs_m_23 = offs_m + offs_m_17
    offs_m_24 = offs_m + offs_m_18
    offs_n = gl.arange(0, 64, layout=L3_short)
    offs_n_25 = gl.arange(0, 64, layout=L5_short)
    offs_n_26 = gl.arange(0, 64, layout=L6_short)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    off_h_k = off_h_q // 4
    v2 = seqlen_k < 64
    if v2:
        n_extra_tokens = 64 - seqlen_k
        v3 = n_extra_tokens
    else:
        v26 = seqlen_k % 64
        v3 = v26
    q_offset = gl.cast(off_z, gl.int64)
    q_offset_38 = q_offset * stride_qz
    q_offset_39 = gl.cast(off_h_q, gl.int64)
    q_offset_40 = q_offset_39 * stride_qh
    q_offset_41 = q_offset_38 + q_offset_40
    q_offset_42 = gl.cast(cu_seqlens_q_start_27, gl.int64)
    q_offset_43 = q_offset_42 * stride_qm
    q_offset_44 = q_offset_41 + q_offset_43
    Q_block_ptr = Q + q_offset_44
    Q_block_ptr_45 = gl.cast(seqlen_q, gl.int64)
    Q_block_ptr_46 = gl.cast(offs_m, gl.int64)
    k_offset = q_offset * stride_kz
    k_offset_47 = gl.cast(off_h_k, gl.int64)
    k_offset_48 = k_offset_47 * stride_kh
    k_offset_49 = k_offset + k_offset_48
    k_offset_50 = gl.cast(cu_seqlens_k_start_29, gl.int64)
    k_offset_51 = k_offset_50 * stride_kn
    k_offset_52 = k_offset_49 + k_offset_51
    K_block_ptr = K + k_offset_52
    K_block_ptr_53 = gl.cast(seqlen_k, gl.int64)
    v_offset = q_offset * stride_vz
    v_offset_54 = k_offset_47 * stride_vh
    v_offset_55 = v_offset + v_offset_54
    v_offset_56 = k_offset_50 * stride_vk
    v_offset_57 = v_offset_55 + v_offset_56
    V_block_ptr = V + v_offset_57
    qk_scale = sm_scale * 1.44269502
    tensor_59 = offs_m_16.to(gl.int64)
    tensor_60 = offs_m_19.to(gl.int64)
    tensor_61 = offs_m_20.to(gl.int64)
    tensor_62 = Q_block_ptr_46 + tensor_59
    tensor_63 = gl.expand_dims(tensor_62, 1)
    tensor_65 = tensor_63 * stride_qm
    tensor_66 = tensor_65.broadcast_to([128, 128])
    tensor_67 = gl.expand_dims(tensor_60, 0)
    tensor_68 = gl.expand_dims(tensor_61, 0)
    tensor_70 = tensor_67 * stride_qk
    tensor_71 = tensor_70.broadcast_to([128, 128])
    tensor_72 = tensor_66 + tensor_71
    tensor_73 = Q_block_ptr + tensor_72
    tensor_74 = tensor_63 >= 0
    tensor_76 = tensor_63 < Q_block_ptr_45
    tensor_77 = tensor_74 & tensor_76
    tensor_78 = tensor_77.broadcast_to([128, 128])
    tensor_79 = gl.load(tensor_73, mask=tensor_78, other=0.0)
    q = tensor_79.to(gl.float32)
    q_81 = q * qk_scale
    q_82 = q_81.to(gl.float16)
    is_modulo_mn = v3 == 0
    is_modulo_mn_83 = seqlen_q % 128
    is_modulo_mn_84 = is_modulo_mn_83 == 0
    is_modulo_mn_85 = is_modulo_mn & is_modulo_mn_84
    masked_blocks = is_modulo_mn_85 ^ True
    masked_blocks_86 = gl.cast(masked_blocks, gl.int32)
    masked_blocks_87 = masked_blocks_86 + 2
    masked_blocks_88 = gl.minimum(masked_blocks_87, n_blocks_37)
    n_full_blocks = n_blocks_37 - masked_blocks_88
    block_max = n_blocks_37 * 64
    block_min = n_full_blocks * 64
    tensor_99 = gl.expand_dims(tensor_59, 1)
    tensor_101 = tensor_99 * stride_kk
    tensor_102 = tensor_101.broadcast_to([128, 64])
    tensor_103 = offs_n.to(gl.int64)
    tensor_104 = offs_n_26.to(gl.int64)
    q_106 = gl.convert_layout(q_82, L7_short)
    tensor_110 = tensor_68 * stride_vn
    tensor_111 = tensor_110.broadcast_to([64, 128])
    twill_n = (block_min - 0 + 64 - 1) // 64
    tensor_122_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    tensor_140_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    acc_144 = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
    l_i_141 = gl.full([128], 1.0, gl.float32, layout=L1_short)
    m_ij_123 = gl.full([128], float("-inf"), gl.float32, layout=L1_short)
    K_block_ptr_145 = gl.to_tensor(0).to(gl.int64)
    K_block_ptr_145_p1 = K_block_ptr_145
    acc_144_p1 = acc_144
    l_i_141_p1 = l_i_141
    m_ij_123_p1 = m_ij_123
    for twill_b in range(0, twill_n):
        tensor_114 = K_block_ptr_145_p1  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_115 = tensor_114 + tensor_103  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_116 = gl.expand_dims(tensor_115, 0)  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_117 = tensor_116 * stride_kn  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_118 = tensor_117.broadcast_to([128, 64])  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_119 = tensor_102 + tensor_118  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_120 = K_block_ptr + tensor_119  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_121 = gl.load(tensor_120)  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_122 = tensor_122_st.index((twill_b - 0) % 2)  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_122.store(tensor_121)  # load0_tensor: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_tensor: stage 0, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_106, tensor_122, gl.full([128, 64], 0.0, gl.float32, layout=L9_short), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        acc_144_p1, qk = warpgroup_mma_wait(0, deps=(acc_144_p1, tok_qk,))
        m_ij = gl.max(qk, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_ij_123 = gl.maximum(m_ij_123_p1, m_ij)  # elementwise0_m_ij: stage 0, partition 0 (group 0)
        alpha = m_ij_123_p1 - m_ij_123  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_127 = gl.exp2(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        qk_124 = gl.expand_dims(m_ij_123, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        qk_125 = qk_124.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        qk_126 = qk - qk_125  # sfu0_p: stage 0, partition 0 (group 0)
        p = gl.exp2(qk_126)  # sfu0_p: stage 0, partition 0 (group 0)
        acc_128 = gl.expand_dims(alpha_127, 1)  # convert0_acc: stage 0, partition 0 (group 0)
        acc_129 = gl.convert_layout(acc_128, L8_short)  # convert0_acc: stage 0, partition 0 (group 0)
        acc_130 = acc_129.broadcast_to([128, 128])  # elementwise1_acc: stage 0, partition 0 (group 0)
        acc_131 = acc_144_p1 * acc_130  # elementwise1_acc: stage 0, partition 0 (group 0)
        l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
        acc_142 = p.to(gl.float16)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_143 = gl.convert_layout(acc_142, L10_short)  # convert1_acc: stage 0, partition 0 (group 0)
        K_block_ptr_145 = K_block_ptr_145_p1 + 64  # load0_tensor: stage 0, partition 0 (group 0)
        tensor_132 = K_block_ptr_145_p1  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_133 = tensor_132 + tensor_104  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_134 = gl.expand_dims(tensor_133, 1)  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_135 = tensor_134 * stride_vk  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_136 = tensor_135.broadcast_to([64, 128])  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_137 = tensor_136 + tensor_111  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_138 = V_block_ptr + tensor_137  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_139 = gl.load(tensor_138)  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_140 = tensor_140_st.index((twill_b - 0) % 2)  # load1_tensor: stage 0, partition 0 (group 0)
        tensor_140.store(tensor_139)  # load1_tensor: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_tensor: stage 0, partition 0 (group 0)
        tok_acc_144 = warpgroup_mma(acc_143, tensor_140, acc_131, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
        l_i = l_i_141_p1 * alpha_127  # elementwise2_l_i: stage 0, partition 0 (group 0)
        l_i_141 = l_i + l_ij  # elementwise2_l_i: stage 0, partition 0 (group 0)
        acc_144 = warpgroup_mma_wait(1, deps=(tok_acc_144,))
        K_block_ptr_145_p1 = K_block_ptr_145
        acc_144_p1 = acc_144
        l_i_141_p1 = l_i_141
        m_ij_123_p1 = m_ij_123
    acc_144_p1 = warpgroup_mma_wait(0, deps=(acc_144_p1,))
    tensor_122_st._keep_alive()
    tensor_140_st._keep_alive()
    gl.thread_barrier()
    v5 = masked_blocks_88 > 0
    if v5:
        offs_n_causal = seqlen_q - seqlen_k
        offs_n_causal_99 = offs_n_25 + offs_n_causal
        K_block_ptr_100 = n_full_blocks * 64
        K_block_ptr_101 = gl.cast(K_block_ptr_100, gl.int64)
        k = v3 != 0
        causal_mask = gl.expand_dims(offs_m_23, 1)
        causal_mask_102 = causal_mask.broadcast_to([128, 64])
        q_103 = gl.convert_layout(q_82, L7_short)
        acc_106 = acc_144_p1
        acc_107 = l_i_141_p1
        acc_108 = m_ij_123_p1
        K_block_ptr_109 = K_block_ptr_101
        for V_block_ptr_105 in range(block_min, block_max, 64):
            if k:
                tensor_138_l1 = gl.expand_dims(tensor_59, 1)
                tensor_140_l1 = tensor_138_l1 * stride_kk
                tensor_141 = tensor_140_l1.broadcast_to([128, 64])
                tensor_143 = offs_n.to(gl.int64)
                tensor_144 = K_block_ptr_109 + tensor_143
                tensor_145 = gl.expand_dims(tensor_144, 0)
                tensor_147 = tensor_145 * stride_kn
                tensor_148 = tensor_147.broadcast_to([128, 64])
                tensor_149 = tensor_141 + tensor_148
                tensor_150 = K_block_ptr + tensor_149
                tensor_151 = tensor_145 >= 0
                tensor_153 = tensor_145 < K_block_ptr_53
                tensor_154 = tensor_151 & tensor_153
                tensor_155 = tensor_154.broadcast_to([128, 64])
                tensor_156 = gl.load(tensor_150, mask=tensor_155, other=0.0)
                tensor_110_b293 = tensor_156
            else:
                tensor_138_l1_b317 = gl.expand_dims(tensor_59, 1)
                tensor_140_l1_b319 = tensor_138_l1_b317 * stride_kk
                tensor_141_b320 = tensor_140_l1_b319.broadcast_to([128, 64])
                tensor_143_b322 = offs_n.to(gl.int64)
                tensor_144_b323 = K_block_ptr_109 + tensor_143_b322
                tensor_145_b324 = gl.expand_dims(tensor_144_b323, 0)
                tensor_147_b326 = tensor_145_b324 * stride_kn
                tensor_148_b327 = tensor_147_b326.broadcast_to([128, 64])
                tensor_149_b328 = tensor_141_b320 + tensor_148_b327
                tensor_150_b329 = K_block_ptr + tensor_149_b328
                tensor_151_b330 = gl.load(tensor_150_b329)
                tensor_110_b293 = tensor_151_b330
            tensor_111_b333 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_110_b293)
            fence_async_shared()
            acc_112 = V_block_ptr_105 + 64
            acc_113 = acc_112 == block_max
            acc_114 = acc_113 & k
            if acc_114:
                size_n = gl.expand_dims(offs_n_25, 0)
                size_n_138 = V_block_ptr_105 + size_n
                mask_139 = size_n_138 < seqlen_k
                qk_140 = gl.where(mask_139, 0.0, float("-inf"))
                qk_141 = qk_140.broadcast_to([128, 64])
                acc_115 = qk_141
            else:
                acc_115 = gl.full([128, 64], 0.0, gl.float32, layout=L9_short)
            causal_boundary_116 = V_block_ptr_105 + offs_n_causal_99
            causal_mask_117 = gl.expand_dims(causal_boundary_116, 0)
            causal_mask_118 = causal_mask_117.broadcast_to([128, 64])
            causal_mask_119 = causal_mask_102 >= causal_mask_118
            qk_l1 = gl.where(causal_mask_119, acc_115, float("-inf"))
            qk_120 = warpgroup_mma(q_103, tensor_111_b333, qk_l1)
            m_ij_l1 = gl.max(qk_120, axis=1)
            m_ij_121 = gl.maximum(acc_108, m_ij_l1)
            qk_122 = gl.expand_dims(m_ij_121, 1)
            qk_123 = qk_122.broadcast_to([128, 64])
            qk_124_l1 = qk_120 - qk_123
            p_l1 = gl.exp2(qk_124_l1)
            l_ij_l1 = gl.sum(p_l1, axis=1)
            alpha_l1 = acc_108 - m_ij_121
            alpha_125 = gl.exp2(alpha_l1)
            acc_126 = gl.expand_dims(alpha_125, 1)
            acc_127 = gl.convert_layout(acc_126, L8_short)
            acc_128_l1 = acc_127.broadcast_to([128, 128])
            acc_129_l1 = acc_106 * acc_128_l1
            if k:
                tensor_139_l1_b380 = offs_n_26.to(gl.int64)
                tensor_140_l1_b381 = K_block_ptr_109 + tensor_139_l1_b380
                tensor_141_b382 = gl.expand_dims(tensor_140_l1_b381, 1)
                tensor_143_b384 = tensor_141_b382 * stride_vk
                tensor_144_b385 = tensor_143_b384.broadcast_to([64, 128])
                tensor_146_b387 = tensor_68 * stride_vn
                tensor_147_b388 = tensor_146_b387.broadcast_to([64, 128])
                tensor_148_b389 = tensor_144_b385 + tensor_147_b388
                tensor_149_b390 = V_block_ptr + tensor_148_b389
                tensor_150_b391 = tensor_141_b382 >= 0
                tensor_152_b393 = tensor_141_b382 < K_block_ptr_53
                tensor_153_b394 = tensor_150_b391 & tensor_152_b393
                tensor_154_b395 = tensor_153_b394.broadcast_to([64, 128])
                tensor_155_b396 = gl.load(tensor_149_b390, mask=tensor_154_b395, other=0.0)
                tensor_130 = tensor_155_b396
            else:
                tensor_139_l1_b401 = offs_n_26.to(gl.int64)
                tensor_140_l1_b402 = K_block_ptr_109 + tensor_139_l1_b401
                tensor_141_b403 = gl.expand_dims(tensor_140_l1_b402, 1)
                tensor_143_b405 = tensor_141_b403 * stride_vk
                tensor_144_b406 = tensor_143_b405.broadcast_to([64, 128])
                tensor_146_b408 = tensor_68 * stride_vn
                tensor_147_b409 = tensor_146_b408.broadcast_to([64, 128])
                tensor_148_b410 = tensor_144_b406 + tensor_147_b409
                tensor_149_b411 = V_block_ptr + tensor_148_b410
                tensor_150_b412 = gl.load(tensor_149_b411)
                tensor_130 = tensor_150_b412
            tensor_131 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_130)
            fence_async_shared()
            l_i_l1 = acc_107 * alpha_125
            l_i_132 = l_i_l1 + l_ij_l1
            acc_133 = p_l1.to(gl.float16)
            acc_134 = gl.convert_layout(acc_133, L10_short)
            acc_135 = warpgroup_mma(acc_134, tensor_131, acc_129_l1)
            K_block_ptr_136 = K_block_ptr_109 + 64
            acc_106 = acc_135
            acc_107 = l_i_132
            acc_108 = m_ij_121
            K_block_ptr_109 = K_block_ptr_136
        v6_r0 = acc_107
        v6_r1 = acc_106
    else:
        v6_r0 = l_i_141_p1
        v6_r1 = acc_144_p1
    acc_89 = gl.expand_dims(v6_r0, 1)
    acc_90 = gl.convert_layout(acc_89, L8_short)
    acc_91 = acc_90.broadcast_to([128, 128])
    acc_92 = v6_r1 / acc_91
    causal_start_idx = seqlen_q - seqlen_k
    acc_93 = acc_92.to(gl.float16)
    v7 = causal_start_idx > offs_m
    v8 = causal_start_idx < n_blocks_seqlen_32
    v9 = v7 & v8
    if v9:
        out_ptrs_mask = gl.expand_dims(offs_m_24, 1)
        out_ptrs_mask_99 = out_ptrs_mask >= causal_start_idx
        out_ptrs_mask_100 = out_ptrs_mask_99.broadcast_to([128, 128])
        acc_101 = gl.where(out_ptrs_mask_100, acc_93, 0.0)
        v10 = acc_101
    else:
        v10 = acc_93
    o_offset = q_offset * stride_oz
    o_offset_94 = q_offset_42 * stride_om
    o_offset_95 = o_offset + o_offset_94
    o_offset_96 = q_offset_39 * stride_oh
    o_offset_97 = o_offset_95 + o_offset_96
    O_block_ptr = Out + o_offset_97
    v13 = tensor_63 * stride_om
    v14 = v13.broadcast_to([128, 128])
    v16 = tensor_67 * stride_on
    v17 = v16.broadcast_to([128, 128])
    v18 = v14 + v17
    v19 = O_block_ptr + v18
    v20 = tensor_67 >= 0
    v21 = tensor_67 < 128
    v22 = v20 & v21
    v23 = v22.broadcast_to([128, 128])
    v24 = tensor_78 & v23
    v25 = gl.convert_layout(v10, L11_short)
    gl.store(v19, v25, mask=v24)

@gluon.jit
def twill_kernel_short(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base):
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    v0 = offs_m > seqlen_q
    if v0:
        return
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    v1 = n_blocks_37 <= 0
    if v1:
        return
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_16 = gl.arange(0, 128, layout=L0_short)
    offs_m_17 = gl.arange(0, 128, layout=L1_short)
    offs_m_18 = gl.arange(0, 128, layout=L2_short)
    offs_m_19 = gl.arange(0, 128, layout=L3_short)
    offs_m_20 = gl.arange(0, 128, layout=L4_short)
    offs_m_23 = offs_m + offs_m_17
    offs_m_24 = offs_m + offs_m_18
    offs_n = gl.arange(0, 64, layout=L3_short)
    offs_n_25 = gl.arange(0, 64, layout=L5_short)
    offs_n_26 = gl.arange(0, 64, layout=L6_short)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_27 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_28 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_28 - cu_seqlens_q_start_27
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_29 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_30 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_30 - cu_seqlens_k_start_29
    n_blocks = seqlen_k + 63
    n_blocks_31 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_32 = n_blocks_seqlen * 128
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + seqlen_k
    n_blocks_seqlen_34 = n_blocks_seqlen_33 - seqlen_q
    n_blocks_seqlen_35 = n_blocks_seqlen_34 + 63
    n_blocks_seqlen_36 = n_blocks_seqlen_35 // 64
    n_blocks_37 = gl.minimum(n_blocks_31, n_blocks_seqlen_36)
    off_h_k = off_h_q // 4
    v2 = seqlen_k < 64
    if v2:
        n_extra_tokens = 64 - seqlen_k
        v3 = n_extra_tokens
    else:
        v26 = seqlen_k % 64
        v3 = v26
    q_offset = gl.cast(off_z, gl.int64)
    q_offset_38 = q_offset * stride_qz
    q_offset_39 = gl.cast(off_h_q, gl.int64)
    q_offset_40 = q_offset_39 * stride_qh
    q_offset_41 = q_offset_38 + q_offset_40
    q_offset_42 = gl.cast(cu_seqlens_q_start_27, gl.int64)
    q_offset_43 = q_offset_42 * stride_qm
    q_offset_44 = q_offset_41 + q_offset_43
    Q_block_ptr = Q + q_offset_44
    Q_block_ptr_45 = gl.cast(seqlen_q, gl.int64)
    Q_block_ptr_46 = gl.cast(offs_m, gl.int64)
    k_offset = q_offset * stride_kz
    k_offset_47 = gl.cast(off_h_k, gl.int64)
    k_offset_48 = k_offset_47 * stride_kh
    k_offset_49 = k_offset + k_offset_48
    k_offset_50 = gl.cast(cu_seqlens_k_start_29, gl.int64)
    k_offset_51 = k_offset_50 * stride_kn
    k_offset_52 = k_offset_49 + k_offset_51
    K_block_ptr = K + k_offset_52
    K_block_ptr_53 = gl.cast(seqlen_k, gl.int64)
    v_offset = q_offset * stride_vz
    v_offset_54 = k_offset_47 * stride_vh
    v_offset_55 = v_offset + v_offset_54
    v_offset_56 = k_offset_50 * stride_vk
    v_offset_57 = v_offset_55 + v_offset_56
    V_block_ptr = V + v_offset_57
    qk_scale = sm_scale * 1.44269502
    tensor_59 = offs_m_16.to(gl.int64)
    tensor_60 = offs_m_19.to(gl.int64)
    tensor_61 = offs_m_20.to(gl.int64)
    tensor_62 = Q_block_ptr_46 + tensor_59
    tensor_63 = gl.expand_dims(tensor_62, 1)
    tensor_65 = tensor_63 * stride_qm
    tensor_66 = tensor_65.broadcast_to([128, 128])
    tensor_67 = gl.expand_dims(tensor_60, 0)
    tensor_68 = gl.expand_dims(tensor_61, 0)
    tensor_70 = tensor_67 * stride_qk
    tensor_71 = tensor_70.broadcast_to([128, 128])
    tensor_72 = tensor_66 + tensor_71
    tensor_73 = Q_block_ptr + tensor_72
    tensor_74 = tensor_63 >= 0
    tensor_76 = tensor_63 < Q_block_ptr_45
    tensor_77 = tensor_74 & tensor_76
    tensor_78 = tensor_77.broadcast_to([128, 128])
    tensor_79 = gl.load(tensor_73, mask=tensor_78, other=0.0)
    q = tensor_79.to(gl.float32)
    q_81 = q * qk_scale
    q_82 = q_81.to(gl.float16)
    is_modulo_mn = v3 == 0
    is_modulo_mn_83 = seqlen_q % 128
    is_modulo_mn_84 = is_modulo_mn_83 == 0
    is_modulo_mn_85 = is_modulo_mn & is_modulo_mn_84
    masked_blocks = is_modulo_mn_85 ^ True
    masked_blocks_86 = gl.cast(masked_blocks, gl.int32)
    masked_blocks_87 = masked_blocks_86 + 2
    masked_blocks_88 = gl.minimum(masked_blocks_87, n_blocks_37)
    n_full_blocks = n_blocks_37 - masked_blocks_88
    block_max = n_blocks_37 * 64
    v4 = n_full_blocks > 0
    if not v4:
        gl.thread_barrier()
        v5 = masked_blocks_88 > 0
        if v5:
            offs_n_causal = seqlen_q - seqlen_k
            offs_n_causal_99 = offs_n_25 + offs_n_causal
            K_block_ptr_100 = n_full_blocks * 64
            K_block_ptr_101 = gl.cast(K_block_ptr_100, gl.int64)
            k = v3 != 0
            causal_mask = gl.expand_dims(offs_m_23, 1)
            causal_mask_102 = causal_mask.broadcast_to([128, 64])
            q_103 = gl.convert_layout(q_82, L7_short)
            acc_106 = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
            acc_107 = gl.full([128], 1.0, gl.float32, layout=L1_short)
            acc_108 = gl.full([128], float("-inf"), gl.float32, layout=L1_short)
            K_block_ptr_109 = K_block_ptr_101
            for V_block_ptr_105 in range(0, block_max, 64):
                if k:
                    tensor_138_l1 = gl.expand_dims(tensor_59, 1)
                    tensor_140_l1 = tensor_138_l1 * stride_kk
                    tensor_141 = tensor_140_l1.broadcast_to([128, 64])
                    tensor_143 = offs_n.to(gl.int64)
                    tensor_144 = K_block_ptr_109 + tensor_143
                    tensor_145 = gl.expand_dims(tensor_144, 0)
                    tensor_147 = tensor_145 * stride_kn
                    tensor_148 = tensor_147.broadcast_to([128, 64])
                    tensor_149 = tensor_141 + tensor_148
                    tensor_150 = K_block_ptr + tensor_149
                    tensor_151 = tensor_145 >= 0
                    tensor_153 = tensor_145 < K_block_ptr_53
                    tensor_154 = tensor_151 & tensor_153
                    tensor_155 = tensor_154.broadcast_to([128, 64])
                    tensor_156 = gl.load(tensor_150, mask=tensor_155, other=0.0)
                    tensor_110_b293 = tensor_156
                else:
                    tensor_138_l1_b317 = gl.expand_dims(tensor_59, 1)
                    tensor_140_l1_b319 = tensor_138_l1_b317 * stride_kk
                    tensor_141_b320 = tensor_140_l1_b319.broadcast_to([128, 64])
                    tensor_143_b322 = offs_n.to(gl.int64)
                    tensor_144_b323 = K_block_ptr_109 + tensor_143_b322
                    tensor_145_b324 = gl.expand_dims(tensor_144_b323, 0)
                    tensor_147_b326 = tensor_145_b324 * stride_kn
                    tensor_148_b327 = tensor_147_b326.broadcast_to([128, 64])
                    tensor_149_b328 = tensor_141_b320 + tensor_148_b327
                    tensor_150_b329 = K_block_ptr + tensor_149_b328
                    tensor_151_b330 = gl.load(tensor_150_b329)
                    tensor_110_b293 = tensor_151_b330
                tensor_111_b333 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_110_b293)
                fence_async_shared()
                acc_112 = V_block_ptr_105 + 64
                acc_113 = acc_112 == block_max
                acc_114 = acc_113 & k
                if acc_114:
                    size_n = gl.expand_dims(offs_n_25, 0)
                    size_n_138 = V_block_ptr_105 + size_n
                    mask_139 = size_n_138 < seqlen_k
                    qk_140 = gl.where(mask_139, 0.0, float("-inf"))
                    qk_141 = qk_140.broadcast_to([128, 64])
                    acc_115 = qk_141
                else:
                    acc_115 = gl.full([128, 64], 0.0, gl.float32, layout=L9_short)
                causal_boundary_116 = V_block_ptr_105 + offs_n_causal_99
                causal_mask_117 = gl.expand_dims(causal_boundary_116, 0)
                causal_mask_118 = causal_mask_117.broadcast_to([128, 64])
                causal_mask_119 = causal_mask_102 >= causal_mask_118
                qk_l1 = gl.where(causal_mask_119, acc_115, float("-inf"))
                qk_120 = warpgroup_mma(q_103, tensor_111_b333, qk_l1)
                m_ij_l1 = gl.max(qk_120, axis=1)
                m_ij_121 = gl.maximum(acc_108, m_ij_l1)
                qk_122 = gl.expand_dims(m_ij_121, 1)
                qk_123 = qk_122.broadcast_to([128, 64])
                qk_124_l1 = qk_120 - qk_123
                p_l1 = gl.exp2(qk_124_l1)
                l_ij_l1 = gl.sum(p_l1, axis=1)
                alpha_l1 = acc_108 - m_ij_121
                alpha_125 = gl.exp2(alpha_l1)
                acc_126 = gl.expand_dims(alpha_125, 1)
                acc_127 = gl.convert_layout(acc_126, L8_short)
                acc_128_l1 = acc_127.broadcast_to([128, 128])
                acc_129_l1 = acc_106 * acc_128_l1
                if k:
                    tensor_139_l1_b380 = offs_n_26.to(gl.int64)
                    tensor_140_l1_b381 = K_block_ptr_109 + tensor_139_l1_b380
                    tensor_141_b382 = gl.expand_dims(tensor_140_l1_b381, 1)
                    tensor_143_b384 = tensor_141_b382 * stride_vk
                    tensor_144_b385 = tensor_143_b384.broadcast_to([64, 128])
                    tensor_146_b387 = tensor_68 * stride_vn
                    tensor_147_b388 = tensor_146_b387.broadcast_to([64, 128])
                    tensor_148_b389 = tensor_144_b385 + tensor_147_b388
                    tensor_149_b390 = V_block_ptr + tensor_148_b389
                    tensor_150_b391 = tensor_141_b382 >= 0
                    tensor_152_b393 = tensor_141_b382 < K_block_ptr_53
                    tensor_153_b394 = tensor_150_b391 & tensor_152_b393
                    tensor_154_b395 = tensor_153_b394.broadcast_to([64, 128])
                    tensor_155_b396 = gl.load(tensor_149_b390, mask=tensor_154_b395, other=0.0)
                    tensor_130 = tensor_155_b396
                else:
                    tensor_139_l1_b401 = offs_n_26.to(gl.int64)
                    tensor_140_l1_b402 = K_block_ptr_109 + tensor_139_l1_b401
                    tensor_141_b403 = gl.expand_dims(tensor_140_l1_b402, 1)
                    tensor_143_b405 = tensor_141_b403 * stride_vk
                    tensor_144_b406 = tensor_143_b405.broadcast_to([64, 128])
                    tensor_146_b408 = tensor_68 * stride_vn
                    tensor_147_b409 = tensor_146_b408.broadcast_to([64, 128])
                    tensor_148_b410 = tensor_144_b406 + tensor_147_b409
                    tensor_149_b411 = V_block_ptr + tensor_148_b410
                    tensor_150_b412 = gl.load(tensor_149_b411)
                    tensor_130 = tensor_150_b412
                tensor_131 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), tensor_130)
                fence_async_shared()
                l_i_l1 = acc_107 * alpha_125
                l_i_132 = l_i_l1 + l_ij_l1
                acc_133 = p_l1.to(gl.float16)
                acc_134 = gl.convert_layout(acc_133, L10_short)
                acc_135 = warpgroup_mma(acc_134, tensor_131, acc_129_l1)
                K_block_ptr_136 = K_block_ptr_109 + 64
                acc_106 = acc_135
                acc_107 = l_i_132
                acc_108 = m_ij_121
                K_block_ptr_109 = K_block_ptr_136
            v6_r0 = acc_107
            v6_r1 = acc_106
        else:
            v6_r0 = gl.full([128], 1.0, gl.float32, layout=L1_short)
            v6_r1 = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
        acc_89 = gl.expand_dims(v6_r0, 1)
        acc_90 = gl.convert_layout(acc_89, L8_short)
        acc_91 = acc_90.broadcast_to([128, 128])
        acc_92 = v6_r1 / acc_91
        causal_start_idx = seqlen_q - seqlen_k
        acc_93 = acc_92.to(gl.float16)
        v7 = causal_start_idx > offs_m
        v8 = causal_start_idx < n_blocks_seqlen_32
        v9 = v7 & v8
        if v9:
            out_ptrs_mask = gl.expand_dims(offs_m_24, 1)
            out_ptrs_mask_99 = out_ptrs_mask >= causal_start_idx
            out_ptrs_mask_100 = out_ptrs_mask_99.broadcast_to([128, 128])
            acc_101 = gl.where(out_ptrs_mask_100, acc_93, 0.0)
            v10 = acc_101
        else:
            v10 = acc_93
        o_offset = q_offset * stride_oz
        o_offset_94 = q_offset_42 * stride_om
        o_offset_95 = o_offset + o_offset_94
        o_offset_96 = q_offset_39 * stride_oh
        o_offset_97 = o_offset_95 + o_offset_96
        O_block_ptr = Out + o_offset_97
        v13 = tensor_63 * stride_om
        v14 = v13.broadcast_to([128, 128])
        v16 = tensor_67 * stride_on
        v17 = v16.broadcast_to([128, 128])
        v18 = v14 + v17
        v19 = O_block_ptr + v18
        v20 = tensor_67 >= 0
        v21 = tensor_67 < 128
        v22 = v20 & v21
        v23 = v22.broadcast_to([128, 128])
        v24 = tensor_78 & v23
        v25 = gl.convert_layout(v10, L11_short)
        gl.store(v19, v25, mask=v24)
        return
    consumer_0_short(Q, K, V, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn, stride_kk, stride_vz, stride_vh, stride_vk, stride_vn, stride_oz, stride_oh, stride_om, stride_on, stride_bz, stride_bh, stride_bm, stride_bn, cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'bias', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'L', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base', 'encoded_softmax', 'HQ', 'HK', 'ACTUAL_BLOCK_DMODEL', 'MAX_SEQLENS_Q', 'MAX_SEQLENS_K', 'VARLEN', 'IS_CAUSAL', 'BLOCK_M', 'BLOCK_DMODEL', 'USE_FP8', 'USE_FP8_OUT', 'BLOCK_N', 'PRE_LOAD_V', 'BIAS_TYPE', 'ENABLE_DROPOUT', 'RETURN_ENCODED_SOFTMAX', 'FP8_MIN', 'FP8_MAX']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'bias', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'L', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base', 'encoded_softmax']   # the arguments a launch key reads
CONSTEXPRS = {'HQ': 32, 'HK': 8, 'ACTUAL_BLOCK_DMODEL': 128, 'MAX_SEQLENS_Q': 0, 'MAX_SEQLENS_K': 0, 'VARLEN': True, 'IS_CAUSAL': True, 'BLOCK_M': 128, 'BLOCK_DMODEL': 128, 'USE_FP8': False, 'USE_FP8_OUT': False, 'BLOCK_N': 64, 'PRE_LOAD_V': False, 'BIAS_TYPE': 0, 'ENABLE_DROPOUT': False, 'RETURN_ENCODED_SOFTMAX': False, 'FP8_MIN': -448.0, 'FP8_MAX': 448.0}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = None   # the copies go through registers at every launch: cp.async cannot copy these tiles in pieces of 4 bytes or more (their addresses are not known aligned)
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS = {}                  # argument -> its layout object, made on first use
_CODE = {}                     # expression -> its compiled code
_DESCS = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE = []                   # the active driver's current device, read per launch


def _ev(e, bound):
    code = _CODE.get(e)
    if code is None:
        code = _CODE[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
        if len(_DESCS) >= 256:
            _DESCS.clear()
        d = _DESCS[key] = TensorDescriptor(_Base(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc(name, base, shape, strides, DESCRIPTOR_BLOCKS[name])


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
    for n in KEYED:
        v = bound.get(n)
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif t is float:
            key.append(float)
        elif hasattr(v, "data_ptr"):
            key.append((v.dtype, v.data_ptr() % 16 == 0))
        elif hasattr(v, "base") and hasattr(v.base, "data_ptr"):          # a host descriptor
            key.append((v.base.dtype, v.base.data_ptr() % 16 == 0, tuple(v.shape), tuple(v.strides)))
        else:
            key.append(v)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _device():
    if not _DEVICE:
        from triton.runtime import driver
        _DEVICE.append(driver.active.get_current_device)
    return _DEVICE[0]()


def _decide(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {'TWILL_COPY': False}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch_long(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS})
    for k, v in CONSTEXPRS.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count())),)
    key = _key(bound, g)
    entry = _KEYED.get(key) if key is not None else None
    if entry is None:
        entry = _decide(bound)
        if key is not None:
            if len(_KEYED) >= 64:
                _KEYED.clear()
            _KEYED[key] = entry
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    return _run(entry, g, runtime)


def _run(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel[g](*runtime, **dict(zip(FLAGS, entry[0])), num_warps=NUM_WARPS, maxnreg=MAXNREG)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


_SMS = []


def _sm_count():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS:
        import torch
        _SMS.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS[0]


class _Config:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS), NUM_WARPS, None, 1
        self.maxnreg, self.pre_hook = MAXNREG, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called; ``kernel.fn[grid](*args)`` as a heuristics' or an
    autotuner's wrapped function is called past them (FlagGems), ``kernel.best_config`` and ``kernel.run(*args,
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does).
    ``kernel.fallback``: the Triton kernel this one replaces, set by whoever swaps it in; a launch this kernel was not
    generated for (other constexprs, too few iterations, a pre_hook it cannot run) then runs it, counted in
    ``kernel.fallbacks``, where without it the launch is refused in one line."""

    fallback = None
    fallbacks = 0

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self._launch(grid, args, kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else self._launch(grid, args, kwargs)

    def _launch(self, grid, args, kwargs):
        try:
            return launch(grid, *args, **kwargs)
        except ValueError as e:
            refused = str(e).startswith("twill: ") and "missing kernel arguments" not in str(e)
            if self.fallback is None or not refused:
                raise
            self.fallbacks += 1
            return self.fallback[grid](*args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config()


kernel = _Kernel()

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['Q', 'K', 'V', 'bias', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'L', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base', 'encoded_softmax', 'HQ', 'HK', 'ACTUAL_BLOCK_DMODEL', 'MAX_SEQLENS_Q', 'MAX_SEQLENS_K', 'VARLEN', 'IS_CAUSAL', 'BLOCK_M', 'BLOCK_DMODEL', 'USE_FP8', 'USE_FP8_OUT', 'BLOCK_N', 'PRE_LOAD_V', 'BIAS_TYPE', 'ENABLE_DROPOUT', 'RETURN_ENCODED_SOFTMAX', 'FP8_MIN', 'FP8_MAX']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'bias', 'sm_scale', 'q_scale', 'k_scale', 'v_scale', 'p_scale', 'p_descale', 'o_descale', 'L', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'stride_bz', 'stride_bh', 'stride_bm', 'stride_bn', 'cu_seqlens_q', 'cu_seqlens_k', 'dropout_p', 'philox_seed', 'philox_offset_base', 'encoded_softmax']   # the arguments a launch key reads
CONSTEXPRS_short = {'HQ': 32, 'HK': 8, 'ACTUAL_BLOCK_DMODEL': 128, 'MAX_SEQLENS_Q': 0, 'MAX_SEQLENS_K': 0, 'VARLEN': True, 'IS_CAUSAL': True, 'BLOCK_M': 128, 'BLOCK_DMODEL': 128, 'USE_FP8': False, 'USE_FP8_OUT': False, 'BLOCK_N': 64, 'PRE_LOAD_V': False, 'BIAS_TYPE': 0, 'ENABLE_DROPOUT': False, 'RETURN_ENCODED_SOFTMAX': False, 'FP8_MIN': -448.0, 'FP8_MAX': 448.0}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS_short = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH_short = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS_short = {}                  # argument -> its layout object, made on first use
_CODE_short = {}                     # expression -> its compiled code
_DESCS_short = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED_short = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES_short = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE_short = []                   # the active driver's current device, read per launch


def _ev_short(e, bound):
    code = _CODE_short.get(e)
    if code is None:
        code = _CODE_short[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base_short:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc_short(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS_short.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS_short.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS_short[name] = eval("gl." + DESCRIPTOR_LAYOUTS_short[name])
        if len(_DESCS_short) >= 256:
            _DESCS_short.clear()
        d = _DESCS_short[key] = TensorDescriptor(_Base_short(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor_short(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc_short(name, base, shape, strides, DESCRIPTOR_BLOCKS_short[name])


def _key_short(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES_short:
        from triton import knobs
        _MODES_short.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES_short[0].instrumentation_mode, _MODES_short[1].debug, _device_short()]
    for n in KEYED_short:
        v = bound.get(n)
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif t is float:
            key.append(float)
        elif hasattr(v, "data_ptr"):
            key.append((v.dtype, v.data_ptr() % 16 == 0))
        elif hasattr(v, "base") and hasattr(v.base, "data_ptr"):          # a host descriptor
            key.append((v.base.dtype, v.base.data_ptr() % 16 == 0, tuple(v.shape), tuple(v.strides)))
        else:
            key.append(v)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _device_short():
    if not _DEVICE_short:
        from triton.runtime import driver
        _DEVICE_short.append(driver.active.get_current_device)
    return _DEVICE_short[0]()


def _decide_short(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS_short), shapes, None]


def launch_short(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS_short, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS_short})
    for k, v in CONSTEXPRS_short.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS_short)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT_short:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count_short())),)
    key = _key_short(bound, g)
    entry = _KEYED_short.get(key) if key is not None else None
    if entry is None:
        entry = _decide_short(bound)
        if key is not None:
            if len(_KEYED_short) >= 64:
                _KEYED_short.clear()
            _KEYED_short[key] = entry
    missing = [n for n in RUNTIME_short if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor_short(bound[n], n) if n in DESCRIPTOR_BLOCKS_short else bound[n] for n in RUNTIME_short]
    return _run_short(entry, g, runtime)


def _run_short(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH_short:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel_short[g](*runtime, **dict(zip(FLAGS_short, entry[0])), num_warps=NUM_WARPS_short, maxnreg=MAXNREG_short)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


_SMS_short = []


def _sm_count_short():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS_short:
        import torch
        _SMS_short.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS_short[0]


class _Config_short:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS_short), NUM_WARPS_short, None, 1
        self.maxnreg, self.pre_hook = MAXNREG_short, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel_short:
    """``kernel[grid](*args)``, as the Triton kernel is called; ``kernel.fn[grid](*args)`` as a heuristics' or an
    autotuner's wrapped function is called past them (FlagGems), ``kernel.best_config`` and ``kernel.run(*args,
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does).
    ``kernel.fallback``: the Triton kernel this one replaces, set by whoever swaps it in; a launch this kernel was not
    generated for (other constexprs, too few iterations, a pre_hook it cannot run) then runs it, counted in
    ``kernel.fallbacks``, where without it the launch is refused in one line."""

    fallback = None
    fallbacks = 0

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self._launch(grid, args, kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else self._launch(grid, args, kwargs)

    def _launch(self, grid, args, kwargs):
        try:
            return launch_short(grid, *args, **kwargs)
        except ValueError as e:
            refused = str(e).startswith("twill: ") and "missing kernel arguments" not in str(e)
            if self.fallback is None or not refused:
                raise
            self.fallbacks += 1
            return self.fallback[grid](*args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config_short()


kernel_short = _Kernel_short()


TIMED_ROUNDS = 2      # a launch key's first launch times each kernel in this many rounds, alternating,
TIMED_RUNS = 5        # of this many launches each
_TIMED = {}           # launch key -> the faster of ``launch_long`` and ``launch_short`` there


def launch(grid, *args, **kwargs):
    """Run the faster of the warp-specialized kernel and the one-partition one for this launch's key, timed on the
    key's first launch (the warp-specialized one where no timing can run: no CUDA device, a graph being captured)."""
    key = _timed_key(grid, args, kwargs)
    chosen = _TIMED.get(key) if key is not None else None
    if chosen is None:
        chosen = _timed(grid, args, kwargs)
        if key is not None and chosen is not None:
            if len(_TIMED) >= 64:
                _TIMED.clear()
            _TIMED[key] = chosen
    return (chosen or launch_long)(grid, *args, **kwargs)


def _timed_key(grid, args, kwargs):
    """The grid and every argument's shape, strides, type and alignment, or value (integers): what the two kernels'
    speeds depend on (the constexprs are the module's: none other launches); None where a part cannot be hashed.
    Read in the arguments' order, integers by their type alone: a launch pays it on the host (run 158)."""
    try:
        if callable(grid):
            bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
            bound.update(kwargs)
            grid = grid(bound)
        g = tuple(int(x) for x in grid)
    except Exception:                       # noqa: BLE001 - the launch itself says what is wrong with its grid
        return None
    names = sorted(kwargs)
    key = [g, *names]
    for v in (*args, *(kwargs[n] for n in names)):
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif hasattr(v, "data_ptr"):
            key.append((v.shape, v.stride(), v.dtype, v.data_ptr() % 16))
        elif hasattr(getattr(v, "base", None), "data_ptr"):     # a host tensor descriptor
            key.append((tuple(v.shape), tuple(v.strides), v.base.dtype, v.base.data_ptr() % 16))
        else:
            key.append(t.__name__)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _timed(grid, args, kwargs):
    """The faster launch function at these arguments, each timed with CUDA events after a first launch, behind a
    sleep on the device long enough for the host to queue every timed launch (the events then time the device's
    work, not the launches' host cost: run 157 timed vLLM's MoE so and chose the one partition, 257 TFLOP/s against
    the producer's 386 in graphs, its host path 100 us shorter), every tensor argument (a descriptor's base too)
    copied before and restored after; None where nothing can be timed now (no device, a graph being captured), the
    warp-specialized kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
    try:
        import time
        import torch
        if not torch.cuda.is_available() or torch.cuda.is_current_stream_capturing():
            return None
    except Exception:                       # noqa: BLE001 - no device to ask: not timed
        return None
    try:
        values = list(args) + list(kwargs.values())
        tensors = [v if hasattr(v, "data_ptr") else v.base for v in values
                   if hasattr(v, "data_ptr") or hasattr(getattr(v, "base", None), "data_ptr")]
        # an expanded view (a zero stride) is read only: it cannot be copied back into
        tensors = [t for t in tensors if all(st or n <= 1 for st, n in zip(t.stride(), t.shape))]
        saved = [t.clone() for t in tensors]
    except Exception:                       # noqa: BLE001 - no memory for the copies: the warp-specialized kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one partition refuses this launch: the other runs
            return launch_long
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch_long(grid, *args, **kwargs)
        launch_short(grid, *args, **kwargs)
        host = time.perf_counter() - t0     # the host's time for one launch of each, compiled
        spent = {launch_long: 0.0, launch_short: 0.0}
        for _ in range(TIMED_ROUNDS):
            for fn in spent:
                _backlog(host * TIMED_RUNS)
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(TIMED_RUNS):
                    fn(grid, *args, **kwargs)
                end.record()
                end.synchronize()
                spent[fn] += start.elapsed_time(end)
        return min(spent, key=spent.get)
    finally:
        for t, s in zip(tensors, saved):
            t.copy_(s)


def _backlog(seconds):
    """Keep the device busy for twice ``seconds`` at up to 2 GHz (capped at 50 ms): the launches queued meanwhile
    start back to back when it ends."""
    import torch
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(int(min(2 * seconds, 0.05) * 2e9))
