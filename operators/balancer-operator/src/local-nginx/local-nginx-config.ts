/** How a Balancer's nginx.conf is moved onto this machine by {@link localNginxConfig}. */
export interface LocalNginxMapping {
  /** The port on 127.0.0.1 that nginx listens on instead of the Balancer port `port`. */
  listen: (port: number, protocol: 'TCP' | 'UDP') => number | undefined;
  /**
   * The address (`127.0.0.1:<port>`) standing in for the upstream server `host:port`, a
   * backend Service in the cluster (a local echo server, say).
   */
  upstream: (host: string, port: number) => string | undefined;
}

const listenLine = /^(\s*)listen (\d+)( udp)?;$/;
const serverLine = /^(\s*)server ([a-z0-9.-]+):(\d+)( weight=\d+;)$/;

/**
 * A Balancer's generated nginx.conf made runnable on this machine without a cluster DNS, with
 * nothing else changed: each `listen <port>[ udp];` becomes `listen 127.0.0.1:<local>[ udp];`
 * and each upstream `server <host>:<port> weight=<w>;` becomes `server <address> weight=<w>;`,
 * as `mapping` says. Upstream blocks, weights, `udp`, `proxy_responses` and the worker settings
 * stay byte for byte, so what runs is the operator's balancing.
 *
 * Why a text transform: nginx resolves upstream host names once, when it loads the file, with
 * the system resolver. Teaching the machine's resolver the Service names would need root and a
 * shared /etc/hosts; rewriting the few `server` lines needs neither and cannot leak.
 *
 * @throws Error naming the line when `mapping` has no answer for a port or host, or when the
 *   file has no `listen` line (not a Balancer's configuration).
 */
export function localNginxConfig(conf: string, mapping: LocalNginxMapping): string {
  let listens = 0;
  const lines = conf.split('\n').map((line, index) => {
    const listen = listenLine.exec(line);
    if (listen) {
      const [, indent, port, udp] = listen;
      const local = mapping.listen(Number(port), udp ? 'UDP' : 'TCP');
      if (local === undefined) {
        throw new Error(
          `localNginxConfig: line ${index + 1} "${line.trim()}": no local port for it`,
        );
      }
      listens += 1;
      return `${indent}listen 127.0.0.1:${local}${udp ?? ''};`;
    }
    const server = serverLine.exec(line);
    if (server) {
      const [, indent, host = '', port, weight] = server;
      const address = mapping.upstream(host, Number(port));
      if (address === undefined) {
        throw new Error(
          `localNginxConfig: line ${index + 1} "${line.trim()}": no local address for ${host}:${port}`,
        );
      }
      return `${indent}server ${address}${weight}`;
    }
    return line;
  });
  if (listens === 0) {
    throw new Error(
      'localNginxConfig: the configuration has no listen line; pass a Balancer nginx.conf',
    );
  }
  return lines.join('\n');
}
