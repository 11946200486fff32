"""``--update-golden`` (or TWILL_UPDATE_GOLDEN=1) rewrites the golden listings instead of comparing."""
from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt from the current output")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden", default=False)) or \
        os.environ.get("TWILL_UPDATE_GOLDEN") == "1"
