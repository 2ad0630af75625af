import { describe, expect, it } from 'vitest';
import { findNginx } from '../local-nginx/find-nginx.js';
import { localNginxConfig } from '../local-nginx/local-nginx-config.js';
import { checkNginxConfig } from '../local-nginx/run-nginx.js';
import { nginxConfig, upstreamName } from './nginx-config.js';
import { testBalancer } from './test-balancer.js';

const tcpAndUdp = testBalancer({
  ports: [
    { name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 },
    { name: 'dns', protocol: 'UDP', port: 53, targetPort: 'dns' },
    { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 'dns-tcp' },
  ],
});

/** Every upstream host name to 127.0.0.1 (same port): nginx -t resolves them, binds nothing. */
const resolvable = (conf: string) =>
  localNginxConfig(conf, {
    listen: (port) => port,
    upstream: (_host, port) => `127.0.0.1:${port}`,
  });

describe('nginxConfig', () => {
  it('proxies each port to an upstream listing every backend Service with its weight', () => {
    const conf = nginxConfig(testBalancer());
    expect(conf).toContain(
      [
        '    upstream port_80_tcp {',
        '        server balancer-sample-v1-backend:80 weight=40;',
        '        server balancer-sample-v2-backend:80 weight=20;',
        '        server balancer-sample-v3-backend:80 weight=40;',
        '    }',
      ].join('\n'),
    );
    expect(conf).toContain(
      ['    server {', '        listen 80;', '        proxy_pass port_80_tcp;', '    }'].join('\n'),
    );
    expect(conf).not.toMatch(/\btcp;/);
  });

  it('listens with udp on UDP ports, one session per datagram, next to TCP on the same number', () => {
    const conf = nginxConfig(tcpAndUdp);
    expect(conf).toContain(
      [
        '        listen 53 udp;',
        `        proxy_pass ${upstreamName({ port: 53, protocol: 'UDP' })};`,
        '        proxy_responses 1;',
      ].join('\n'),
    );
    expect(conf).toContain('        listen 53;\n        proxy_pass port_53_tcp;');
  });

  it('is the same text for the same spec, and another for other weights', () => {
    expect(nginxConfig(testBalancer())).toBe(nginxConfig(testBalancer()));
    const reweighted = testBalancer({
      backends: [{ name: 'v1', weight: 1, selector: {} }],
    });
    expect(nginxConfig(reweighted)).not.toBe(nginxConfig(testBalancer()));
  });

  it('passes nginx -t of a real nginx with the stream module, for TCP and UDP ports, and with the optional fields left out', async () => {
    const nginx = await findNginx();
    const onlyRequired = testBalancer({
      ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }],
      selector: undefined,
      backends: [{ name: 'main', weight: 1 }],
    });
    for (const balancer of [testBalancer(), tcpAndUdp, onlyRequired]) {
      await expect(checkNginxConfig(nginx, resolvable(nginxConfig(balancer)))).resolves.toMatch(
        /test is successful/,
      );
    }
  });

  it("is checked for real: nginx -t refuses the seed tutorial's `listen 80 tcp;`", async () => {
    const nginx = await findNginx();
    const seed = resolvable(nginxConfig(testBalancer())).replace(
      'listen 127.0.0.1:80;',
      'listen 127.0.0.1:80 tcp;',
    );
    await expect(checkNginxConfig(nginx, seed)).rejects.toThrow(/invalid "tcp" parameter/);
  });
});
