import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificates } from '@ops/apiserver';

/** A running HTTPS webhook of the corpus, on a free loopback port. */
export interface HttpsWebhook {
  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** The CA that signed its serving certificate, base64 PEM (a `caBundle`). */
  caBundle: string;
  close(): Promise<void>;
}

/** What a webhook answers: a status (default 200) and a JSON value or a raw text. */
export interface WebhookAnswer {
  status?: number;
  body: unknown;
}

/**
 * Serves `answer` over HTTPS on 127.0.0.1 with a certificate of a fresh CA: each request's
 * path (without the `?timeout=` kube-apiserver adds) and its body parsed as JSON (undefined
 * when it is not JSON); a string body is sent as it is, anything else as JSON.
 */
export async function startHttpsWebhook(
  answer: (path: string, body: unknown) => WebhookAnswer,
): Promise<HttpsWebhook> {
  const certificates = await createServingCertificates(['127.0.0.1']);
  const server = createServer(
    { cert: certificates.cert, key: certificates.key },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const path = new URL(request.url ?? '/', 'https://webhook').pathname;
        const { status = 200, body: reply } = answer(path, body);
        response
          .writeHead(status, { 'Content-Type': 'application/json' })
          .end(typeof reply === 'string' ? reply : JSON.stringify(reply));
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(certificates.caCert).toString('base64'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
