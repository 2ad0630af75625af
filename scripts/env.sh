# Source it (bash) to put the project's pinned Node.js and pnpm first on PATH, and nothing
# else: `source scripts/env.sh`. Node.js is the release pinned in .node-version (installed
# from the npm registry under .cache/tools when the machine's Node.js is another major; with
# OPS_NODE=system the machine's, when package.json "engines" accepts it), pnpm the one pinned
# in package.json "packageManager" (installed under .cache/tools, never globally).
#
# Safe in an interactive shell: it never changes the shell's options (`set -o`, `$-`) or
# directory, and a failure says what is wrong and returns 1 instead of exiting the shell.
# bootstrap.sh sources it, then installs the workspace's dependencies.

_ops_env() {
  local repo_root pinned_node machine_major pnpm_version tools range
  repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  pinned_node="$(tr -d '[:space:]' <"$repo_root/.node-version")" || return 1
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "Node.js and npm are required (any version; the scripts install Node.js $pinned_node themselves): install them from https://nodejs.org and run this again." >&2
    return 1
  fi
  # shellcheck source=scripts/ensure-node.sh
  source "$repo_root/scripts/ensure-node.sh" || return 1

  range="$(node -p "require('$repo_root/package.json').engines.node")" || return 1
  machine_major="$(node -p 'process.versions.node.split(".")[0]')" || return 1
  if [ "${OPS_NODE:-}" = "system" ]; then
    # Whether the node on PATH satisfies "engines" (comparators ^x.y.z and >=x.y.z joined by
    # ||, the only forms the project uses).
    if ! node -e '
      const have = process.versions.node.split(".").map(Number);
      const cmp = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
      const ok = process.argv[1].split("||").some((part) => {
        const m = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
        if (!m) throw new Error(`package.json engines.node: cannot read "${part.trim()}"`);
        const want = m.slice(2).map(Number);
        return cmp(have, want) >= 0 && (m[1] === ">=" || have[0] === want[0]);
      });
      process.exit(ok ? 0 : 1);
    ' "$range"; then
      echo "OPS_NODE=system, but Node.js $(node --version) is not a supported version ($range): install one, or unset OPS_NODE to use Node.js $pinned_node." >&2
      return 1
    fi
  elif [ "$machine_major" != "${pinned_node%%.*}" ]; then
    use_node "$pinned_node" || return 1
  fi

  pnpm_version="$(node -p "require('$repo_root/package.json').packageManager.split('@')[1]")" || return 1
  tools="$repo_root/.cache/tools/pnpm"
  if ! { command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]; }; then
    if [ ! -x "$tools/node_modules/.bin/pnpm" ] || [ "$("$tools/node_modules/.bin/pnpm" --version)" != "$pnpm_version" ]; then
      echo "env: installing pnpm $pnpm_version into .cache/tools/pnpm" >&2
      npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$pnpm_version" >&2 || {
        echo "Could not install pnpm $pnpm_version from the npm registry: check the network and run this again." >&2
        return 1
      }
    fi
    export PATH="$tools/node_modules/.bin:$PATH"
  fi
  # Part of turbo's hash of the test tasks (turbo.json): results are never replayed across
  # Node.js versions.
  OPS_NODE_VERSION="$(node --version)"
  export OPS_NODE_VERSION
  echo "env: Node.js $OPS_NODE_VERSION ($(command -v node)), pnpm $pnpm_version" >&2
}

# Run, not sourced, it would change nothing: say so.
if ! (return 0 2>/dev/null); then
  echo "scripts/env.sh changes the shell that sources it: run \`source scripts/env.sh\`." >&2
  exit 1
fi
_ops_env || {
  unset -f _ops_env
  return 1
}
unset -f _ops_env
