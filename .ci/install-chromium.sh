#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium for the web inspector's browser test
# (test/inspector/browser.test.ts drives it with playwright-core). Skips when present.
set -euo pipefail
if [ -x "${ENGRAM_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "chromium already installed at ${ENGRAM_CHROMIUM:-/usr/bin/chromium}" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo '?')" >&2
