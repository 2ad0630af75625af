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
pnpm run lint
pnpm run typecheck
pnpm run build
find packages operators tools -path '*/test-results/vitest-node*.json' -not -path '*/node_modules/*' -delete 2>/dev/null || true
status=0
# `pnpm run test` runs three packages' suites per two cores at once (turbo --concurrency=150%):
# all of them at once (turbo's default of 10) put a load of 20 on CI's 2 cores, where tests that
# start processes or wait for timers ran out of time. --continue runs every package past a
# failure (as --no-bail does for the Node.js 22 run below), so the summary names every failed test.
pnpm run test || status=$?

# The real control plane of every pinned Kubernetes release: built (or reused) first, so its
# progress is printed here, then the suites that run on it (each package's "test:binaries").
echo "test: the real control plane of every pinned release (etcd, kube-apiserver, ... built with Go into the user's cache, or reused)" >&2
control_plane_start=$SECONDS
pnpm run control-plane build --all >&2 || status=$((status == 0 ? 1 : status))
echo "test: control planes ready after $((SECONDS - control_plane_start)) s" >&2
# Two lanes at once, each running one package at a time: a real-plane suite mostly waits on its
# control plane's processes, so the other lane has the cores it leaves (one after the other,
# these took about 45 of CI's minutes on 2 cores). Each test file of a real-plane suite starts
# its own control plane on free ports, so the lanes share nothing but the machine; the builds
# above are not run again (turbo's --only), so no lane rewrites a dist/ file another is reading.
# Lane 1: every package's suite on the newest release (the default).
# Lane 2, its output prefixed "[lane 2]": the conformance suite (with envtest's binaries and
# cluster-plane tests) and every operator's end-to-end suite on each older pinned release (the
# lines after the first of `ops-control-plane versions`), reported apart
# (vitest-node<v>-binaries-kubernetes<release>); then the published packages (not "private")
# on the oldest supported Node.js: the first version of package.json's engines.node
# ("^22.19.0 || ..." -> 22.19.0), by pnpm, not turbo, whose cache does not tell Node.js versions
# apart, two packages at once and in any order (--no-sort: pnpm's default, dependencies first,
# ran this chain of packages one at a time).
lane2_status="$(mktemp)"
older_releases_and_oldest_node() {
  local lane_status=0 kubernetes
  local -a older_releases published filters
  read -r -a older_releases <<<"$(node tools/control-plane/dist/cli.js versions | awk 'NR > 1 { sub(/^v/, "", $2); printf "%s ", $2 }')"
  for kubernetes in "${older_releases[@]}"; do
    echo "test: the conformance suite and the operators' end-to-end suites on Kubernetes $kubernetes" >&2
    # Fault exploration's real-plane quick runs (envtest's catalogue, each operator's scenario)
    # run on the newest release only: they test the operators' and the harness's handling of
    # faults, which the release does not change, and would add minutes to each older release.
    OPS_ENVTEST_KUBERNETES_VERSION="$kubernetes" pnpm --filter=@ops/envtest --filter='./operators/*' \
      --workspace-concurrency=1 --no-bail run test:binaries \
      --exclude '**/explore.e2e.test.ts' --exclude '**/binaries/explore.test.ts' || lane_status=1
  done
  local oldest_node
  oldest_node="$(node -p 'require("./package.json").engines.node.match(/\d+\.\d+\.\d+/)[0]')"
  if [ "$(node --version)" != "v$oldest_node" ]; then
    read -r -a published <<<"$(node -e '
      const { readdirSync, existsSync, readFileSync } = require("node:fs");
      for (const group of ["packages", "tools"]) {
        for (const name of readdirSync(group)) {
          const file = `${group}/${name}/package.json`;
          if (!existsSync(file)) continue;
          const pkg = JSON.parse(readFileSync(file, "utf8"));
          if (!pkg.private && pkg.scripts?.test) process.stdout.write(`${pkg.name} `);
        }
      }')"
    for name in "${published[@]}"; do filters+=(--filter "$name"); done
    echo "test: the published packages (${published[*]}) once more on Node.js $oldest_node" >&2
    (use_node "$oldest_node" && pnpm "${filters[@]}" --workspace-concurrency=2 --no-sort --no-bail run test) ||
      lane_status=1
  fi
  echo "$lane_status" >"$lane2_status"
}
lanes_start=$SECONDS
(older_releases_and_oldest_node 2>&1 | sed -u 's/^/[lane 2] /') &
lane2=$!
pnpm turbo run test:binaries --only --concurrency=1 --continue || status=$((status == 0 ? 1 : status))
echo "test: lane 1 (the newest release) done after $((SECONDS - lanes_start)) s" >&2
wait "$lane2" || true
echo "test: lane 2 (older releases, oldest Node.js) done after $((SECONDS - lanes_start)) s" >&2
[ "$(cat "$lane2_status")" = 0 ] || status=$((status == 0 ? 1 : status))
rm -f "$lane2_status"

node scripts/test-summary.mjs || status=$((status == 0 ? 1 : status))
exit "$status"
