const marker = Symbol.for('balancer-operator.NginxNotFoundError');

/** How to get an nginx that can run a Balancer's configuration, for error messages. */
export const nginxInstallAdvice =
  "install nginx with its stream module: on Debian/Ubuntu 'sudo apt-get install nginx libnginx-mod-stream' (./scripts/test.sh does it when it runs as root or with password-less sudo; 'sudo systemctl disable --now nginx' stops the system service it may start), on macOS 'brew install nginx', or set NGINX to an nginx binary built --with-stream";

/**
 * No nginx with the stream module was found (at `$NGINX`, on PATH or at /usr/sbin/nginx), so a
 * Balancer's nginx.conf cannot be checked or run here. The message names the places looked at
 * and says how to install one. Recognise it with {@link NginxNotFoundError.isInstance}, which
 * works across duplicate copies of the module.
 */
export class NginxNotFoundError extends Error {
  readonly [marker] = true;
  override readonly name = 'NginxNotFoundError';

  static isInstance(error: unknown): error is NginxNotFoundError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
