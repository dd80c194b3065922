#!/usr/bin/env bash
# Browser tests need Debian's Chromium at /usr/bin/chromium (Playwright must never download its own).
# Installs it when it is missing and we are root with apt; otherwise says how, in one line.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium_path" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium not found: installing Debian's chromium package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 chromium >/dev/null
  exit 0
fi
echo "Browser tests need Chromium: run 'sudo apt-get install chromium' (or set CHROMIUM_PATH), then npm test again." >&2
exit 1
