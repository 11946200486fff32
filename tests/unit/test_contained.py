"""An offline compile runs in a child process: an abort inside Triton's C++ (an assertion) is one line, not the end
of twill (``twill.ir.triton_hooks.contained``)."""
import os

import pytest

from twill.errors import CompileError
from twill.ir.triton_hooks import contained

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the compile is contained only where the OS forks")


def test_an_abort_in_the_child_is_one_compile_error_with_its_assertion_line():
    def crash():
        os.write(2, b"python3: Casting.h:566: llvm::cast: Assertion `isa<To>(Val)' failed.\n")
        os.abort()
    with pytest.raises(CompileError) as e:
        contained(crash, where="kernel_gluon.py", what="the generated Gluon kernel")
    msg = str(e.value)
    assert msg == ("kernel_gluon.py: Triton's compiler crashed on the generated Gluon kernel: "
                   "Assertion `isa<To>(Val)' failed."), msg


def test_the_childs_result_and_its_compile_errors_come_back_as_they_were():
    assert contained(lambda: {"asm": {"ptx": "x"}, "shared": 3}) == {"asm": {"ptx": "x"}, "shared": 3}

    def refuse():
        raise CompileError("does not compile", where="k.py", found="line 3")
    with pytest.raises(CompileError) as e:
        contained(refuse)
    assert str(e.value) == "k.py: does not compile (found line 3)"

    def other():
        raise ValueError("bad layout\nsecond line")
    with pytest.raises(CompileError) as e:
        contained(other, where="k.py", what="the kernel")
    assert str(e.value) == "k.py: the offline compile of the kernel failed: ValueError: bad layout"


def test_a_defect_inside_the_gluon_back_end_is_one_line_naming_where():
    from twill.gluon_route import internal_error

    def parse():
        return {"opIdx": 0}["kWidth"]
    try:
        parse()
    except KeyError as e:
        msg = internal_error(e)
    assert msg.startswith("the Gluon back end failed on this kernel (internal error KeyError: 'kWidth' at "
                          "test_contained.py:"), msg
    assert "\n" not in msg and msg.endswith("please report it)")
