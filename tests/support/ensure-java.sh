#!/usr/bin/env bash
# The HTML conformance test (tests/e2e/html-conformance.spec.ts) runs the Nu Html Checker (npm's
# vnu-jar), which needs Java. Installs Debian's default-jre-headless when java is missing and we are
# root with apt, like ensure-nginx.sh; otherwise says how, in one line.
set -euo pipefail
command -v java >/dev/null && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "java not found: installing Debian's default-jre-headless package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 default-jre-headless >/dev/null
  exit 0
fi
echo "The HTML conformance test needs Java: run 'sudo apt-get install default-jre-headless', then npm test again." >&2
exit 1
