import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDirectory, removeCopies } from '../test/fixture-operator.js';
import { certificatesUsable, ensureCertificateDirectory } from './serving-certificates.js';

afterAll(removeCopies);

const hosts = ['localhost', '127.0.0.1', 'svc.ns.svc'];

describe('ensureCertificateDirectory', () => {
  it('generates a CA and a certificate for the hosts once, then reuses them', async () => {
    const dir = join(emptyDirectory(), 'serving-certs');
    const first = await ensureCertificateDirectory(dir, hosts);
    expect(first.created).toBe(true);
    expect(readFileSync(join(dir, 'tls.crt'), 'utf8')).toBe(first.cert);
    expect(readFileSync(join(dir, 'ca.crt'), 'utf8')).toBe(first.caCert);
    expect(certificatesUsable(first, hosts)).toBe(true);
    const again = await ensureCertificateDirectory(dir, hosts);
    expect(again).toEqual({ ...first, created: false });
  });

  it('replaces them when a host is not covered or a file is unreadable', async () => {
    const dir = join(emptyDirectory(), 'serving-certs');
    const first = await ensureCertificateDirectory(dir, hosts);
    const widened = await ensureCertificateDirectory(dir, [...hosts, '192.0.2.7']);
    expect(widened.created).toBe(true);
    expect(widened.cert).not.toBe(first.cert);
    writeFileSync(join(dir, 'tls.key'), 'not a key');
    expect((await ensureCertificateDirectory(dir, hosts)).created).toBe(true);
  });
});

describe('certificatesUsable', () => {
  it('wants the CA to have signed it, every host covered and 30 days of validity left', async () => {
    const a = await ensureCertificateDirectory(join(emptyDirectory(), 'a'), hosts);
    const b = await ensureCertificateDirectory(join(emptyDirectory(), 'b'), hosts);
    expect(certificatesUsable(a, hosts)).toBe(true);
    expect(certificatesUsable({ ...a, caCert: b.caCert }, hosts)).toBe(false);
    expect(certificatesUsable({ ...a, key: b.key }, hosts)).toBe(false);
    expect(certificatesUsable(a, ['192.0.2.10'])).toBe(false);
    expect(certificatesUsable(a, hosts, Date.now() + 340 * 24 * 3600 * 1000)).toBe(false);
    expect(certificatesUsable({ caCert: 'x', cert: 'y', key: 'z' }, hosts)).toBe(false);
  });
});
