import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { Logger } from 'pino';
import { isAlreadyExists, isConflict, isNotFound } from '../client/api-error-helpers.js';
import type { Client } from '../client/client.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import {
  createCertificateAuthority,
  issueServingCertificate,
  type KeyPair,
  renewalTime,
  splitPemCertificates,
  validity,
} from '../tls/certificate-authority.js';

/** The objects the self-managed mode reads and writes, by name. */
export interface SelfManagedCertificateNames {
  /** The Secret (in the operator's namespace) holding the CA bundle, CA key and serving pair. */
  secret: string;
  /** The webhook Service; the serving certificate is for `<service>.<namespace>.svc[.cluster.local]`. */
  service: string;
  /** The MutatingWebhookConfiguration to inject the CA bundle into; unset: none. */
  mutatingConfiguration?: string;
  /** The ValidatingWebhookConfiguration to inject the CA bundle into; unset: none. */
  validatingConfiguration?: string;
  /** CustomResourceDefinitions whose conversion webhook gets the CA bundle. */
  customResourceDefinitions?: readonly string[];
}

/** Options of {@link SelfManagedCertificates}. */
export interface SelfManagedCertificateOptions {
  /** A client that reads from the API server (not a cache), with the rules of {@link selfManagedCertificateRules}. */
  client: Client;
  names: SelfManagedCertificateNames;
  /** The namespace of the Secret and the Service. */
  namespace: string;
  /** Where `tls.crt` and `tls.key` are written for the webhook server (which reloads them). */
  certDir: string;
  logger: Logger;
  /** Lifetime of a CA, in ms; renewed after two thirds. Default 5 years. */
  caLifetimeMs?: number;
  /** Lifetime of a serving certificate, in ms; renewed after two thirds. Default 1 year. */
  certificateLifetimeMs?: number;
  /** How often the Secret and configurations are checked. Default: a twentieth of the serving lifetime, at most 10 minutes. */
  checkIntervalMs?: number;
  /**
   * More hosts the serving certificate is valid for, besides the Service's names: DNS names,
   * or IP addresses (IP SANs) such as `127.0.0.1` when an API server on the same machine calls
   * the webhooks by URL (a test's control plane). A stored certificate without them is replaced.
   */
  extraHosts?: readonly string[];
  /** Called after a new serving pair was written to `certDir`. */
  onServingCertificate?: () => Promise<void>;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

const year = 365 * 24 * 3600 * 1000;

/** The Secret's content, parsed. */
interface Stored {
  /** The trusted CAs, newest first; the first one signs. */
  bundle: string[];
  caKey: string | undefined;
  serving: KeyPair | undefined;
  resourceVersion: string | undefined;
  object: KubernetesObject | undefined;
}

/** What one target's CA bundle is, and where to write it. */
interface InjectionTarget {
  apiVersion: string;
  kind: string;
  name: string;
  /** The clientConfig objects of the target that take a `caBundle`. */
  clientConfigs: (object: Record<string, unknown>) => Record<string, unknown>[];
}

/**
 * Webhook certificates without cert-manager (`--webhook-cert-mode=self-managed`): the
 * operator keeps a CA and a serving certificate in a Secret of its namespace, injects the CA
 * bundle into its own webhook configurations (and conversion CRDs), renews both after two
 * thirds of their lifetime, and writes the serving pair into the webhook server's cert dir,
 * where the server's cert watcher reloads it without a restart.
 *
 * Every replica runs the same pass; the Secret is the one source of truth and writes use
 * optimistic concurrency (create if absent, update with the read `resourceVersion`), so
 * when replicas race one write wins and the others re-read and find it done.
 *
 * Guarantees:
 * - A serving certificate is issued only by a CA that is already in the bundle of every
 *   existing target, and a replica writes a pair to its cert dir only after checking that;
 *   so no Pod serves a certificate the configurations do not trust.
 * - CA rotation overlaps: the new CA is added to the bundle (the old one stays until it
 *   expires), injected, and only then does it sign a serving certificate.
 * - A replica does not replace a target's bundle with one whose newest CA is older than the
 *   target's (it may have read a stale Secret): it re-reads first. If the Secret is the same
 *   on that second read, the newer CA is not the operator's (set by hand) and is replaced,
 *   with a warning.
 *
 * To force a rotation, remove `ca.key` from the Secret (a new CA, with overlap) or
 * `tls.crt` (a new serving certificate).
 */
export class SelfManagedCertificates {
  readonly #options: SelfManagedCertificateOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #hosts: string[];
  readonly #targets: InjectionTarget[];
  #served: string | undefined;
  /** The Secret version at which a target's newer, unknown CA last sent this replica to re-read. */
  #deferredAt: string | undefined;

  constructor(options: SelfManagedCertificateOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#now = options.now ?? Date.now;
    const { service } = options.names;
    this.#hosts = [
      `${service}.${options.namespace}.svc`,
      `${service}.${options.namespace}.svc.cluster.local`,
      ...(options.extraHosts ?? []),
    ];
    this.#targets = injectionTargets(options.names);
  }

  /** The DNS names of the serving certificate: the Service's, then those of `extraHosts`. */
  get dnsNames(): readonly string[] {
    return this.#hosts.filter((host) => isIP(host) === 0);
  }

  /** Every host of the serving certificate: the Service's DNS names, then `extraHosts`. */
  get hosts(): readonly string[] {
    return this.#hosts;
  }

  /** How often {@link run} checks. */
  get checkIntervalMs(): number {
    return (
      this.#options.checkIntervalMs ??
      Math.min(10 * 60_000, (this.#options.certificateLifetimeMs ?? year) / 20)
    );
  }

  /**
   * Brings the Secret, the targets' CA bundles and the local serving pair up to date, as
   * described on the class; resolves once this replica has a pair in its cert dir that the
   * targets trust. Retries on conflicts (another replica wrote first).
   *
   * @throws the API error (e.g. Forbidden: grant {@link selfManagedCertificateRules}) or a
   * file-system error writing the cert dir (it must be writable: not a read-only Secret
   * mount).
   */
  async provision(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#pass();
      if (outcome === 'done') return;
      if (attempt >= 20) {
        throw new Error(
          `webhook certificates: the Secret ${this.#options.namespace}/${this.#options.names.secret} kept changing under this replica for 20 attempts; check what else writes it`,
        );
      }
      this.#log.debug({ attempt }, 'webhook certificate state changed meanwhile; re-reading');
    }
  }

  /**
   * Calls {@link provision} every {@link checkIntervalMs} until `signal` aborts; a failed
   * check is logged and retried at the next interval (the served certificate stays).
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await abortableSleep(this.checkIntervalMs, signal);
      if (signal.aborted) return;
      try {
        await this.provision();
      } catch (error) {
        this.#log.error({ err: error }, 'checking the webhook certificates failed; retrying later');
      }
    }
  }

  /** One pass; `'retry'` when the state changed under it (a write conflicted or created something). */
  async #pass(): Promise<'done' | 'retry'> {
    const stored = await this.#read();
    const now = this.#now();
    const bundle = stored.bundle.filter((pem) => validity(pem).notAfter > now);
    const signer = bundle[0];
    if (signer === undefined || stored.caKey === undefined || renewalTime(signer) <= now) {
      // A name of its own (as client-go's `<host>-ca@<unix time>`): TLS libraries pick a
      // CA from the bundle by subject name, so two CAs of one name break verification.
      const ca = await createCertificateAuthority(
        `${this.#options.names.service}-ca@${Math.floor(now / 1000)}-${randomBytes(4).toString('hex')}`,
        now,
        this.#options.caLifetimeMs ?? 5 * year,
      );
      return this.#write(
        stored,
        { bundle: [ca.cert, ...bundle], caKey: ca.key, serving: stored.serving },
        'made a new webhook CA; the previous ones stay trusted until they expire',
      );
    }
    if (bundle.length < stored.bundle.length) {
      return this.#write(
        stored,
        { bundle, caKey: stored.caKey, serving: stored.serving },
        'dropped expired webhook CAs from the bundle',
      );
    }
    if ((await this.#inject(bundle, stored.resourceVersion)) === 'retry') return 'retry';
    const serving = stored.serving;
    if (serving === undefined || !this.#servingUsable(serving, signer, now)) {
      const pair = await issueServingCertificate(
        { cert: signer, key: stored.caKey },
        this.#hosts,
        now,
        now + (this.#options.certificateLifetimeMs ?? year),
      );
      return this.#write(
        stored,
        { bundle, caKey: stored.caKey, serving: pair },
        'issued a new webhook serving certificate',
      );
    }
    await this.#serve(serving);
    return 'done';
  }

  #servingUsable(serving: KeyPair, signer: string, now: number): boolean {
    try {
      const x509 = new X509Certificate(serving.cert);
      const names = (x509.subjectAltName ?? '').split(', ');
      return (
        x509.verify(new X509Certificate(signer).publicKey) &&
        renewalTime(serving.cert) > now &&
        this.#hosts.every((name) =>
          names.includes(isIP(name) === 0 ? `DNS:${name}` : `IP Address:${name}`),
        )
      );
    } catch {
      return false;
    }
  }

  async #read(): Promise<Stored> {
    const { client, namespace, names } = this.#options;
    let secret: KubernetesObject & { data?: Record<string, string> };
    try {
      secret = await client.get({
        apiVersion: 'v1',
        kind: 'Secret',
        namespace,
        name: names.secret,
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return {
        bundle: [],
        caKey: undefined,
        serving: undefined,
        resourceVersion: undefined,
        object: undefined,
      };
    }
    const field = (key: string) => {
      const value = secret.data?.[key];
      return value === undefined || value === ''
        ? undefined
        : Buffer.from(value, 'base64').toString('utf8');
    };
    const cert = field('tls.crt');
    const key = field('tls.key');
    return {
      bundle: splitPemCertificates(field('ca.crt') ?? ''),
      caKey: field('ca.key'),
      serving: cert !== undefined && key !== undefined ? { cert, key } : undefined,
      resourceVersion: secret.metadata?.resourceVersion,
      object: secret,
    };
  }

  /**
   * Creates or updates the Secret and logs `message` if this replica's write won; either way
   * `'retry'`, so the pass starts over from what is stored now.
   */
  async #write(
    stored: Stored,
    next: { bundle: string[]; caKey: string; serving: KeyPair | undefined },
    message: string,
  ): Promise<'retry'> {
    const { client, namespace, names } = this.#options;
    const data: Record<string, string> = {
      'ca.crt': base64(next.bundle.join('')),
      'ca.key': base64(next.caKey),
    };
    if (next.serving) {
      data['tls.crt'] = base64(next.serving.cert);
      data['tls.key'] = base64(next.serving.key);
    }
    try {
      if (stored.object === undefined) {
        await client.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: names.secret,
            namespace,
            labels: { 'app.kubernetes.io/managed-by': 'ops-self-managed-certificates' },
          },
          type: 'Opaque',
          data,
        } as KubernetesObject);
      } else {
        await client.update({ ...stored.object, data } as KubernetesObject);
      }
    } catch (error) {
      if (!isAlreadyExists(error) && !isConflict(error)) throw error;
      this.#log.debug({ secret: names.secret }, 'another replica wrote the Secret first');
      return 'retry';
    }
    this.#log.info(
      { secret: names.secret, cas: next.bundle.length, serving: next.serving !== undefined },
      message,
    );
    return 'retry';
  }

  /**
   * Sets `bundle` (from the Secret at `secretVersion`) as the CA bundle of every existing
   * target; `'retry'` when a target holds a newer CA than the bundle, once per Secret version.
   */
  async #inject(bundle: string[], secretVersion: string | undefined): Promise<'done' | 'retry'> {
    const { client } = this.#options;
    const caBundle = base64(bundle.join(''));
    const newest = Math.max(...bundle.map((pem) => validity(pem).notBefore));
    for (const target of this.#targets) {
      let object: KubernetesObject;
      try {
        object = await client.get({
          apiVersion: target.apiVersion,
          kind: target.kind,
          name: target.name,
        });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        this.#log.debug(
          { kind: target.kind, name: target.name },
          'no such object to inject the CA bundle into',
        );
        continue;
      }
      const configs = target.clientConfigs(object as unknown as Record<string, unknown>);
      if (configs.every((config) => config.caBundle === caBundle)) continue;
      const theirs = configs.flatMap((config) =>
        typeof config.caBundle === 'string'
          ? splitPemCertificates(Buffer.from(config.caBundle, 'base64').toString('utf8'))
          : [],
      );
      if (theirs.some((pem) => safeNotBefore(pem) > newest && !bundle.includes(pem))) {
        if (this.#deferredAt !== secretVersion) {
          // Another replica injected a newer CA than the Secret this one read: read again.
          this.#deferredAt = secretVersion;
          return 'retry';
        }
        // Read again and the Secret is the same: that CA is not ours (set by hand?).
        this.#log.warn(
          { kind: target.kind, name: target.name },
          'replacing a CA bundle that holds a CA the Secret does not know',
        );
      }
      for (const config of configs) config.caBundle = caBundle;
      try {
        await client.update(object);
      } catch (error) {
        if (isConflict(error)) return 'retry';
        throw error;
      }
      this.#log.info(
        { kind: target.kind, name: target.name, cas: bundle.length },
        'injected the webhook CA bundle',
      );
    }
    return 'done';
  }

  /** Writes the pair to the cert dir when it is not what this replica serves. */
  async #serve(serving: KeyPair): Promise<void> {
    const { certDir } = this.#options;
    const content = serving.cert + serving.key;
    if (this.#served === undefined) {
      const onDisk = await Promise.all([
        readFile(join(certDir, 'tls.crt'), 'utf8'),
        readFile(join(certDir, 'tls.key'), 'utf8'),
      ]).catch(() => undefined);
      if (onDisk !== undefined) this.#served = onDisk.join('');
    }
    if (this.#served === content) return;
    await mkdir(certDir, { recursive: true });
    // The key first: the watcher accepts only a matching pair, so a half-written pair is ignored.
    await writeAtomically(join(certDir, 'tls.key'), serving.key);
    await writeAtomically(join(certDir, 'tls.crt'), serving.cert);
    this.#served = content;
    this.#log.info(
      { certDir, validTo: new X509Certificate(serving.cert).validTo },
      'serving a new webhook certificate',
    );
    await this.#options.onServingCertificate?.();
  }
}

function injectionTargets(names: SelfManagedCertificateNames): InjectionTarget[] {
  const webhooks = (object: Record<string, unknown>) =>
    (Array.isArray(object.webhooks) ? (object.webhooks as Record<string, unknown>[]) : [])
      .map((webhook) => webhook.clientConfig)
      .filter(isJsonObject);
  const targets: InjectionTarget[] = [];
  const admission = 'admissionregistration.k8s.io/v1';
  if (names.mutatingConfiguration !== undefined) {
    targets.push({
      apiVersion: admission,
      kind: 'MutatingWebhookConfiguration',
      name: names.mutatingConfiguration,
      clientConfigs: webhooks,
    });
  }
  if (names.validatingConfiguration !== undefined) {
    targets.push({
      apiVersion: admission,
      kind: 'ValidatingWebhookConfiguration',
      name: names.validatingConfiguration,
      clientConfigs: webhooks,
    });
  }
  for (const name of names.customResourceDefinitions ?? []) {
    targets.push({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name,
      clientConfigs: (object) => {
        const conversion = isJsonObject(object.spec) ? object.spec.conversion : undefined;
        const webhook =
          isJsonObject(conversion) && conversion.strategy === 'Webhook'
            ? conversion.webhook
            : undefined;
        return isJsonObject(webhook) && isJsonObject(webhook.clientConfig)
          ? [webhook.clientConfig]
          : [];
      },
    });
  }
  return targets;
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function safeNotBefore(pem: string): number {
  try {
    return validity(pem).notBefore;
  } catch {
    return 0;
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, path);
}
