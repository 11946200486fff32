"""Run 22's hand-edited FA forward (from the committed bench/results/gluon/fa3): each consumer's dots split along
the key axis, so its tensor-core work starts while its softmax still runs.

In the committed kernel each consumer waits for all of QK(j), takes the row max, exponentiates all 128 columns
(64 MUFU.EX2 per thread, the SFU's rate: ~512 cycles) and only then issues PV(j): its serial path is its own
GEMMs (1024 tensor-core cycles) plus its softmax (~1500), the measured period ~2530 against the tensor core's
2048. Here QK(j) stays one wgmma, its scores are split by registers into 2 (4) column blocks, and PV(j) is 2 (4)
chained wgmmas over V's ring buffer sliced by rows: each is issued as soon as its block of P is exponentiated, so it
runs while the next block's exp2 does. (QK split into two wgmmas as well made ptxas serialise them.) The
online-softmax arithmetic is unchanged (one row max over all 128 keys per iteration).

    python bench/results/gluon/runs/run22/mk22.py   # writes runs/run22/fa3-ksplit2/ and fa3-ksplit4/
"""
import shutil
from pathlib import Path

G = Path(__file__).resolve().parents[2]
SRC = G / "fa3"
HERE = Path(__file__).resolve().parent     # writes fa3-ksplit2/ and fa3-ksplit4/ here
src = (SRC / "kernel_gluon.py").read_text()


def step(chunks: int) -> str:
    """One iteration of a consumer's loop: QK(j) whole, its scores split by registers into ``chunks`` column
    blocks (no data moves: each thread's columns of a key block are its registers 8 * b .. 8 * b + 7), and PV(j)
    as ``chunks`` chained wgmmas, each issued as soon as its block of P is exponentiated."""
    w = 128 // chunks
    lines = [
        "@gluon.jit",
        "def twill_step(i, q_buf, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, acc, m_i, l_i, qk_scale,",
        "               FIRST: gl.constexpr):",
        f"    # one iteration of a consumer's loop, PV split along the keys into {chunks} (run 22, by hand)",
        "    mbarrier.wait(k_ready.index(i % 2), (i // 2) & 1)",
        "    kb = k_buf.index(i % 2)",
        "    tok_s = warpgroup_mma(q_buf, kb.permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L3),",
        "                          use_acc=False, is_async=True)  # dot0_qk",
        "    acc, s = warpgroup_mma_wait(0, deps=(acc, tok_s))",
        "    if not FIRST:",
        "        mbarrier.arrive(v_empty.index((i - 1) % 2))",
        "    mbarrier.arrive(k_empty.index(i % 2))",
        "    m_new = gl.maximum(m_i, gl.max(s, axis=1) * qk_scale)",
        "    alpha = gl.exp2(m_i - m_new)",
        "    acc = acc * gl.expand_dims(alpha, 1)",
    ]
    blocks, width = ["s"], 128
    while width > w:       # halve every block: s -> s_0 s_1 -> s_00 s_01 s_10 s_11 ...
        nxt = []
        for b in blocks:
            lines.append(f"    {b}_0, {b}_1 = gl.split({b}.reshape([64, 2, {width // 2}]).permute((0, 2, 1)))")
            nxt += [f"{b}_0", f"{b}_1"]
        blocks, width = nxt, width // 2
    lines += [f"    mb = gl.expand_dims(gl.convert_layout(m_new, gl.SliceLayout(1, {blocks[0]}.type.layout)), 1)",
              "    mbarrier.wait(v_ready.index(i % 2), (i // 2) & 1)",
              "    vb = v_buf.index(i % 2)"]
    ps = []
    for c, b in enumerate(blocks):
        ps.append(f"p{c}")
        lines.append(f"    p{c} = gl.exp2({b} * qk_scale - mb)")
        src = "acc" if c == 0 else "tok"
        lines.append(f"    tok = warpgroup_mma(gl.convert_layout(p{c}.to(gl.float16), LA), vb.slice({c * w}, {w}), {src},"
                     f" is_async=True)  # dot1_acc, keys {c * w}..{c * w + w - 1}")
    total = " + ".join(ps)
    lines += [f"    l_i = l_i * alpha + gl.convert_layout(gl.sum({total}, axis=1), L2)",
              f"    acc = warpgroup_mma_wait({chunks}, deps=(tok,))",
              "    return acc, m_new, l_i", "", ""]
    return "\n".join(lines)


BODY = '''        m_i = gl.full([64], float("-inf"), gl.float32, layout=L2)
        l_i = gl.full([64], 1.0, gl.float32, layout=L2)
        acc = gl.full([64, 128], 0.0, gl.float32, layout=L3)
        acc, m_i, l_i = twill_step(twill_base, Q_BUF, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, acc, m_i, l_i,
                                   qk_scale, True)
        for twill_b in range(1, twill_n):
            acc, m_i, l_i = twill_step(twill_base + twill_b, Q_BUF, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty,
                                       acc, m_i, l_i, qk_scale, False)
        acc = warpgroup_mma_wait(0, deps=(acc,))
        mbarrier.arrive(v_empty.index((twill_base + twill_n - 1) % 2))
        mbarrier.arrive(Q_FREE.index(0))
        m_i_22_tT = m_i + gl.log2(l_i)
        acc_24_tT = acc / gl.expand_dims(l_i, 1)
'''


def rewrite(text: str, t: str, q_buf: str, q_free: str) -> str:
    """Replace consumer t's loop (from its first m_ij init to the acc_24 line) with the split-key steps."""
    start = text.index(f"        m_ij_34_t{t} = gl.full(")
    end_line = f"        acc_24_t{t} = "
    end = text.index("\n", text.index(end_line, start)) + 1
    body = BODY.replace("Q_BUF", q_buf).replace("Q_FREE", q_free).replace("tT", f"t{t}")
    return text[:start] + body + text[end:]


for chunks in (2, 4):
    out = rewrite(src, "0", "q_c0_t0_buf", "q_c0_t0_free")
    out = rewrite(out, "1", "q_c1_t1_buf", "q_c1_t1_free")
    layouts = "LA = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=L3, k_width=2))\n\n"
    out = out.replace("\n@gluon.jit\ndef consumer_0", "\n" + layouts + step(chunks) + "@gluon.jit\ndef consumer_0", 1)
    out = out.replace('"""_attn_fwd, written by twill',
                      f'"""_attn_fwd (run 22: each consumer\'s PV split along the keys into {chunks} by hand), written by twill', 1)
    d = HERE / f"fa3-ksplit{chunks}"
    d.mkdir(exist_ok=True)
    (d / "kernel_gluon.py").write_text(out)
    for name in ("variant.json", "gluon.json"):
        shutil.copy(SRC / name, d / name)
    print("wrote", d / "kernel_gluon.py")
