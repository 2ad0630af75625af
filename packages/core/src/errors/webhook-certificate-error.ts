const marker = Symbol.for('@ops/core.WebhookCertificateError');

/** Why the webhook server's serving certificate could not be used. */
export type WebhookCertificateErrorReason =
  /** The certificate directory does not exist or is not a directory. */
  | 'CertDirMissing'
  /** The certificate or key file is missing or unreadable. */
  | 'CertFileMissing'
  /** The files are readable but are not a PEM certificate and a matching private key. */
  | 'InvalidCertificate';

/**
 * The webhook server could not load its TLS serving certificate when starting. (Later
 * rotations that fail are logged and the previous certificate is kept, so they never throw.)
 *
 * `message` names the directory or files and how to provide them; `certDir` is the directory
 * searched. Recognise it with {@link WebhookCertificateError.isInstance}, which works even
 * when two copies of `@ops/core` are loaded.
 */
export class WebhookCertificateError extends Error {
  readonly [marker] = true;
  override readonly name = 'WebhookCertificateError';

  constructor(
    readonly reason: WebhookCertificateErrorReason,
    message: string,
    /** The directory the certificate and key were looked for in. */
    readonly certDir: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is WebhookCertificateError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
