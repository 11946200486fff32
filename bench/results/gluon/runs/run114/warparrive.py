"""A PTX pass for generated Gluon kernels (run 114, by hand before any generator rule): a ring slot's release
by one thread after a CTA-partition barrier becomes one arrive per warp, each after that warp's own wgmma wait.

Triton 3.6 lowers ``mbarrier.arrive`` to an arrive by the partition's thread 0, and its membar pass puts a
``bar.sync`` of the partition's threads before it (every warp must be done before thread 0 speaks for them).
Where the kernel initialised the barrier with W times the count and arrives with count W (W = the partition's
warps), the pass drops that ``bar.sync`` and lets lane 0 of every warp arrive once, predicated as before minus
the thread-0 test: the same total count, and no warp waits for another. Only an arrive with count W directly
after a ``bar.sync`` of 32 W threads, predicated on the partition's thread 0 (and optionally a user predicate),
(register-only instructions between them allowed) is rewritten; any other PTX is left alone, and an unrewritten count-W arrive is still correct as written."""
import re

_TID = re.compile(r"^\s*mov\.u32\s+(%r\d+),\s*%tid\.x;")
_AND = re.compile(r"^\s*and\.b32\s+(%r\d+),\s*(%r\d+),\s*(\d+);")
_SETP0 = re.compile(r"^\s*setp\.eq\.(?:b32|s32|u32)\s+(%p\d+),\s*(%r\d+),\s*0;")
_ANDP = re.compile(r"^\s*and\.pred\s+(%p\d+),\s*(%p\d+),\s*(%p\d+);")
_BAR = re.compile(r"^\s*bar\.sync\s+\d+,\s*(\d+);")
_REG = re.compile(r"^\s*(?:and|or|xor|not|mov|setp|selp|add|sub|mul|mad|shl|shr|cvt|cvta)\.")   # register-only
_ARRIVE = re.compile(r"^(\s*)@(%p\d+) mbarrier\.arrive\.shared::cta\.b64 _, \[(%r\d+)\], (\d+);")


def rewrite(ptx: str, waits: bool = False) -> tuple[str, int]:
    """``ptx`` with each matching release rewritten, and how many were; ``waits``: also drop each ``bar.sync``
    directly before an mbarrier wait inside a loop whose body makes no generic-proxy shared-memory access (its
    only shared memory traffic is wgmma operands and mbarriers, so the barrier orders nothing a thread reads)."""
    lines = ptx.splitlines()
    tid, masked, zero, conj = set(), {}, {}, {}
    for l in lines:
        if (m := _TID.match(l)):
            tid.add(m.group(1))
        elif (m := _AND.match(l)) and m.group(2) in tid:
            masked[m.group(1)] = int(m.group(3)) + 1
        elif (m := _SETP0.match(l)):
            zero[m.group(1)] = masked.get(m.group(2), 0)
        elif (m := _ANDP.match(l)):
            conj[m.group(1)] = (m.group(2), m.group(3))
    out, n = [], 0
    for i, l in enumerate(lines):
        m = _ARRIVE.match(l)
        if not m:
            out.append(l)
            continue
        ind, pred, addr, count = m.group(1), m.group(2), m.group(3), int(m.group(4))
        j = len(out) - 1
        while j >= 0 and (not out[j].strip() or out[j].strip().startswith("//") or _REG.match(out[j])):
            j -= 1
        bar = _BAR.match(out[j]) if j >= 0 else None
        user = _user(pred, 32 * count, zero, conj)
        if not bar or int(bar.group(1)) != 32 * count or user is False:
            out.append(l)
            continue
        del out[j]
        extra = [f"{ind}and.pred %twq, %twq, {user};"] if user else []
        out += [f"{ind}{{", f"{ind}.reg .b32 %twl;", f"{ind}.reg .pred %twq;", f"{ind}mov.u32 %twl, %laneid;",
                f"{ind}setp.eq.u32 %twq, %twl, 0;", *extra,
                f"{ind}@%twq mbarrier.arrive.shared::cta.b64 _, [{addr}];", f"{ind}}}"]
        n += 1
    if waits:
        out, k = _drop_wait_barriers(out)
        n += k
    return "\n".join(out) + "\n", n


_LABEL = re.compile(r"^(\$L__\w+):")
_BRA = re.compile(r"^\s*(?:@!?%p\d+\s+)?bra(?:\.uni)?\s+(\$L__\w+);")
_GENERIC = re.compile(r"\b(?:ld\.shared|st\.shared|ldmatrix|stmatrix|cp\.async\.(?!bulk)|atom\.shared|red\.shared)")
_WAIT = re.compile(r"mbarrier\.try_wait")


def _drop_wait_barriers(lines: list[str]) -> tuple[list[str], int]:
    labels = {m.group(1): i for i, l in enumerate(lines) if (m := _LABEL.match(l))}
    loops = [(labels[m.group(1)], i) for i, l in enumerate(lines)
             if (m := _BRA.match(l)) and labels.get(m.group(1), i + 1) <= i]
    clean = [(a, b) for a, b in loops if not any(_GENERIC.search(lines[k]) for k in range(a, b + 1))]
    drop = set()
    for i, l in enumerate(lines):
        if not _BAR.match(l) or not any(a < i < b for a, b in clean):
            continue
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or lines[j].strip().startswith("//")
                                  or lines[j].strip() in ("{", ".reg .pred complete;", "waitLoop:")):
            j += 1
        if j < len(lines) and _WAIT.search(lines[j]):
            drop.add(i)
    return [l for i, l in enumerate(lines) if i not in drop], len(drop)


def _user(pred, threads, zero, conj):
    """The predicate beyond "thread 0 of ``threads``" (None: none), or False when ``pred`` is not of that form."""
    if zero.get(pred) == threads:
        return None
    a, b = conj.get(pred, (None, None))
    if zero.get(a) == threads:
        return b
    if zero.get(b) == threads:
        return a
    return False


def install(entry: str = "twill_kernel", waits: bool = False) -> None:
    """Route the PTX of kernels named ``entry`` through ``rewrite`` (Triton's stage hook, one for every entry
    registered, chaining any other hook)."""
    from triton import knobs
    hook = knobs.runtime.add_stages_inspection_hook
    if not hasattr(hook, "twill_entries"):
        prior = hook

        def hook(backend, stages, options, language, capability):
            if prior is not None:
                prior(backend, stages, options, language, capability)
            make = stages["ptx"]

            def ptx(src, metadata):
                text = make(src, metadata)
                for name, w in hook.twill_entries.items():
                    if f".entry {name}(" in text:
                        return rewrite(text, w)[0]
                return text
            stages["ptx"] = ptx
        hook.twill_entries = {}
        knobs.runtime.add_stages_inspection_hook = hook
    hook.twill_entries[entry] = waits
