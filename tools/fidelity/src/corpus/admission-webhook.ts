import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificates } from '@ops/apiserver';

/** A running admission webhook of the corpus. */
export interface AdmissionWebhook {
  /** `https://127.0.0.1:<port><path>`. */
  url(path: '/validate' | '/mutate'): string;
  /** The CA that signed its serving certificate, base64 PEM (a webhook's `caBundle`). */
  caBundle: string;
  close(): Promise<void>;
}

interface AdmissionReview {
  request?: { uid?: string; object?: { metadata?: { labels?: Record<string, string> } } };
}

/**
 * Starts an HTTPS admission webhook on a free loopback port: `/validate` denies objects labelled
 * `deny: "yes"` and allows the rest; `/mutate` adds the label `mutated: "yes"` by JSONPatch
 * (to objects that have labels).
 */
export async function startAdmissionWebhook(): Promise<AdmissionWebhook> {
  const certificates = await createServingCertificates(['127.0.0.1']);
  const server = createServer(
    { cert: certificates.cert, key: certificates.key },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let review: AdmissionReview;
        try {
          review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReview;
        } catch {
          response.writeHead(400).end('not an AdmissionReview');
          return;
        }
        // kube-apiserver appends `?timeout=5s` to the URL.
        const path = new URL(request.url ?? '/', 'https://webhook').pathname;
        const labels = review.request?.object?.metadata?.labels;
        const verdict: Record<string, unknown> = { uid: review.request?.uid ?? '', allowed: true };
        if (path === '/validate' && labels?.deny === 'yes') {
          verdict.allowed = false;
          verdict.status = { code: 403, message: 'labelled deny=yes' };
        }
        if (path === '/mutate' && labels !== undefined) {
          verdict.patchType = 'JSONPatch';
          verdict.patch = Buffer.from(
            JSON.stringify([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]),
          ).toString('base64');
        }
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: verdict,
          }),
        );
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
