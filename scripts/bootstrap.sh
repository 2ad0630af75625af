# Sourced by the project's entry scripts (test.sh, demo.sh, CI), or by you: needs only a
# Node.js with npm on the machine (any version that runs npm). Puts the project's Node.js and
# pnpm on PATH (scripts/env.sh: the release pinned in .node-version and the pnpm pinned in
# package.json "packageManager", installed under .cache/tools when missing), changes to the
# repository's root directory, and installs the workspace's dependencies. Defines `repo_root`
# and `use_node <version>` (scripts/ensure-node.sh) for the script that sourced it.
#
# It leaves the shell's options as they were (`set -o`, `$-`): sourced in an interactive
# shell, a later failing command does not close it; a failure here says what is wrong and
# returns 1. Scripts that want to stop at the first failure set `set -euo pipefail`
# themselves. To put Node.js and pnpm on PATH and nothing else: `source scripts/env.sh`.
#
# OPS_NODE=system keeps the machine's Node.js when it is one of the supported lines of
# package.json "engines" (CI's matrix tests each line this way).

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
# shellcheck source=scripts/env.sh
source "$repo_root/scripts/env.sh" || return 1
# shellcheck source=scripts/ensure-node.sh
source "$repo_root/scripts/ensure-node.sh" || return 1
cd "$repo_root" || return 1

if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only >&2 || return 1
else
  pnpm install --reporter=append-only >&2 || return 1
fi
