#!/usr/bin/env bash
# The nginx test (tests/e2e/nginx.spec.ts) serves the build with the shipped nginx configuration
# through Debian's nginx (package nginx-light). Installs it when it is missing and we are root with
# apt, like ensure-chromium.sh; otherwise says how, in one line. Debian's package scripts may start
# the system nginx on port 80 where services are allowed to start; the test never uses that one.
set -euo pipefail
nginx_path="${NGINX_PATH:-/usr/sbin/nginx}"
[ -x "$nginx_path" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "nginx not found: installing Debian's nginx-light package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 nginx-light >/dev/null
  exit 0
fi
echo "The nginx test needs nginx: run 'sudo apt-get install nginx-light' (or set NGINX_PATH), then npm test again." >&2
exit 1
