# Sourced by the project's entry scripts. Needs only a Node.js with npm on the machine (any
# version that runs npm): puts the project's Node.js on PATH (the release pinned in
# .node-version, installed from the npm registry under .cache/tools when the machine's Node.js
# is another major), then the pnpm pinned in package.json's "packageManager" (installed under
# .cache/tools, never globally), and installs the workspace's dependencies.
#
# OPS_NODE=system keeps the machine's Node.js when it is one of the supported lines of
# package.json "engines" (CI's matrix tests each line this way).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

pinned_node="$(tr -d '[:space:]' < .node-version)"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "Node.js and npm are required (any version; the scripts install Node.js $pinned_node themselves): install them from https://nodejs.org and run this again." >&2
  exit 1
fi

# shellcheck source=scripts/ensure-node.sh
source "$repo_root/scripts/ensure-node.sh"

# Whether the node on PATH satisfies package.json "engines" (comparators ^x.y.z and >=x.y.z
# joined by ||, the only forms the project uses).
node_satisfies_engines() {
  node -e '
    const range = require("./package.json").engines.node;
    const have = process.versions.node.split(".").map(Number);
    const cmp = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    const ok = range.split("||").some((part) => {
      const m = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
      if (!m) throw new Error(`package.json engines.node: cannot read "${part.trim()}"`);
      const want = m.slice(2).map(Number);
      return cmp(have, want) >= 0 && (m[1] === ">=" || have[0] === want[0]);
    });
    process.exit(ok ? 0 : 1);
  '
}

machine_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "${OPS_NODE:-}" = "system" ]; then
  if ! node_satisfies_engines; then
    echo "OPS_NODE=system, but Node.js $(node --version) is not a supported version ($(node -p 'require("./package.json").engines.node')): install one, or unset OPS_NODE to use Node.js $pinned_node." >&2
    exit 1
  fi
elif [ "$machine_major" != "${pinned_node%%.*}" ]; then
  use_node "$pinned_node"
fi

pnpm_version="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
tools="$repo_root/.cache/tools/pnpm"
if ! { command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]; }; then
  if [ ! -x "$tools/node_modules/.bin/pnpm" ] || [ "$("$tools/node_modules/.bin/pnpm" --version)" != "$pnpm_version" ]; then
    echo "bootstrap: installing pnpm $pnpm_version into .cache/tools/pnpm" >&2
    npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$pnpm_version" >&2
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
fi
# Part of turbo's hash of the test tasks (turbo.json): results are never replayed across
# Node.js versions.
OPS_NODE_VERSION="$(node --version)"
export OPS_NODE_VERSION
echo "bootstrap: Node.js $OPS_NODE_VERSION ($(command -v node)), pnpm $pnpm_version" >&2

if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only >&2
else
  pnpm install --reporter=append-only >&2
fi
