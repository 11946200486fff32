"""A kernel's specialisation: the argument types, constexpr values and launch options it is compiled with.

Where it comes from, first found first (flags override each field):

1. a spec file captured from a real launch (``twill capture -- python script.py`` on a GPU machine,
   read with ``--spec FILE``): every kernel Triton compiled, with its signature, constexprs,
   ``num_warps`` and ``num_stages``, the file and function;
2. ``TWILL_SPEC`` in the kernel file::

       TWILL_SPEC = {
           "kernel": "_attn_fwd",                       # which @triton.jit function (optional)
           "signature": {"q_ptr": "*fp16", "N": "i32",  # Triton's type strings: *fp16, i32, i64, fp32,
                         "desc": "tensordesc<fp16[128, 64]>"},   # tensordesc<...>, constexpr
           "constexprs": {"BLOCK_M": 128, "DTYPE": "fp16"},      # dtypes as Triton names (fp16, bf16)
           "num_warps": 8, "num_stages": 3,
           "divisibility": ["N"],                       # integer args divisible by 16 (or "N": "i32:16")
           "arch": {"b200": {"num_warps": 4}},          # per-GPU overrides of any field above
           "configs": [{"name": "small", "constexprs": {"BLOCK_M": 64}}],   # for `twill regen`
       }

3. the first ``@triton.autotune`` config (its constexprs, ``num_warps``, ``num_stages``; beside a TWILL_SPEC, what
   the spec leaves out);
4. flags: ``--arg NAME=TYPE``, ``--const NAME=VALUE`` (``--const DTYPE=fp16`` or ``tl.float16`` for a
   dtype), ``--num-warps``. A flag naming no parameter of the kernel is an error.

Divisibility, as Triton's launcher specialises it: a pointer argument is taken as 16-byte aligned (every tensor
torch allocates is; Triton's JIT specialises on it at each launch), unless a captured launch says otherwise; an
integer is divisible by 16 only where the spec says so (``"divisibility": ["N"]``, or the type ``"i32:16"``, also
as ``--arg N=i32:16``; ``--arg N=i32`` says it is not): offline, twill cannot see the value a launch will pass. The layouts Triton derives from it
(16-byte vectors on a row of contiguous elements) are the ones the kernel gets at run time, and what twill
schedules and writes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twill.errors import InputError
from twill.util import sha256

SPEC_SCHEMA = "twill.spec/1"
# How ``--spec FILE`` travels inside ``--arg``'s pairs (``twill.commands.common.SpecAction``).
SPEC_ARG = "@spec"


@dataclass(frozen=True)
class KernelSpec:
    """A kernel specialisation: the JIT function and what ``triton.compile`` needs besides it.

    ``fn`` is the ``JITFunction`` (autotune/heuristics wrappers removed); ``where`` names the file
    for error messages; ``notes`` say what loading skipped or chose (a decorator that could not be
    evaluated offline, the captured config used).
    """

    name: str
    signature: dict[str, str]
    constexprs: dict[str, Any]
    num_warps: int = 4
    num_stages: int = 3
    divisibility: tuple[str, ...] = ()
    # integer arguments the Gluon back end's kernel was written as if 16-divisible (``frontend.widened``), not known so
    assumed: tuple[str, ...] = ()
    extra_options: dict[str, Any] = field(default_factory=dict)
    fn: Any = field(default=None, compare=False, repr=False)
    where: str = ""
    notes: tuple[str, ...] = ()

    @property
    def options(self) -> dict[str, Any]:
        """Compile options for ``triton.compile``."""
        return {"num_warps": self.num_warps, "num_stages": self.num_stages, **self.extra_options}


def base_fn(obj: Any) -> Any:
    """The ``JITFunction`` under any autotune/heuristics wrappers."""
    from triton.runtime.jit import JITFunction

    while not isinstance(obj, JITFunction) and hasattr(obj, "fn"):
        obj = obj.fn
    return obj


def _dtype(v: str) -> Any:
    """The ``triton.language`` dtype a string names (``tl.float16``, ``float16``, ``fp16``), else None."""
    import triton.language as tl

    name = v.split(".", 1)[1] if v.startswith(("tl.", "triton.language.")) else v
    name = name.rsplit(".", 1)[-1]
    obj = getattr(tl, name, None)
    if isinstance(obj, tl.dtype):
        return obj
    try:
        return tl.dtype(name) if name in tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES + tl.dtype.FP_TYPES else None
    except (AssertionError, ValueError, TypeError):
        return None


def parse_value(v: str) -> Any:
    """A ``--const`` value: int, float, True/False, None, a Triton dtype (``fp16``, ``tl.bfloat16``), else the string."""
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    if v in ("True", "False"):
        return v == "True"
    if v == "None":            # an optional argument launched as None (a pointer Triton specialises away)
        return None
    dt = _dtype(v)
    return dt if dt is not None else v


def json_safe(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with what JSON cannot hold (a dtype) as its Triton name (``fp16``)."""
    return {k: v if isinstance(v, (int, float, bool, str)) or v is None else str(v) for k, v in values.items()}


def _check_names(kind: str, given: dict[str, Any], params: list[str], where: str) -> None:
    unknown = [k for k in given if k not in params]
    if unknown:
        raise InputError(f"{kind} names no parameter of the kernel", where=where,
                         expected="one of " + ", ".join(params), found=", ".join(unknown))


def _from_sources(mod: Any, name: str, fn: Any, arch: str, captured: dict | None) -> tuple[dict, dict, int, int,
                                                                                             tuple, str | None]:
    """(signature, constexprs, num_warps, num_stages, divisibility, source) from a captured launch,
    else TWILL_SPEC (with its per-arch overrides; the first autotune config for the constexprs and launch options it
    leaves out), else the first autotune config."""
    spec = getattr(mod, "TWILL_SPEC", None)
    if captured is not None:
        return (dict(captured.get("signature", {})), {k: _revive(v) for k, v in captured.get("constexprs", {}).items()},
                int(captured.get("num_warps", 4)), int(captured.get("num_stages", 3)),
                tuple(captured.get("divisibility", ())), "captured")
    configs = getattr(fn, "configs", None)
    if isinstance(spec, dict) and spec.get("kernel", name) == name:
        merged = dict(spec)
        merged.update(dict(spec.get("arch", {})).get(arch, {}))
        consts = {k: _revive(v) for k, v in merged.get("constexprs", {}).items()}
        warps, stages = merged.get("num_warps"), merged.get("num_stages")
        if configs:       # a spec giving the signature only: the first autotune config fills in what it leaves out
            consts = {**dict(configs[0].kwargs), **consts}
            warps = warps if warps is not None else configs[0].num_warps
            stages = stages if stages is not None else configs[0].num_stages
        return (dict(merged.get("signature", {})), consts, warps or 4, stages or 3,
                tuple(merged.get("divisibility", ())), "TWILL_SPEC")
    if configs:
        cfg = configs[0]
        return {}, dict(cfg.kwargs), cfg.num_warps or 4, cfg.num_stages or 3, (), "autotune"
    return {}, {}, 4, 3, (), None


def _revive(v: Any) -> Any:
    """A constexpr read from JSON or TWILL_SPEC: a dtype name becomes the dtype."""
    return parse_value(v) if isinstance(v, str) else v


def make_spec(mod: Any, name: str, fn: Any, arch: str, args: dict[str, str] | None = None,
              consts: dict[str, str] | None = None, num_warps: int | None = None, where: str = "",
              captured: dict | None = None, notes: tuple[str, ...] = ()) -> KernelSpec:
    """The specialisation: a captured launch, else TWILL_SPEC (with its ``arch`` overrides), else the
    first @triton.autotune config; flags override each (see the module docstring).

    Examples
    --------
    >>> spec = make_spec(mod, "_attn_fwd", fn, "h100")    # doctest: +SKIP
    >>> spec.num_warps, spec.constexprs["BLOCK_M"]         # doctest: +SKIP
    (8, 128)
    """
    jf = base_fn(fn)
    arg_names: list[str] = list(jf.arg_names)
    constexpr_names = {p.name for p in jf.params if p.is_constexpr}
    label = f"{where}: {name}" if where else name
    _check_names("--arg", args or {}, arg_names, label)
    _check_names("--const", consts or {}, arg_names, label)
    signature, constexprs, warps, stages, div, source = _from_sources(mod, name, fn, arch, captured)
    signature.update(args or {})
    div = divisible(signature, tuple(a for a in div if a not in (args or {})), pointers=source != "captured",
                    where=label)
    for k, t in (args or {}).items():   # a type given on the command line: a run-time argument, whatever the spec said
        if t != "constexpr":
            constexprs.pop(k, None)
    constexprs.update({k: parse_value(v) for k, v in (consts or {}).items()})
    for k in consts or {}:     # a run-time argument given a value: specialised to it, as Triton's launcher does an
        signature[k] = "constexpr"      # integer equal to 1 (a unit stride: the layouts' fastest dimension)
    if num_warps is not None:
        warps = num_warps
    for c in constexpr_names:
        signature[c] = "constexpr"
    for a in arg_names:        # a run-time argument the spec gave a value (None for an optional pointer, as a launch
        if a not in signature and a in constexprs:       # passing None specialises it): a constexpr, as --const does
            signature[a] = "constexpr"
    for a, d in zip(arg_names, jf.params):
        if a in constexpr_names and a not in constexprs and getattr(d, "has_default", False):
            constexprs[a] = d.default
    missing_args = [a for a in arg_names if a not in signature]
    missing_consts = [a for a in arg_names if signature.get(a) == "constexpr" and a not in constexprs]
    if missing_args or missing_consts:
        parts = []
        if missing_args:
            parts.append(f"argument types for {', '.join(missing_args)} (--arg NAME=TYPE, e.g. --arg x=*fp16)")
        if missing_consts:
            parts.append(f"constexpr values for {', '.join(missing_consts)} (--const NAME=VALUE)")
        hint = "; ".join([n for n in notes if "autotune" in n or "decorator" in n]
                         + list(getattr(mod, "__twill_unread_spec__", None) or [])) or None
        raise InputError("kernel specialisation incomplete", where=label,
                         expected="a spec captured from a launch (--spec FILE), TWILL_SPEC, @triton.autotune "
                                  "configs or flags", found="missing " + "; ".join(parts), hint=hint)
    notes = tuple(notes) + _autotuned_note(fn, name, source, constexprs, int(warps), int(stages),
                                           bool(consts) or num_warps is not None)
    return KernelSpec(name=name, signature={a: signature[a] for a in arg_names},
                      constexprs={k: constexprs[k] for k in arg_names if k in constexprs},
                      num_warps=int(warps), num_stages=int(stages), divisibility=div, fn=jf, where=where,
                      notes=notes)


def _autotuned_note(fn: Any, name: str, source: str | None, constexprs: dict[str, Any], warps: int,
                    stages: int, flags: bool) -> tuple[str, ...]:
    """For a kernel autotuned over several configs and compiled at one not captured from a launch: that the
    autotuner's choice, which only a launch on the GPU knows, may be another, and how to compile that one."""
    configs = getattr(fn, "configs", None)
    if source == "captured" or not configs or len(configs) < 2:
        return ()
    keys = list(dict.fromkeys(k for c in configs for k in c.kwargs))
    at = ", ".join(f"{k}={constexprs[k]}" for k in keys if k in constexprs)
    return (f"{name} is autotuned over {len(configs)} configs; compiled at {at + ', ' if at else ''}num_warps={warps}, "
            f"num_stages={stages} ({'TWILL_SPEC' if source == 'TWILL_SPEC' else 'the first config'}"
            f"{' and the flags' if flags else ''}), which need not "
            "be the autotuner's choice on the GPU (run 97, H200: bitsandbytes' int8 GEMM, Triton's own kernel, 519 "
            "TOP/s at its first config, 1057 at its autotuner's): `twill capture -o spec.json -- python LAUNCH.py` "
            "on the GPU records the choice, `--spec spec.json` compiles it",)


DIVISIBLE_SUFFIX = ":16"    # ``i32:16``: an integer argument a launch passes divisible by 16


def divisible_type(t: str) -> bool:
    """Whether a signature type can carry Triton's divisibility: an integer or a pointer."""
    return t.startswith("*") or t.lstrip("iu").isdigit()


def divisible(signature: dict[str, str], listed: tuple[str, ...], pointers: bool,
              where: str = "") -> tuple[str, ...]:
    """The arguments compiled as divisible by 16: ``listed``, those typed ``T:16`` (the suffix taken off
    ``signature`` in place) and, with ``pointers``, every pointer argument (Triton's launcher specialises a
    16-byte-aligned pointer, which every torch allocation is)."""
    names = list(listed)
    for a, t in list(signature.items()):
        if t.endswith(DIVISIBLE_SUFFIX):
            if not divisible_type(t[:-len(DIVISIBLE_SUFFIX)]):
                raise InputError("only an integer or a pointer can be divisible by 16", where=where,
                                 expected=f"e.g. i32{DIVISIBLE_SUFFIX}", found=f"{a}: {t}")
            signature[a] = t[:-len(DIVISIBLE_SUFFIX)]
            names.append(a)
        elif pointers and signature[a].startswith("*"):
            names.append(a)
    return tuple(dict.fromkeys(names))


# -- spec files (``twill capture``) --------------------------------------------------------------
def read_spec_file(path: str) -> list[dict[str, Any]]:
    """The kernel entries of a spec file written by ``twill capture``."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise InputError("cannot read spec file", where=path, found=e.strerror) from None
    except json.JSONDecodeError as e:
        raise InputError("malformed spec file", where=f"{path}:{e.lineno}", expected="JSON", found=e.msg) from None
    if not isinstance(data, dict) or data.get("schema") != SPEC_SCHEMA or not isinstance(data.get("kernels"), list):
        raise InputError("not a spec file", where=path, expected=f'{{"schema": "{SPEC_SCHEMA}", "kernels": [...]}}',
                         found=str(data.get("schema") if isinstance(data, dict) else type(data).__name__))
    return [k for k in data["kernels"] if isinstance(k, dict)]


def entries_for(entries: list[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    """The entries captured from the kernel file ``path``: the same path, else the same file name and
    contents (the capture ran on another machine, in another checkout)."""
    p = Path(path).resolve()
    same = [e for e in entries if str(e.get("file")) == str(p)]
    if same:
        return same
    try:
        digest = sha256(p.read_bytes())
    except OSError:
        digest = None
    return [e for e in entries if Path(str(e.get("file", ""))).name == p.name
            and (e.get("file_sha256") in (None, digest))]


def pick_entry(entries: list[dict[str, Any]], function: str, sm: int | None) -> tuple[dict | None, str | None]:
    """The captured launch of ``function`` to extract with, and a note saying which and why: the
    config the autotuner chose, else the most launched one, preferring those captured on the same
    compute capability ``sm``."""
    mine = [e for e in entries if e.get("function") == function]
    if not mine:
        return None, None
    matched = [e for e in mine if sm is None or int(e.get("capability", 0) or 0) // 10 == sm // 10]
    local = matched or mine
    best = max(local, key=lambda e: (bool(e.get("chosen")), int(e.get("launches", 0) or 0), -local.index(e)))
    why = "the autotuner's choice" if best.get("chosen") else \
        f"the most launched ({best.get('launches', 0)} launches)" if len(local) > 1 else "the only one"
    where = "" if matched else f" (none captured on sm_{sm}; this one on sm_{best.get('capability')})"
    note = (f"specialisation captured from a launch: {function} num_warps={best.get('num_warps')} "
            f"num_stages={best.get('num_stages')}, {why} of {len(mine)} captured config(s){where}")
    return best, note
