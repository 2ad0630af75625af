import { ensureClusterWebhookSecret } from '../cluster-webhook-secret.js';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { kustomize } from '../kubectl.js';
import { requireWebhooks } from '../operator-project.js';
import {
  selfManagedCertificatesFlag,
  usesSelfManagedCertificates,
} from '../self-managed-certificates.js';
import { parseVerbOptions, type Verb } from '../verb.js';
import { patchCaBundle } from '../webhook-ca-bundle.js';
import { noCertManagerOverlay } from './webhook-local.js';

export const webhookCertsVerb: Verb = {
  name: 'webhook-certs',
  summary: 'without cert-manager: make sure the webhook Secret exists and set the caBundles',
  help: `Usage: ops-operator webhook-certs [--namespace <ns>]

The manual step of installing without cert-manager, after
kubectl apply -k config/default-no-certmanager: makes sure the operator's webhook Secret
(kubernetes.io/tls, with ca.crt) holds a CA and a certificate for the webhook Service, and
sets that CA as the caBundle of the webhook configurations and of the conversion webhook of
each CRD (config/crd/bases) that converts through it. A valid Secret is kept; one that
expires within 30 days, or does not cover the Service, is replaced.
(ops-operator deploy --without-cert-manager does all of it in one go.)

An operator whose config/default-no-certmanager runs it with
--webhook-cert-mode=self-managed makes its own certificates: webhook-certs then stops and
says so, as there is nothing for it to do.

Options:
  --namespace <ns>   where the Secret goes (default: config/default's namespace)`,
  async run(argv, context) {
    const { namespace } = parseVerbOptions(this, argv, { namespace: { type: 'string' } });
    const project = context.project();
    const webhooks = requireWebhooks(project);
    if (
      usesSelfManagedCertificates(await kustomize(project.root, noCertManagerOverlay, context.env))
    ) {
      throw new OperatorCliError(
        `${project.name} makes its own webhook certificates (${noCertManagerOverlay} runs it with ${selfManagedCertificatesFlag}): there is no Secret or caBundle to set. To rotate them now, delete ca.key (a new CA) or tls.crt (a new serving certificate) from the Secret the operator keeps in its namespace.`,
      );
    }
    const { caCert, created } = await ensureClusterWebhookSecret(project, {
      env: context.env,
      ...(namespace === undefined ? {} : { namespace }),
    });
    const patched = await patchCaBundle(caCert, webhooks, context.env);
    context.stdout(
      `${created ? 'created' : 'kept'} Secret ${webhooks.secret}; caBundle set on ${patched.length > 0 ? patched.join(', ') : 'nothing (no webhook configuration or conversion CRD in the cluster)'}\n`,
    );
    return 0;
  },
};
