// The manual steps of installing without cert-manager, after
// `kubectl apply -k config/default-no-certmanager`: make sure the Secret
// webhook-server-cert (in application-operator-system) holds a CA and a certificate for the
// webhook Service, and set that CA as the caBundle of both webhook configurations.
// `pnpm run deploy --without-cert-manager` does all of it in one go.
import { ensureClusterWebhookSecret, patchCaBundle } from './certificates.mjs';
import { deployment, runIfMain, ScriptError, scriptArgs, takeOption } from './common.mjs';

runIfMain(import.meta.url, async () => {
  const { value: namespace, rest } = takeOption(scriptArgs(), 'namespace');
  if (rest.length > 0)
    throw new ScriptError(
      `unknown argument(s): ${rest.join(' ')}; usage: node scripts/webhook-certs.mjs [--namespace <ns>]`,
    );
  const { caCert, created } = await ensureClusterWebhookSecret({
    namespace: namespace ?? deployment.namespace,
  });
  await patchCaBundle(caCert);
  console.log(
    `${created ? 'created' : 'kept'} Secret ${deployment.webhookSecret}; caBundle set on ${deployment.mutatingWebhookConfiguration} and ${deployment.validatingWebhookConfiguration}`,
  );
  return 0;
});
