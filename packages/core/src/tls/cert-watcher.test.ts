import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { generate } from 'selfsigned';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebhookCertificateError } from '../errors/webhook-certificate-error.js';
import { CertWatcher, type ServingCertificate } from './cert-watcher.js';

interface Pair {
  cert: string;
  key: string;
  fingerprint256: string;
}

async function makePair(): Promise<Pair> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
  });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint256: new X509Certificate(pems.cert).fingerprint256,
  };
}

/** Writes a file the way a careful tool does: to a temporary name, then renamed into place. */
async function writeAtomically(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

async function writePair(dir: string, pair: Pair): Promise<void> {
  await writeAtomically(join(dir, 'tls.key'), pair.key);
  await writeAtomically(join(dir, 'tls.crt'), pair.cert);
}

function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { logger, errors: () => lines.filter((line) => line.level >= 50) };
}

let first: Pair;
let second: Pair;
let dir: string;
const watchers: CertWatcher[] = [];

beforeAll(async () => {
  [first, second] = await Promise.all([makePair(), makePair()]);
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cert-watcher-'));
});

afterEach(async () => {
  for (const watcher of watchers.splice(0)) watcher.stop();
  await rm(dir, { recursive: true, force: true });
});

function watcher(options: Partial<ConstructorParameters<typeof CertWatcher>[0]> = {}): CertWatcher {
  const created = new CertWatcher({ certDir: dir, logger: pino({ level: 'silent' }), ...options });
  watchers.push(created);
  return created;
}

async function startError(certWatcher: CertWatcher): Promise<WebhookCertificateError> {
  const error = await certWatcher.start().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebhookCertificateError.isInstance(error))
    throw new Error(`expected a WebhookCertificateError, got ${error}`);
  return error;
}

describe('CertWatcher.start', () => {
  it('loads the pair and reports its fingerprint', async () => {
    await writePair(dir, first);
    const loaded = await watcher().start();
    expect(loaded.fingerprint256).toBe(first.fingerprint256);
    expect(loaded.cert).toBe(first.cert);
  });

  it('uses certName and keyName', async () => {
    await writeFile(join(dir, 'serving.pem'), first.cert);
    await writeFile(join(dir, 'serving-key.pem'), first.key);
    const loaded = await watcher({ certName: 'serving.pem', keyName: 'serving-key.pem' }).start();
    expect(loaded.fingerprint256).toBe(first.fingerprint256);
  });

  it('names a missing directory and how to create certificates', async () => {
    const missing = join(dir, 'nope');
    const error = await startError(watcher({ certDir: missing }));
    expect(error.reason).toBe('CertDirMissing');
    expect(error.certDir).toBe(missing);
    expect(error.message).toContain(
      `webhook serving certificate directory ${missing} does not exist`,
    );
    expect(error.message).toContain('openssl req -x509');
  });

  it('reports missing files', async () => {
    const error = await startError(watcher());
    expect(error.reason).toBe('CertFileMissing');
    expect(error.message).toContain(join(dir, 'tls.crt'));
  });

  it('rejects garbage and mismatched pairs', async () => {
    await writeFile(join(dir, 'tls.crt'), 'not a certificate');
    await writeFile(join(dir, 'tls.key'), first.key);
    const garbage = await startError(watcher());
    expect(garbage.reason).toBe('InvalidCertificate');
    expect(garbage.message).toContain('is not a PEM certificate');

    await writeFile(join(dir, 'tls.crt'), second.cert);
    const mismatch = await startError(watcher());
    expect(mismatch.reason).toBe('InvalidCertificate');
    expect(mismatch.message).toContain('does not belong to the certificate');
  });
});

describe('CertWatcher reloading', () => {
  it('notices a new pair through fs.watch', async () => {
    await writePair(dir, first);
    const changes: ServingCertificate[] = [];
    const certWatcher = watcher({
      pollIntervalMs: 60_000,
      debounceMs: 20,
      onChange: (c) => changes.push(c),
    });
    await certWatcher.start();
    await writePair(dir, second);
    await vi.waitFor(
      () => expect(certWatcher.current?.fingerprint256).toBe(second.fingerprint256),
      {
        timeout: 5_000,
        interval: 20,
      },
    );
    expect(changes.at(-1)?.fingerprint256).toBe(second.fingerprint256);
  });

  it('notices a new pair by polling when watching is off', async () => {
    await writePair(dir, first);
    const certWatcher = watcher({ watch: false, pollIntervalMs: 30 });
    await certWatcher.start();
    await writePair(dir, second);
    await vi.waitFor(
      () => expect(certWatcher.current?.fingerprint256).toBe(second.fingerprint256),
      {
        timeout: 5_000,
        interval: 20,
      },
    );
  });

  it('follows a kubelet-style symlink swap of the directory contents', async () => {
    await mkdir(join(dir, '..v1'));
    await writePair(join(dir, '..v1'), first);
    await symlink('..v1', join(dir, '..data'));
    await symlink('..data/tls.crt', join(dir, 'tls.crt'));
    await symlink('..data/tls.key', join(dir, 'tls.key'));
    const certWatcher = watcher({ pollIntervalMs: 60_000, debounceMs: 20 });
    expect((await certWatcher.start()).fingerprint256).toBe(first.fingerprint256);

    await mkdir(join(dir, '..v2'));
    await writePair(join(dir, '..v2'), second);
    await symlink('..v2', join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await vi.waitFor(
      () => expect(certWatcher.current?.fingerprint256).toBe(second.fingerprint256),
      {
        timeout: 5_000,
        interval: 20,
      },
    );
  });

  it('keeps the previous pair when the new one is bad, and logs the problem once', async () => {
    await writePair(dir, first);
    const { logger, errors } = capturingLogger();
    const changes: ServingCertificate[] = [];
    const certWatcher = watcher({
      logger,
      watch: false,
      pollIntervalMs: 60_000,
      onChange: (c) => changes.push(c),
    });
    await certWatcher.start();

    await writeFile(join(dir, 'tls.crt'), second.cert); // key still belongs to `first`
    expect(await certWatcher.reload()).toBe(false);
    expect(await certWatcher.reload()).toBe(false);
    expect(certWatcher.current?.fingerprint256).toBe(first.fingerprint256);
    expect(errors().map((line) => line.msg)).toEqual([
      `new webhook serving certificate rejected, keeping the previous one: the private key ${join(dir, 'tls.key')} does not belong to the certificate ${join(dir, 'tls.crt')}`,
    ]);

    await rm(join(dir, 'tls.key'));
    expect(await certWatcher.reload()).toBe(false);
    expect(errors()).toHaveLength(2);

    await writeFile(join(dir, 'tls.key'), second.key);
    expect(await certWatcher.reload()).toBe(true);
    expect(certWatcher.current?.fingerprint256).toBe(second.fingerprint256);
    expect(changes.map((c) => c.fingerprint256)).toEqual([second.fingerprint256]);
    expect(await certWatcher.reload()).toBe(false);
  });

  it('does nothing after stop', async () => {
    await writePair(dir, first);
    const changes: ServingCertificate[] = [];
    const certWatcher = watcher({
      debounceMs: 10,
      pollIntervalMs: 20,
      onChange: (c) => changes.push(c),
    });
    await certWatcher.start();
    certWatcher.stop();
    await writePair(dir, second);
    expect(await certWatcher.reload()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changes).toEqual([]);
    expect(certWatcher.current?.fingerprint256).toBe(first.fingerprint256);
  });
});
