import { createPrivateKey, X509Certificate } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { WebhookCertificateError } from '../errors/webhook-certificate-error.js';

/** A serving certificate and its private key, checked to belong together. */
export interface ServingCertificate {
  /** PEM of the certificate (and any intermediates after it). */
  cert: string;
  /** PEM of the private key. */
  key: string;
  /** SHA-256 fingerprint of the leaf certificate, `AA:BB:...` as Node's `X509Certificate` prints it. */
  fingerprint256: string;
  /** End of validity of the leaf certificate, as Node's `X509Certificate.validTo` prints it. */
  validTo: string;
}

/** Options of a {@link CertWatcher}. */
export interface CertWatcherOptions {
  /** Directory holding the certificate and key. */
  certDir: string;
  /** File name of the PEM certificate in `certDir`. Default `tls.crt`. */
  certName?: string;
  /** File name of the PEM private key in `certDir`. Default `tls.key`. */
  keyName?: string;
  logger: Logger;
  /**
   * How often the files are re-read whatever `fs.watch` reports, in milliseconds: the
   * fallback for filesystems whose events are unreliable (network mounts, some container
   * volume drivers). Default 10 000.
   */
  pollIntervalMs?: number;
  /** Whether to watch `certDir` with `fs.watch` as well as polling. Default true. */
  watch?: boolean;
  /** How long to wait after a file event before re-reading, so both files are written. Default 100 ms. */
  debounceMs?: number;
  /**
   * What the certificate serves, in errors and logs: `webhook` (the default) or `metrics`,
   * read as "the <purpose> serving certificate".
   */
  purpose?: string;
  /** Called with each new valid pair after the first (the first is returned by `start`). */
  onChange?: (certificate: ServingCertificate) => void;
}

/**
 * Loads a TLS certificate and key from a directory and reloads them when they change, the
 * way kubelet updates a mounted Secret (an atomic swap of a `..data` symlink) or a tool
 * rewrites the files. Changes are noticed through `fs.watch` on the directory, debounced,
 * and by polling as a fallback.
 *
 * A new pair is installed only if the certificate parses, the key parses and belongs to the
 * certificate, and Node accepts both for TLS; otherwise the previous pair stays in use and an
 * error is logged (once per distinct problem, so polling does not flood the log).
 */
export class CertWatcher {
  /** Full path of the certificate file. */
  readonly certPath: string;
  /** Full path of the key file. */
  readonly keyPath: string;
  readonly #options: CertWatcherOptions;
  readonly #logger: Logger;
  readonly #purpose: string;
  #current: ServingCertificate | undefined;
  #lastFailure: string | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #running = false;

  constructor(options: CertWatcherOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.#purpose = options.purpose ?? 'webhook';
    this.certPath = join(options.certDir, options.certName ?? 'tls.crt');
    this.keyPath = join(options.certDir, options.keyName ?? 'tls.key');
  }

  /** The pair in use, `undefined` before `start` succeeded. */
  get current(): ServingCertificate | undefined {
    return this.#current;
  }

  /**
   * Loads the pair and starts watching for changes. Throws a {@link WebhookCertificateError}
   * if the directory does not exist (`CertDirMissing`), a file cannot be read
   * (`CertFileMissing`), or the pair is not valid (`InvalidCertificate`); nothing is watched
   * then.
   */
  async start(): Promise<ServingCertificate> {
    const { certDir } = this.#options;
    const dirStat = await stat(certDir).catch(() => undefined);
    if (dirStat === undefined || !dirStat.isDirectory()) {
      throw new WebhookCertificateError(
        'CertDirMissing',
        `${this.#purpose} serving certificate directory ${certDir} does not exist or is not a directory. ` +
          `Put the PEM certificate and key there as ${this.certPath} and ${this.keyPath}: in a ` +
          'cluster mount the TLS Secret (from cert-manager or your CA) at that path; locally run ' +
          `\`mkdir -p ${certDir} && openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=localhost ` +
          `-keyout ${this.keyPath} -out ${this.certPath}\`. Or set the certDir, certName and keyName options.`,
        certDir,
      );
    }
    const files = await this.#read().catch((cause: unknown) => {
      throw new WebhookCertificateError(
        'CertFileMissing',
        `cannot read the ${this.#purpose} serving certificate ${this.certPath} and key ${this.keyPath} (${messageOf(cause)}). ` +
          'Both must exist in the certificate directory; set certName and keyName if your files are named differently.',
        certDir,
        { cause },
      );
    });
    let certificate: ServingCertificate;
    try {
      certificate = this.#check(files.cert, files.key);
    } catch (cause) {
      throw new WebhookCertificateError(
        'InvalidCertificate',
        `${messageOf(cause)}. Write a PEM certificate to ${this.certPath} and its PEM private key to ${this.keyPath}.`,
        certDir,
        { cause },
      );
    }
    this.#current = certificate;
    this.#running = true;
    this.#ensureWatch();
    this.#poll = setInterval(() => {
      this.#ensureWatch();
      void this.reload();
    }, this.#options.pollIntervalMs ?? 10_000);
    this.#poll.unref();
    this.#logger.info(
      {
        certPath: this.certPath,
        fingerprint256: certificate.fingerprint256,
        validTo: certificate.validTo,
      },
      `loaded ${this.#purpose} serving certificate`,
    );
    return certificate;
  }

  /** Stops watching and polling. The last pair stays available through {@link current}. */
  stop(): void {
    this.#running = false;
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#poll !== undefined) clearInterval(this.#poll);
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    this.#poll = undefined;
    this.#debounce = undefined;
  }

  /**
   * Re-reads the files now. Resolves to true if a new valid pair was installed (and
   * `onChange` called), false if the files are unchanged or invalid (the previous pair is
   * kept and the problem logged). Never rejects; calls are serialised.
   */
  reload(): Promise<boolean> {
    const run = this.#chain.then(() => this.#reloadOnce());
    this.#chain = run;
    return run;
  }

  async #reloadOnce(): Promise<boolean> {
    if (!this.#running) return false;
    let files: { cert: string; key: string };
    let certificate: ServingCertificate;
    try {
      files = await this.#read();
      if (files.cert === this.#current?.cert && files.key === this.#current.key) {
        this.#lastFailure = undefined;
        return false;
      }
      certificate = this.#check(files.cert, files.key);
    } catch (error) {
      const message = messageOf(error);
      if (message !== this.#lastFailure) {
        this.#lastFailure = message;
        this.#logger.error(
          { err: error, certPath: this.certPath, keyPath: this.keyPath },
          `new ${this.#purpose} serving certificate rejected, keeping the previous one: ${message}`,
        );
      }
      return false;
    }
    if (!this.#running) return false;
    this.#lastFailure = undefined;
    this.#current = certificate;
    this.#logger.info(
      {
        certPath: this.certPath,
        fingerprint256: certificate.fingerprint256,
        validTo: certificate.validTo,
      },
      `reloaded ${this.#purpose} serving certificate`,
    );
    this.#options.onChange?.(certificate);
    return true;
  }

  async #read(): Promise<{ cert: string; key: string }> {
    const [cert, key] = await Promise.all([
      readFile(this.certPath, 'utf8'),
      readFile(this.keyPath, 'utf8'),
    ]);
    return { cert, key };
  }

  #check(cert: string, key: string): ServingCertificate {
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(cert);
    } catch (error) {
      throw new Error(`${this.certPath} is not a PEM certificate: ${messageOf(error)}`);
    }
    let privateKey: ReturnType<typeof createPrivateKey>;
    try {
      privateKey = createPrivateKey(key);
    } catch (error) {
      throw new Error(`${this.keyPath} is not a PEM private key: ${messageOf(error)}`);
    }
    if (!x509.checkPrivateKey(privateKey)) {
      throw new Error(
        `the private key ${this.keyPath} does not belong to the certificate ${this.certPath}`,
      );
    }
    try {
      createSecureContext({ cert, key });
    } catch (error) {
      throw new Error(
        `Node refuses ${this.certPath} and ${this.keyPath} for TLS: ${messageOf(error)}`,
      );
    }
    return { cert, key, fingerprint256: x509.fingerprint256, validTo: x509.validTo };
  }

  #ensureWatch(): void {
    if (!this.#running || this.#watcher !== undefined || this.#options.watch === false) return;
    try {
      const watcher = watch(this.#options.certDir, { persistent: false }, () => this.#schedule());
      watcher.on('error', (error) => {
        this.#logger.warn(
          { err: error, certDir: this.#options.certDir },
          `watching the ${this.#purpose} certificate directory failed; relying on polling until it can be watched again`,
        );
        watcher.close();
        if (this.#watcher === watcher) this.#watcher = undefined;
      });
      this.#watcher = watcher;
    } catch (error) {
      this.#logger.warn(
        { err: error, certDir: this.#options.certDir },
        `cannot watch the ${this.#purpose} certificate directory; relying on polling`,
      );
    }
  }

  #schedule(): void {
    if (!this.#running) return;
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.reload();
    }, this.#options.debounceMs ?? 100);
    this.#debounce.unref();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
