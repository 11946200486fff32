"""An interrupted command's scratch directory goes, even while the command's worker thread still writes into it."""
import threading
from pathlib import Path

from twill.cli import _remove_now


def test_the_scratch_directory_is_removed_while_a_thread_keeps_making_directories_in_it(tmp_path):
    """CI at 3c0c26c: the worker, still compiling, made a directory inside the scratch directory while ``rmtree``
    walked it, and the directory stayed (``test_cli_interrupt[4.5]``). Moved aside first, the worker's next
    ``mkdtemp`` there fails; what it made before is removed until the directory is gone."""
    scratch = tmp_path / "twill-run-x"
    scratch.mkdir()
    for i in range(200):
        (scratch / f"d{i}").mkdir()
        (scratch / f"d{i}" / "k.ptx").write_text("x" * 1000)
    stop = threading.Event()

    def worker() -> None:
        n = 0
        while not stop.is_set():
            try:
                (scratch / f"w{n}").mkdir()
                n += 1
            except OSError:
                pass
    t = threading.Thread(target=worker)
    t.start()
    try:
        _remove_now(str(scratch))
        assert not scratch.exists() and not Path(f"{scratch}.removing").exists()
    finally:
        stop.set()
        t.join()
