"""favor_kv_state_kernel, written by twill from its joint schedule: I=202 L=380 (optimal), 1409 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, in their readers' stage; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 235 per thread)
- staged operand k_58_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot0_data_dash (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand acc_kv_75_st: partition 0 stores the [64, 128] f16 tile once per iteration in shared memory, read there by dot1_acc_kv (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- shared operand v_55_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 57360 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k_ptr, v_ptr, w_ptr, kv_ptr, ksum_ptr, N, stride_kb, stride_kn, stride_vb, stride_vn, data_normalizer, ratio):
    pid_bh = gl.program_id(0)
    offs_n = gl.arange(0, 64, layout=L0)
    offs_n_6 = gl.arange(0, 64, layout=L1)
    offs_m = gl.arange(0, 128, layout=L2)
    w_7 = gl.arange(0, 64, layout=L3)
    w_8 = gl.expand_dims(w_7, 1)
    w_9 = w_8 * 128
    w_11 = w_ptr + w_9
    w_12 = gl.arange(0, 128, layout=L4)
    w_13 = gl.expand_dims(w_12, 0)
    w_14 = w_11.broadcast_to([64, 128])
    w_15 = w_13.broadcast_to([64, 128])
    w_16 = w_14 + w_15
    w_17 = gl.load(w_16)
    w_18 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), w_17)
    fence_async_shared()
    k_base = gl.cast(pid_bh, gl.int64)
    k_base_19 = gl.cast(stride_kb, gl.int64)
    k_base_20 = k_base * k_base_19
    k_base_21 = k_ptr + k_base_20
    v_base = gl.cast(stride_vb, gl.int64)
    v_base_22 = k_base * v_base
    v_base_23 = v_ptr + v_base_22
    k_26 = gl.arange(0, 64, layout=L5)
    k_27 = gl.expand_dims(k_26, 0)
    k_28 = k_27.broadcast_to([64, 64])
    twill_n = (N - 0 + 64 - 1) // 64
    k_58_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    acc_kv_75_st = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout.get_default_for([64, 128], gl.float16))
    v_55_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    m_new_68 = float("-inf")
    m_new_68_p1 = m_new_68
    acc_kv_78 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
    acc_ks_82 = gl.full([128], 0.0, gl.float32, layout=L7)
    n_37 = (0 + (0 - 0) * 64) + offs_n  # load0_k: stage 0, partition 0 (group 0)
    k_43 = gl.expand_dims(n_37, 1)  # load0_k: stage 0, partition 0 (group 0)
    k_44 = k_43 * stride_kn  # load0_k: stage 0, partition 0 (group 0)
    n_mask_39 = n_37 < N  # load0_k: stage 0, partition 0 (group 0)
    k_45 = k_base_21 + k_44  # load0_k: stage 0, partition 0 (group 0)
    k_41 = gl.expand_dims(n_mask_39, 1)  # load0_k: stage 0, partition 0 (group 0)
    k_46 = k_45.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
    k_47 = k_46 + k_28  # load0_k: stage 0, partition 0 (group 0)
    k_48 = k_41.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
    k_49 = gl.load(k_47, mask=k_48, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
    k_56 = k_49.to(gl.float32)  # convert0_k: stage 0, partition 0 (group 0)
    k_57 = k_56 * data_normalizer  # elementwise1_k: stage 0, partition 0 (group 0)
    k_58 = k_57.to(gl.float16)  # convert1_k: stage 0, partition 0 (group 0)
    kf = k_58.to(gl.float32)  # convert3_kf: stage 0, partition 0 (group 0)
    diag = kf * kf  # elementwise2_diag: stage 0, partition 0 (group 0)
    diag_60 = gl.sum(diag, axis=1)  # reduce0_diag: stage 0, partition 0 (group 0)
    k_58_st.store(k_58)  # dot0_data_dash: stage 0, partition 0 (group 0)
    fence_async_shared()  # dot0_data_dash: stage 0, partition 0 (group 0)
    tok_data_dash = warpgroup_mma(k_58_st, w_18, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_data_dash: stage 0, partition 0 (group 0)
    diag_61 = diag_60 * 0.5  # elementwise3_diag: stage 0, partition 0 (group 0)
    x = gl.expand_dims(diag_61, 1)  # convert4_x: stage 0, partition 0 (group 0)
    x_62 = gl.convert_layout(x, L8)  # convert4_x: stage 0, partition 0 (group 0)
    n_38 = (0 + (0 - 0) * 64) + offs_n_6  # elementwise0_x: stage 0, partition 0 (group 0)
    n_mask_40 = n_38 < N  # elementwise0_x: stage 0, partition 0 (group 0)
    k_42 = gl.expand_dims(n_mask_40, 1)  # elementwise0_x: stage 0, partition 0 (group 0)
    x_63 = x_62.broadcast_to([64, 128])  # elementwise0_x: stage 0, partition 0 (group 0)
    data_dash = warpgroup_mma_wait(0, deps=(tok_data_dash,))
    x_64 = data_dash - x_63  # elementwise0_x: stage 0, partition 0 (group 0)
    x_65 = k_42.broadcast_to([64, 128])  # elementwise0_x: stage 0, partition 0 (group 0)
    x_66 = gl.where(x_65, x_64, float("-inf"))  # elementwise0_x: stage 0, partition 0 (group 0)
    m_new = gl.max(x_66, axis=1)  # reduce1_m_new: stage 0, partition 0 (group 0)
    m_new_67 = gl.max(m_new, axis=0)  # reduce2_m_new: stage 0, partition 0 (group 0)
    m_new_68 = gl.maximum(m_new_68_p1, m_new_67)  # elementwise4_m_new: stage 0, partition 0 (group 0)
    phi_70 = m_new_68  # sfu1_phi: stage 0, partition 0 (group 0)
    phi_71 = x_66 - phi_70  # sfu1_phi: stage 0, partition 0 (group 0)
    phi_72 = gl.exp(phi_71)  # sfu1_phi: stage 0, partition 0 (group 0)
    acc_ks_82_p1 = acc_ks_82
    acc_kv_78_p1 = acc_kv_78
    k_43_p1 = k_43
    k_48_p1 = k_48
    m_new_68_p2 = m_new_68_p1
    m_new_68_p1 = m_new_68
    phi_72_p1 = phi_72
    for twill_b in range(1, twill_n):
        n = (0 + (twill_b - 0) * 64)  # load0_k: stage 0, partition 0 (group 0)
        n_37 = n + offs_n  # load0_k: stage 0, partition 0 (group 0)
        k_43 = gl.expand_dims(n_37, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_44 = k_43 * stride_kn  # load0_k: stage 0, partition 0 (group 0)
        n_mask_39 = n_37 < N  # load0_k: stage 0, partition 0 (group 0)
        k_45 = k_base_21 + k_44  # load0_k: stage 0, partition 0 (group 0)
        k_41 = gl.expand_dims(n_mask_39, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_46 = k_45.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_47 = k_46 + k_28  # load0_k: stage 0, partition 0 (group 0)
        k_48 = k_41.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_49 = gl.load(k_47, mask=k_48, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
        k_56 = k_49.to(gl.float32)  # convert0_k: stage 0, partition 0 (group 0)
        k_57 = k_56 * data_normalizer  # elementwise1_k: stage 0, partition 0 (group 0)
        k_58 = k_57.to(gl.float16)  # convert1_k: stage 0, partition 0 (group 0)
        kf = k_58.to(gl.float32)  # convert3_kf: stage 0, partition 0 (group 0)
        diag = kf * kf  # elementwise2_diag: stage 0, partition 0 (group 0)
        alpha = m_new_68_p2 - m_new_68_p1  # sfu0_alpha: stage 1, partition 0 (group 0)
        diag_60 = gl.sum(diag, axis=1)  # reduce0_diag: stage 0, partition 0 (group 0)
        alpha_69 = gl.exp(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
        acc_kv = alpha_69  # elementwise6_acc_kv: stage 1, partition 0 (group 0)
        acc_kv_78_p1 = warpgroup_mma_wait(0, deps=(acc_kv_78_p1,))
        acc_kv_74 = acc_kv_78_p1 * acc_kv  # elementwise6_acc_kv: stage 1, partition 0 (group 0)
        k_58_st.store(k_58)  # dot0_data_dash: stage 0, partition 0 (group 0)
        fence_async_shared()  # dot0_data_dash: stage 0, partition 0 (group 0)
        tok_data_dash = warpgroup_mma(k_58_st, w_18, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_data_dash: stage 0, partition 0 (group 0)
        phi_73 = phi_72_p1 * ratio  # elementwise5_phi: stage 1, partition 0 (group 0)
        acc_ks_81 = gl.sum(phi_73, axis=0)  # reduce3_acc_ks: stage 1, partition 0 (group 0)
        acc_kv_75 = phi_73.to(gl.float16)  # convert5_acc_kv: stage 1, partition 0 (group 0)
        diag_61 = diag_60 * 0.5  # elementwise3_diag: stage 0, partition 0 (group 0)
        x = gl.expand_dims(diag_61, 1)  # convert4_x: stage 0, partition 0 (group 0)
        x_62 = gl.convert_layout(x, L8)  # convert4_x: stage 0, partition 0 (group 0)
        n_36 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
        n_38 = n_36 + offs_n_6  # elementwise0_x: stage 0, partition 0 (group 0)
        n_mask_40 = n_38 < N  # elementwise0_x: stage 0, partition 0 (group 0)
        k_42 = gl.expand_dims(n_mask_40, 1)  # elementwise0_x: stage 0, partition 0 (group 0)
        x_63 = x_62.broadcast_to([64, 128])  # elementwise0_x: stage 0, partition 0 (group 0)
        data_dash = warpgroup_mma_wait(0, deps=(tok_data_dash,))
        x_64 = data_dash - x_63  # elementwise0_x: stage 0, partition 0 (group 0)
        x_65 = k_42.broadcast_to([64, 128])  # elementwise0_x: stage 0, partition 0 (group 0)
        x_66 = gl.where(x_65, x_64, float("-inf"))  # elementwise0_x: stage 0, partition 0 (group 0)
        m_new = gl.max(x_66, axis=1)  # reduce1_m_new: stage 0, partition 0 (group 0)
        v_50 = k_43_p1 * stride_vn  # load1_v: stage 1, partition 0 (group 0)
        v_51 = v_base_23 + v_50  # load1_v: stage 1, partition 0 (group 0)
        v_52 = v_51.broadcast_to([64, 64])  # load1_v: stage 1, partition 0 (group 0)
        v_53 = v_52 + k_28  # load1_v: stage 1, partition 0 (group 0)
        v_54 = gl.load(v_53, mask=k_48_p1, other=0.0)  # load1_v: stage 1, partition 0 (group 0)
        v_55 = v_55_st.index((twill_b - 1) % 2)  # load1_v: stage 1, partition 0 (group 0)
        v_55.store(v_54)  # load1_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
        acc_kv_75_st.store(acc_kv_75)  # dot1_acc_kv: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_acc_kv: stage 1, partition 0 (group 0)
        tok_acc_kv_78 = warpgroup_mma(acc_kv_75_st.permute((1, 0)), v_55, acc_kv_74, is_async=True)  # dot1_acc_kv: stage 1, partition 0 (group 0)
        m_new_67 = gl.max(m_new, axis=0)  # reduce2_m_new: stage 0, partition 0 (group 0)
        acc_ks_79 = alpha_69  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
        acc_ks_80 = acc_ks_82_p1 * acc_ks_79  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
        acc_ks_82 = acc_ks_80 + acc_ks_81  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
        m_new_68 = gl.maximum(m_new_68_p1, m_new_67)  # elementwise4_m_new: stage 0, partition 0 (group 0)
        phi_70 = m_new_68  # sfu1_phi: stage 0, partition 0 (group 0)
        phi_71 = x_66 - phi_70  # sfu1_phi: stage 0, partition 0 (group 0)
        phi_72 = gl.exp(phi_71)  # sfu1_phi: stage 0, partition 0 (group 0)
        acc_kv_78 = warpgroup_mma_wait(1, deps=(tok_acc_kv_78,))
        acc_ks_82_p1 = acc_ks_82
        acc_kv_78_p1 = acc_kv_78
        k_43_p1 = k_43
        k_48_p1 = k_48
        m_new_68_p2 = m_new_68_p1
        m_new_68_p1 = m_new_68
        phi_72_p1 = phi_72
    alpha = m_new_68_p2 - m_new_68_p1  # sfu0_alpha: stage 1, partition 0 (group 0)
    alpha_69 = gl.exp(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
    acc_kv = alpha_69  # elementwise6_acc_kv: stage 1, partition 0 (group 0)
    acc_kv_78_p1 = warpgroup_mma_wait(0, deps=(acc_kv_78_p1,))
    acc_kv_74 = acc_kv_78_p1 * acc_kv  # elementwise6_acc_kv: stage 1, partition 0 (group 0)
    phi_73 = phi_72_p1 * ratio  # elementwise5_phi: stage 1, partition 0 (group 0)
    acc_ks_81 = gl.sum(phi_73, axis=0)  # reduce3_acc_ks: stage 1, partition 0 (group 0)
    acc_kv_75 = phi_73.to(gl.float16)  # convert5_acc_kv: stage 1, partition 0 (group 0)
    v_50 = k_43_p1 * stride_vn  # load1_v: stage 1, partition 0 (group 0)
    v_51 = v_base_23 + v_50  # load1_v: stage 1, partition 0 (group 0)
    v_52 = v_51.broadcast_to([64, 64])  # load1_v: stage 1, partition 0 (group 0)
    v_53 = v_52 + k_28  # load1_v: stage 1, partition 0 (group 0)
    v_54 = gl.load(v_53, mask=k_48_p1, other=0.0)  # load1_v: stage 1, partition 0 (group 0)
    v_55 = v_55_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_v: stage 1, partition 0 (group 0)
    v_55.store(v_54)  # load1_v: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
    acc_kv_75_st.store(acc_kv_75)  # dot1_acc_kv: stage 1, partition 0 (group 0)
    fence_async_shared()  # dot1_acc_kv: stage 1, partition 0 (group 0)
    tok_acc_kv_78 = warpgroup_mma(acc_kv_75_st.permute((1, 0)), v_55, acc_kv_74, is_async=True)  # dot1_acc_kv: stage 1, partition 0 (group 0)
    acc_ks_79 = alpha_69  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
    acc_ks_80 = acc_ks_82_p1 * acc_ks_79  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
    acc_ks_82 = acc_ks_80 + acc_ks_81  # elementwise7_acc_ks: stage 1, partition 0 (group 0)
    acc_kv_78 = warpgroup_mma_wait(1, deps=(tok_acc_kv_78,))
    acc_ks_82_p1 = acc_ks_82
    acc_kv_78_p1 = acc_kv_78
    k_43_p1 = k_43
    k_48_p1 = k_48
    m_new_68_p2 = m_new_68_p1
    m_new_68_p1 = m_new_68
    phi_72_p1 = phi_72
    acc_kv_78_p1 = warpgroup_mma_wait(0, deps=(acc_kv_78_p1,))
    k_58_st._keep_alive()
    w_18._keep_alive()
    acc_kv_75_st._keep_alive()
    v_55_st._keep_alive()
    kv_base_32 = k_base * 8192
    kv_base_33 = kv_ptr + kv_base_32
    v0 = gl.arange(0, 128, layout=L9)
    v1 = gl.expand_dims(v0, 1)
    v2 = v1 * 64
    v4 = kv_base_33 + v2
    v5 = gl.arange(0, 64, layout=L10)
    v6 = gl.expand_dims(v5, 0)
    v7 = v4.broadcast_to([128, 64])
    v8 = v6.broadcast_to([128, 64])
    v9 = v7 + v8
    v10 = gl.convert_layout(acc_kv_78_p1, L11)
    gl.store(v9, v10)
    v11 = k_base * 128
    v12 = ksum_ptr + v11
    v14 = v12 + offs_m
    v15 = gl.convert_layout(acc_ks_82_p1, L2)
    gl.store(v14, v15)

@gluon.jit
def twill_kernel(k_ptr, v_ptr, w_ptr, kv_ptr, ksum_ptr, N, stride_kb, stride_kn, stride_vb, stride_vn, data_normalizer, ratio):
    consumer_0(k_ptr, v_ptr, w_ptr, kv_ptr, ksum_ptr, N, stride_kb, stride_kn, stride_vb, stride_vn, data_normalizer, ratio, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k_ptr', 'v_ptr', 'w_ptr', 'kv_ptr', 'ksum_ptr', 'N', 'stride_kb', 'stride_kn', 'stride_vb', 'stride_vn', 'data_normalizer', 'ratio', 'D', 'M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['k_ptr', 'v_ptr', 'w_ptr', 'kv_ptr', 'ksum_ptr', 'N', 'stride_kb', 'stride_kn', 'stride_vb', 'stride_vn', 'data_normalizer', 'ratio']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k_ptr', 'v_ptr', 'w_ptr', 'kv_ptr', 'ksum_ptr', 'N', 'stride_kb', 'stride_kn', 'stride_vb', 'stride_vn', 'data_normalizer', 'ratio']   # the arguments a launch key reads
CONSTEXPRS = {'D': 64, 'M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
    trips = _ev('(N + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 64 - 1) // 64): run the Triton kernel for it")
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch(grid, *args, **kwargs):
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
