#!/usr/bin/env bash
# The project's test command (README): on a machine with only Node.js and npm, installs what it
# needs (the pinned Node.js, pnpm, dependencies, kubectl, python3-kubernetes, nginx with its
# stream module for the balancer-operator's traffic tests), then lints, typechecks, builds and
# tests every package on the pinned Node.js (.node-version), and tests the published packages
# once more on the oldest Node.js their "engines" accept, so users on either line are covered.
# The conformance suite and the operators' end-to-end suites run on the local API server and
# on real etcd + kube-apiserver (a suite that needs running Pods on the cluster plane: kwok
# nodes) of every supported Kubernetes release: the newest, then each older one pinned
# (`pnpm control-plane versions`), which `pnpm control-plane build --all` builds with Go into
# the user's cache (~/.cache/ops/kube, shared by every clone; OPS_CONTROL_PLANE_CACHE moves it)
# first, or reuses (a cold build takes minutes and prints its progress); envtest's
# cluster-plane tests (kwok nodes) and `demo.sh --real` run on the newest too. Without Go that
# run fails, saying what to install. Exits non-zero on any failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
source "$repo_root/scripts/ensure-kubectl.sh"
source "$repo_root/scripts/ensure-kubectl-matrix.sh"
source "$repo_root/scripts/ensure-helm.sh"
source "$repo_root/scripts/ensure-python-kubernetes.sh"
source "$repo_root/scripts/ensure-nginx.sh"

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
# One after the other: one turbo run of build, lint and typecheck took longer (164 s against
# 143, and 264 CPU-seconds against 227: ten tasks at once on two cores).
pnpm run lint
pnpm run typecheck
pnpm run build
status=0
# The real control plane of every pinned Kubernetes release: built (or reused) first, so its
# progress is printed here, before any suite that runs on it starts.
echo "test: the real control plane of every pinned release (etcd, kube-apiserver, ... built with Go into the user's cache, or reused)" >&2
control_plane_start=$SECONDS
pnpm run control-plane build --all >&2 || status=$((status == 0 ? 1 : status))
echo "test: control planes ready after $((SECONDS - control_plane_start)) s" >&2
# Every suite, as one pool of jobs three at a time (OPS_TEST_JOBS), the longest first
# (scripts/run-suites.mjs): each package's suite on the local API server and on the newest
# release; envtest's and the operators' real-plane suites on each older pinned release (the
# lines after the first of `ops-control-plane versions`), reported apart
# (vitest-node<v>-binaries-kubernetes<release>); and the published packages (not "private")
# once more on the oldest supported Node.js, the first version of package.json's
# engines.node ("^22.19.0 || ..." -> 22.19.0). A real-plane suite mostly waits on its control
# plane, a local one mostly computes: side by side they keep both cores busy, where phases
# (local, then the real planes) left them idle at each phase's tail. Each real-plane test file
# starts its own control plane on free ports, so suites share nothing but the machine. Every
# suite runs past a failure, so the summary names every failed test.
read -r -a older_releases <<<"$(node tools/control-plane/dist/cli.js versions | awk 'NR > 1 { sub(/^v/, "", $2); printf "%s ", $2 }')"
oldest_node="$(node -p 'require("./package.json").engines.node.match(/\d+\.\d+\.\d+/)[0]')"
oldest_node_bin="$(node_bin_dir "$oldest_node")" || status=$((status == 0 ? 1 : status))
suites_start=$SECONDS
node scripts/run-suites.mjs --jobs "${OPS_TEST_JOBS:-3}" --older-releases "${older_releases[*]}" \
  --oldest-node "$oldest_node" --oldest-node-bin "$oldest_node_bin" || status=$((status == 0 ? 1 : status))
echo "test: every suite done after $((SECONDS - suites_start)) s" >&2

node scripts/test-summary.mjs || status=$((status == 0 ? 1 : status))
exit "$status"
