#!/usr/bin/env bash
# The project's test command (README): on a machine with only Node.js, installs what it needs,
# then lints, typechecks, builds and tests every package. Exits non-zero on any failure.
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
source "$repo_root/scripts/ensure-kubectl.sh"

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm run lint
pnpm run typecheck
pnpm run build
find packages operators tools -path '*/test-results/vitest.json' -not -path '*/node_modules/*' -delete 2>/dev/null || true
status=0
pnpm run test || status=$?
node scripts/test-summary.mjs || status=$((status == 0 ? 1 : status))
exit "$status"
