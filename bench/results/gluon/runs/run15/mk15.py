"""run 15: the FA backward's dQ split along the head dimension (FA3's split), hand-edited from the committed kernel."""
import json, re
from pathlib import Path
G = Path("bench/results/gluon"); R = G / "runs/run15"
src = (G / "fa_bwd/kernel_gluon.py").read_text()
blk = "gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])"
# the dQ conversion's layout (L7 in this kernel: the compact loads' layouts come first)
src = re.sub(r"L7 = gl.constexpr\(.*\)\n", f"L7 = gl.constexpr({blk})\n", src, count=1)
src = re.sub(r"L2 = gl.constexpr\(.*\)\n", f"L2 = gl.constexpr(gl.SliceLayout(1, {blk}))\n", src, count=1)
src = re.sub(r"L3 = gl.constexpr\(.*\)\n", f"L3 = gl.constexpr(gl.SliceLayout(0, {blk}))\n", src, count=1)
# partitions and kernel get the two barrier arrays
src = src.replace("v_c1_t1_bar, v_c1_t1_free):", "v_c1_t1_bar, v_c1_t1_free, dsT_ready, dsT_free):")
src = src.replace("v_c1_t1_bar, v_c1_t1_free)),", "v_c1_t1_bar, v_c1_t1_free, dsT_ready, dsT_free)),")
alloc = """    dsT_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(dsT_ready.index(i), count=1)
    dsT_free = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(dsT_free.index(i), count=1)
    gl.warp_specialize(["""
src = src.replace("    gl.warp_specialize([", alloc, 1)

parts = re.split(r"(?m)^(?=@gluon\.jit\n)", src)
out = []
for part in parts:
    m = re.search(r"def consumer_(\d)\(", part)
    if not m:
        out.append(part); continue
    c = int(m.group(1)); o = 1 - c
    lines = part.splitlines(keepends=True)
    res = []
    i = 0
    while i < len(lines):
        l = lines[i]
        ind = l[:len(l) - len(l.lstrip())]
        if "dq_offs_38 = gl.arange(0, 128, layout=L3)" in l:
            l = l.replace("gl.arange(0, 128, layout=L3)", f"gl.arange(0, 64, layout=L3) + {c * 64}")
        if l.lstrip().startswith(("dq_offs_40", "dq_offs_41")):
            l = l.replace("broadcast_to([64, 128])", "broadcast_to([64, 64])")
        if f"dsT_66_st_t{c}.store(dsT_66_t{c})" in l:
            # the iteration index of this store: the q ring index of the dk wgmma that follows it
            j = next(k for k in range(i, i + 12) if f"tok_dk_t{c} = warpgroup_mma" in lines[k])
            it = re.search(r"q_44_buf\.index\((.*)\) % 2\)", lines[j]).group(1) + ")"
            res.append(f"{ind}mbarrier.wait(dsT_free.index({c}), (({it}) & 1) ^ 1)  # the other consumer read my dS^T of the iteration before\n")
            res.append(l)
            res.append(lines[i + 1])           # fence_async_shared()
            assert "fence_async_shared" in lines[i + 1]
            res.append(f"{ind}mbarrier.arrive(dsT_ready.index({c}))  # my dS^T is in shared memory\n")
            i += 2
            cur_it = it
            continue
        if f"tok_dq_69_t{c} = warpgroup_mma(" in l:
            new = (f"{ind}tok_dq_69_t{c} = warpgroup_mma(dsT_66_st_t{c}.permute((1, 0)), k_c{c}_t{c}_buf.slice({c * 64}, 64, dim=1), "
                   f"gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq: my keys, head dims {c * 64}..{c * 64 + 63}\n"
                   f"{ind}mbarrier.wait(dsT_ready.index({o}), ({cur_it}) & 1)\n"
                   f"{ind}tok_dq_69_t{c} = warpgroup_mma(dsT_66_st_t{o}.permute((1, 0)), k_c{o}_t{o}_buf.slice({c * 64}, 64, dim=1), "
                   f"tok_dq_69_t{c}, is_async=True)  # dot4_dq: the other consumer's keys\n")
            res.append(new); i += 1; continue
        if re.match(rf"\s*dq_69_t{c} = warpgroup_mma_wait", l):
            res.append(l)
            res.append(f"{ind}mbarrier.arrive(dsT_free.index({o}))  # done reading the other consumer's dS^T\n")
            i += 1; continue
        if f"k_c{c}_t{c}_buf.store(" in l:
            res.append(f"{ind}mbarrier.wait(dsT_free.index({c}), (twill_base + twill_n - 1) & 1)  # the other consumer's last dQ read of my K and dS^T retired\n")
        res.append(l); i += 1
    out.append("".join(res))
src = "".join(out)
src = src.replace('"""_attn_bwd, written by twill', '"""HAND-EDITED (run 15): dQ split along the head dimension across the two consumers (FA3), from _attn_bwd written by twill', 1)
d = R / "fa_bwd-dq-split"; d.mkdir(exist_ok=True)
(d / "kernel_gluon.py").write_text(src)
(d / "variant.json").write_text(json.dumps({"label": "fa_bwd-dq-split", "kernel_file": "kernels/fa_bwd.py", "jit": "_attn_bwd",
  "command": "hand-edited from bench/results/gluon/fa_bwd (runs/run15/mk15.py, on the compact-load kernel): each consumer computes dQ for half the head dimension over both consumers' keys (two chained wgmmas, the other's dS^T read through shared memory behind dsT_ready / dsT_free barriers) and adds a [64, 64] partial: half the atomics, half dQ's registers (FlashAttention-3's split)"}, indent=1) + "\n")
