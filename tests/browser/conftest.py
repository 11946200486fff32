"""Headless chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright
(install both with .ci/install-browser.sh; never `playwright install`, which downloads)."""
import os
import shutil

import pytest

CHROMIUM = os.environ.get("TWILL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: needs headless chromium and playwright (.ci/install-browser.sh)")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed; run .ci/install-browser.sh")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM}; run .ci/install-browser.sh")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
