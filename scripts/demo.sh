#!/usr/bin/env bash
# The project's demo command (README): on a machine with only Node.js, installs what it
# needs, builds, then runs the local API server with an operator and its sample:
# `./scripts/demo.sh` the application-operator, `./scripts/demo.sh myjob` the myjob-operator,
# `./scripts/demo.sh balancer` the balancer-operator (an operator's name without -operator).
# `--real` runs the same on envtest's cluster plane (kube-apiserver, kube-controller-manager,
# kube-scheduler, a kwok node), built with Go into the user's cache (~/.cache/ops/kube) or reused; without Go it says
# what to install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
source "$repo_root/scripts/ensure-kubectl.sh"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm turbo run build --output-logs=errors-only >&2
exec node tools/demo/demo.mjs "$@"
