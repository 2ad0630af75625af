# Sourced by the project's entry scripts. Needs only Node.js >= 20.19 and npm: puts the pnpm
# version pinned in package.json's "packageManager" on PATH (installed under .cache/tools,
# never globally) and installs the workspace's dependencies.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

if ! command -v node >/dev/null 2>&1; then
  echo "Node.js >= 20.19 is required: install it from https://nodejs.org and run this again." >&2
  exit 1
fi
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error(`Node.js >= 20.19 is required, found ${process.versions.node}: upgrade Node.js and run this again.`); process.exit(1) }'

pnpm_version="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
tools="$repo_root/.cache/tools/pnpm"
if ! { command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]; }; then
  if [ ! -x "$tools/node_modules/.bin/pnpm" ] || [ "$("$tools/node_modules/.bin/pnpm" --version)" != "$pnpm_version" ]; then
    echo "bootstrap: installing pnpm $pnpm_version into .cache/tools/pnpm" >&2
    npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$pnpm_version" >&2
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
fi

if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only >&2
else
  pnpm install --reporter=append-only >&2
fi
