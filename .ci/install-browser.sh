#!/usr/bin/env bash
# Install what the headless-browser tests (tests/browser) need: Debian's chromium and the playwright
# Python client. The tests drive /usr/bin/chromium directly; never `playwright install` (no downloads).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium
fi
python3 -m pip install -q "playwright>=1.40"
chromium --version 2>/dev/null | head -1 || true
python3 -c "import playwright; print('ci: playwright client installed')"
