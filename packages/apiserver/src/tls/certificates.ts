import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { generate } from 'selfsigned';

/** A CA and a serving certificate it signed, PEM-encoded. */
export interface ServingCertificates {
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
}

/**
 * Creates a throwaway CA (or uses `existingCa`, PEM) and a serving certificate it signs for
 * `hosts` (DNS names and IP addresses), valid for a year. For local servers and tests only: the keys never leave memory
 * unless the caller writes them.
 */
export async function createServingCertificates(
  hosts: readonly string[] = ['localhost', '127.0.0.1', '::1'],
  existingCa?: { cert: string; key: string },
): Promise<ServingCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 365 * 24 * 3600 * 1000);
  const ca =
    existingCa !== undefined
      ? { cert: existingCa.cert, private: existingCa.key }
      : await generate([{ name: 'commonName', value: 'ops-local-ca' }], {
          keyType: 'ec',
          algorithm: 'sha256',
          notBeforeDate,
          notAfterDate,
          extensions: [
            { name: 'basicConstraints', cA: true, critical: true },
            {
              name: 'keyUsage',
              keyCertSign: true,
              cRLSign: true,
              digitalSignature: true,
              critical: true,
            },
          ],
        });
  const altNames = hosts.map((host) =>
    /^[\d.]+$|:/.test(host) ? { type: 7 as const, ip: host } : { type: 2 as const, value: host },
  );
  const serving = await generate([{ name: 'commonName', value: hosts[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { caCert: ca.cert, caKey: ca.private, cert: serving.cert, key: serving.private };
}

/**
 * The names a server listening on `host` is reached by, which its generated serving
 * certificate covers: `localhost`, `host` (`127.0.0.1` for `0.0.0.0`), `127.0.0.1` and `::1`.
 */
export function servingHosts(host: string): string[] {
  return ['localhost', host === '0.0.0.0' ? '127.0.0.1' : host, '127.0.0.1', '::1'];
}

/**
 * The HTTP server of the API server: HTTPS with `certificates` (or, when absent, a new pair
 * valid for localhost, `host` and the loopback addresses), or plain HTTP when `useHttps` is
 * false (`certificates` then undefined).
 */
export async function createHttpServer(
  useHttps: boolean,
  host: string,
  certificates: ServingCertificates | undefined,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: http.Server | https.Server; certificates: ServingCertificates | undefined }> {
  if (!useHttps) return { server: http.createServer(handler), certificates: undefined };
  const pair = certificates ?? (await createServingCertificates(servingHosts(host)));
  return {
    server: https.createServer({ cert: pair.cert, key: pair.key }, handler),
    certificates: pair,
  };
}
