"""The GPU correctness checks' logic, run on the CPU with kernel files made here: the reference compared, NaN-poisoned
outputs, and two launches on copies of the same inputs that must agree bit for bit (a race inside the tolerance:
run 52's bias_attention, 4.4e-3 then 7.1e-3 for one seed)."""
from __future__ import annotations

import types

import pytest

torch = pytest.importorskip("torch")

from profiling.check import output_checks, same_bits  # noqa: E402


def _file(launch, deterministic: bool | None = True, path: str | None = None) -> types.SimpleNamespace:
    said = {} if deterministic is None else {"DETERMINISTIC": deterministic}
    return types.SimpleNamespace(
        PROBLEM={"n": 64}, SMALL={"n": 8}, __file__=path, **said,
        make_inputs=lambda n, seed: {"x": torch.arange(n, dtype=torch.float32) + seed},
        reference=lambda inp: inp["x"] * 2, launch=launch)


def test_a_correct_repeatable_kernel_passes_every_check():
    checks = output_checks(_file(lambda inp: inp["x"] * 2))
    assert len(checks) == 4 and all(c["pass"] and c["repeatable"] for c in checks)


def test_a_kernel_whose_launches_differ_fails_though_within_tolerance_unless_declared_nondeterministic():
    calls = []

    def racy(inp):                      # a last-bit difference on every second launch: under the 1e-2 tolerance
        calls.append(1)
        out = inp["x"] * 2
        return torch.nextafter(out, out + 1) if len(calls) % 2 == 0 else out

    checks = output_checks(_file(racy))
    assert all(c["rel_err"][0] < 1e-2 and not c["repeatable"] and not c["pass"] for c in checks)
    calls.clear()
    assert all(c["pass"] for c in output_checks(_file(racy, deterministic=False)))   # float atomics: order free


def test_a_kernel_file_with_atomics_may_differ_between_launches(tmp_path):
    calls = []

    def racy(inp):
        calls.append(1)
        out = inp["x"] * 2
        return torch.nextafter(out, out + 1) if len(calls) % 2 == 0 else out

    atomics, plain = tmp_path / "splitk.py", tmp_path / "plain.py"
    atomics.write_text("tl.atomic_add(c_ptrs, acc)\n")
    plain.write_text("tl.store(c_ptrs, acc)\n")
    assert all(c["pass"] for c in output_checks(_file(racy, deterministic=None, path=str(atomics))))
    calls.clear()
    assert not any(c["pass"] for c in output_checks(_file(racy, deterministic=None, path=str(plain))))


def test_each_launch_gets_its_own_copy_of_the_inputs():
    def in_place(inp):                  # a kernel that writes its input: the second launch must see it unwritten
        inp["x"].mul_(2)
        return inp["x"].clone()

    assert all(c["pass"] and c["repeatable"] for c in output_checks(_file(in_place)))


def test_an_output_left_unwritten_shows_as_nan():
    checks = output_checks(_file(lambda inp: torch.empty_like(inp["x"])))
    assert all(c["nan"] and not c["pass"] for c in checks)


def test_bits_compared_as_integers_of_the_width():
    a = torch.tensor([0.0, float("nan"), 1.5], dtype=torch.float16)
    assert same_bits(a, a.clone()) and not same_bits(a, torch.tensor([-0.0, float("nan"), 1.5], dtype=torch.float16))
    assert not same_bits(a, a.float()) and same_bits(torch.arange(3), torch.arange(3))


def test_relative_error_of_equal_infinities_and_of_a_zero_reference():
    from profiling.check import rel_err

    ref = torch.tensor([1.0, float("-inf"), 2.0])
    assert rel_err(ref.clone(), ref) == 0.0                              # -inf where the reference is -inf
    assert rel_err(torch.tensor([1.0, float("-inf"), 2.2]), ref) == pytest.approx(0.2 / 5 ** 0.5, rel=1e-6)
    assert rel_err(torch.tensor([1.0, 0.0, 2.0]), ref) == float("inf")   # finite where -inf: fails
    zeros = torch.zeros(4)
    assert rel_err(zeros.clone(), zeros) == 0.0 and rel_err(zeros + 1, zeros) == float("inf")


def test_an_output_whose_error_is_nan_fails_though_it_is_not_the_first():
    f = _file(lambda inp: (inp["x"] * 2, inp["x"].clone()))     # a reference with a NaN: an error of NaN
    f.reference = lambda inp: (inp["x"] * 2, torch.where(inp["x"] > 3, float("nan"), inp["x"]))
    checks = output_checks(f)
    assert all(c["rel_err"][0] == 0 and c["rel_err"][1] != c["rel_err"][1] and not c["nan"] and not c["pass"]
               for c in checks)
