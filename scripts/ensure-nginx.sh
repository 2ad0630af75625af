# Sourced by the entry scripts after bootstrap.sh. The balancer-operator's tests run a real
# nginx with the stream module on the nginx.conf the operator generates (`nginx -t`, and a
# weighted traffic test). Uses $NGINX, else `nginx` on PATH or in /usr/sbin; when none has the
# stream module and this runs as root (or with password-less sudo, as on CI runners) on
# Debian/Ubuntu, installs `nginx` and `libnginx-mod-stream` with apt-get, without starting a
# system nginx service (invoke-rc.d is told not to). Otherwise it prints how to install them and carries on: the tests that need
# nginx then fail with the same advice. Exports NGINX when it finds one.
set -euo pipefail

# Whether the nginx at $1 runs and has the stream module, compiled in or as Debian's module.
nginx_has_stream() {
  local flags
  flags="$("$1" -V 2>&1)" || return 1
  case "$flags" in
    *--with-stream=dynamic*) [ -f /usr/lib/nginx/modules/ngx_stream_module.so ] ;;
    *--with-stream*) return 0 ;;
    *) return 1 ;;
  esac
}

find_nginx() {
  local candidate
  for candidate in "${NGINX:-}" "$(command -v nginx 2>/dev/null || true)" /usr/sbin/nginx; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && nginx_has_stream "$candidate"; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  return 1
}

nginx_advice="the balancer-operator's tests need nginx with the stream module: on Debian/Ubuntu run 'sudo apt-get install nginx libnginx-mod-stream' (then 'sudo systemctl disable --now nginx' if you do not want the system service), on macOS 'brew install nginx', or set NGINX to an nginx binary built --with-stream"

if found="$(find_nginx)"; then
  NGINX="$found"
  export NGINX
elif command -v apt-get >/dev/null 2>&1 &&
  { [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; }; then
  as_root=()
  if [ "$(id -u)" != 0 ]; then as_root=(sudo -n); fi
  echo "bootstrap: installing nginx and libnginx-mod-stream with apt-get (no service is started)" >&2
  # Debian's maintainer scripts start services through invoke-rc.d, which asks policy-rc.d
  # first: exit status 101 means "not allowed". An existing policy is left as it is.
  policy=/usr/sbin/policy-rc.d
  placed_policy=false
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
    "${as_root[@]}" chmod +x "$policy"
    placed_policy=true
  fi
  install_status=0
  {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        nginx libnginx-mod-stream
  } >&2 || install_status=$?
  if [ "$placed_policy" = true ]; then "${as_root[@]}" rm -f "$policy"; fi
  if [ "$install_status" -ne 0 ] || ! found="$(find_nginx)"; then
    echo "bootstrap: could not install nginx: $nginx_advice" >&2
    exit 1
  fi
  NGINX="$found"
  export NGINX
else
  echo "bootstrap: no nginx with the stream module found; $nginx_advice" >&2
fi
