#!/usr/bin/env bash
# Builds what the browser tests serve: the site pointed at the tests' local backend, and a second
# build with a visible change (another agency name), for the service-worker update test.
# The port and folders are the ones tests/support/ports.ts names (a shell script cannot import it).
set -euo pipefail
export VITE_SUPABASE_URL=http://127.0.0.1:$((54331 + ${E2E_PORT_OFFSET:-0}))
# The tests' backend folder, fresh each run: the build creates its development identity and seals
# to it, the backend (tests/playwright.config.ts) registers the same one, and the tests open rows
# with it.
export LOCAL_BACKEND_DIR=node_modules/.cache/e2e-backend
rm -rf "$LOCAL_BACKEND_DIR"
build() {
  vite build --ssr src/app/entry-prerender.tsx --logLevel warn
  vite build --outDir "$1" --logLevel warn
}
build node_modules/.cache/e2e-dist
VITE_AGENCY_NAME="Umbra Growth Next" build node_modules/.cache/e2e-dist-next
# The staff inbox, on its own origin (tests/support/ports.ts E2E_INBOX_BUILD_DIR).
vite build --config src/inbox/vite.config.ts --outDir "$PWD/node_modules/.cache/e2e-inbox" --logLevel warn
# A next inbox with a visible change, for the inbox's update test (E2E_INBOX_NEXT_BUILD_DIR).
VITE_AGENCY_NAME="Umbra Growth Next" vite build --config src/inbox/vite.config.ts --outDir "$PWD/node_modules/.cache/e2e-inbox-next" --logLevel warn
