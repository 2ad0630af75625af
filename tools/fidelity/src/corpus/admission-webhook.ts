import { type HttpsWebhook, startHttpsWebhook } from './https-webhook.js';

/** A running admission webhook of the corpus. */
export interface AdmissionWebhook extends HttpsWebhook {
  /** `https://127.0.0.1:<port><path>`. */
  url(path: '/validate' | '/mutate'): string;
}

interface AdmissionReview {
  request?: { uid?: string; object?: { metadata?: { labels?: Record<string, string> } } };
}

/**
 * Starts an HTTPS admission webhook on a free loopback port: `/validate` denies objects labelled
 * `deny: "yes"` and allows the rest; `/mutate` adds the label `mutated: "yes"` by JSONPatch
 * (to objects that have labels).
 */
export function startAdmissionWebhook(): Promise<AdmissionWebhook> {
  return startHttpsWebhook((path, body) => {
    if (body === undefined) return { status: 400, body: 'not an AdmissionReview' };
    const review = body as AdmissionReview;
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
    return {
      body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: verdict },
    };
  });
}
