import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { emptyDirectory, removeCopies } from '../test/fixture-operator.js';
import { certificatesUsable, ensureCertificateDirectory } from './serving-certificates.js';

afterAll(removeCopies);

const hosts = ['localhost', '127.0.0.1', 'svc.ns.svc'];

// One directory through its life, so that only three sets are generated (RSA keys are slow).
it('generates a CA and certificate once, reuses them while usable, and replaces them when not', async () => {
  const dir = join(emptyDirectory(), 'serving-certs');
  const first = await ensureCertificateDirectory(dir, hosts);
  expect(first.created).toBe(true);
  expect(readFileSync(join(dir, 'tls.crt'), 'utf8')).toBe(first.cert);
  expect(readFileSync(join(dir, 'ca.crt'), 'utf8')).toBe(first.caCert);
  expect(certificatesUsable(first, hosts)).toBe(true);
  expect(await ensureCertificateDirectory(dir, hosts)).toEqual({ ...first, created: false });

  // A host the certificate does not cover: a new set.
  const widened = await ensureCertificateDirectory(dir, [...hosts, '192.0.2.7']);
  expect(widened.created).toBe(true);
  expect(widened.cert).not.toBe(first.cert);

  // certificatesUsable: the CA must have signed it, the key match, every host be covered and
  // 30 days of validity be left.
  expect(certificatesUsable({ ...widened, caCert: first.caCert }, hosts)).toBe(false);
  expect(certificatesUsable({ ...widened, key: first.key }, hosts)).toBe(false);
  expect(certificatesUsable(first, ['192.0.2.7'])).toBe(false);
  expect(certificatesUsable(widened, hosts, Date.now() + 340 * 24 * 3600 * 1000)).toBe(false);
  expect(certificatesUsable({ caCert: 'x', cert: 'y', key: 'z' }, hosts)).toBe(false);

  // An unreadable key: a new set.
  writeFileSync(join(dir, 'tls.key'), 'not a key');
  expect((await ensureCertificateDirectory(dir, hosts)).created).toBe(true);
}, 60_000);
