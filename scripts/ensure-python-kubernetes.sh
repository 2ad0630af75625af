# Sourced by scripts/test.sh after bootstrap.sh. The local API server's tests drive it with a
# client written in another language: the official Python client from Debian's
# python3-kubernetes package, run by /usr/bin/python3 (OPS_PYTHON overrides). Installs the
# package with apt-get when it is missing on Debian or Ubuntu, as root or through passwordless
# sudo (CI runners); otherwise stops, saying how to install it (the tests fail without it,
# they are never skipped).
set -euo pipefail

python="${OPS_PYTHON:-/usr/bin/python3}"
if [ -x "$python" ] && "$python" -c 'import kubernetes' >/dev/null 2>&1; then
  return 0 2>/dev/null || exit 0
fi
as_root=()
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
fi
if { [ "$(id -u)" = "0" ] || [ ${#as_root[@]} -gt 0 ]; } && command -v apt-get >/dev/null 2>&1; then
  echo "bootstrap: installing python3-kubernetes (Debian's package of the official Python client) with apt-get" >&2
  if ! "${as_root[@]}" apt-get install -y --no-install-recommends python3-kubernetes >&2; then
    "${as_root[@]}" apt-get update >&2
    "${as_root[@]}" apt-get install -y --no-install-recommends python3-kubernetes >&2
  fi
fi
if ! [ -x "$python" ] || ! "$python" -c 'import kubernetes' >/dev/null 2>&1; then
  echo "python3-kubernetes is not installed and cannot be installed here (needs root and apt-get): run 'sudo apt-get install python3-kubernetes', or point OPS_PYTHON at a python3 that can 'import kubernetes' (pip install kubernetes), then run this again." >&2
  exit 1
fi
