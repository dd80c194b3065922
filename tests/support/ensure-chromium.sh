#!/usr/bin/env bash
# Browser tests need Debian's Chromium at /usr/bin/chromium (Playwright must never download its own)
# and the stock `age` command (the sealed-submission tests open rows with it, as staff do).
# Installs what is missing when we are root with apt; otherwise says how, in one line.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
command -v age >/dev/null || missing+=(age)
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Not found: ${missing[*]}. Installing Debian's packages..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
  exit 0
fi
echo "Browser tests need ${missing[*]}: run 'sudo apt-get install ${missing[*]}' (or set CHROMIUM_PATH), then npm test again." >&2
exit 1
