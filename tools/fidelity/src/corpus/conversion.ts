import { createServer } from 'node:net';
import type {
  Answer,
  CompareOptions,
  FidelityRequest,
  FidelityScenario,
  Session,
} from '../scenario.js';
import { type RunningConversionWebhook, startConversionWebhook } from './conversion-webhook.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';
import { useCustomResourceDefinition, widgetGroup } from './widget-crd.js';

const ns = 'fidelity-conversion';
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The collection of `plural` at `version` in the scenario's namespace. */
const collection = (plural: string, version: string) =>
  `/apis/${widgetGroup}/${version}/namespaces/${ns}/${plural}`;

const stringProperty = { type: 'string' };
const portProperty = { type: 'integer' };

/**
 * A CRD whose `v1beta1` (`spec.image`, `spec.port`) and `v1` (`spec.container`) differ, `v1`
 * stored, converted by a webhook at `url`.
 */
function conversionCrd(plural: string, kind: string, url: string, caBundle: string) {
  const version = (name: string, spec: Record<string, unknown>, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: spec } },
      },
    },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${widgetGroup}` },
    spec: {
      group: widgetGroup,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        version('v1beta1', { image: stringProperty, port: portProperty }, false),
        version(
          'v1',
          {
            container: {
              type: 'object',
              properties: { image: stringProperty, port: portProperty },
            },
          },
          true,
        ),
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ['v1'] },
      },
    },
  };
}

/** A Gadget (or `kind`) in `version`'s shape. */
function gadget(
  version: 'v1beta1' | 'v1',
  name: string,
  image: string,
  labels: Record<string, string> = {},
  kind = 'Gadget',
) {
  return {
    apiVersion: `${widgetGroup}/${version}`,
    kind,
    // No empty `labels`: kube-apiserver drops an empty map of a custom resource, the local
    // server keeps it (a difference the custom-resource scenarios already show).
    metadata: { name, ...(Object.keys(labels).length > 0 ? { labels } : {}) },
    spec: version === 'v1' ? { container: { image, port: 8080 } } : { image, port: 8080 },
  };
}

/** The URL and CA of this run's webhook differ by server; the rest of the CRD is compared. */
const ownWebhook: CompareOptions = {
  mask: [
    'body.spec.conversion.webhook.clientConfig.url',
    'body.spec.conversion.webhook.clientConfig.caBundle',
  ],
};

/**
 * A conversion error quotes the object's revision (`object not decodable revision=N`), which
 * differs by server as resourceVersions do, and may quote the webhook's port, which differs
 * by run.
 */
const revisionMasked: CompareOptions = {
  select: (body) =>
    JSON.parse(
      JSON.stringify(body)
        .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
        .replace(/revision=\d+/g, 'revision=<rv>'),
    ) as unknown,
};

/** Sends `request` unrecorded and throws unless it succeeded (setup the scenario relies on). */
async function setUp(session: Session, request: FidelityRequest): Promise<Answer> {
  const answer = await session.probe(request);
  if (answer.status >= 300)
    throw new Error(
      `conversion scenario: ${request.method} ${request.path} answered ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  return answer;
}

/**
 * Waits, without recording, until a dry-run create in `v1beta1` comes back converted by the
 * webhook (kube-apiserver builds a CRD's converter moments after the CRD is stored).
 */
async function waitUntilConverting(session: Session): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await session.probe({
      method: 'POST',
      path: `${collection('gadgets', 'v1beta1')}?dryRun=All`,
      body: gadget('v1beta1', 'probe', 'probe:1'),
    });
    const spec = (answer.body as { spec?: { image?: string } }).spec;
    if (answer.status === 201 && spec?.image === 'probe:1') return;
    if (Date.now() > deadline)
      throw new Error(
        `the conversion webhook was not called within 30 s: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A loopback port nothing listens on (taken and released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Conversion-webhook failure modes, each read back in `v1beta1` from an object stored in `v1`. */
const failureModes = [
  'fail',
  'garbage',
  'wrong-uid',
  'drop',
  'rename',
  'stay',
  'rekind',
  'relabel',
] as const;

async function converting(session: Session, webhook: RunningConversionWebhook): Promise<void> {
  const v1beta1 = collection('gadgets', 'v1beta1');
  const v1 = collection('gadgets', 'v1');
  await session.send(
    'create the CRD with a conversion webhook',
    {
      method: 'POST',
      path: crds,
      body: conversionCrd('gadgets', 'Gadget', webhook.url, webhook.caBundle),
    },
    ownWebhook,
  );
  await useCustomResourceDefinition(
    session,
    conversionCrd('gadgets', 'Gadget', webhook.url, webhook.caBundle),
    v1,
  );
  await waitUntilConverting(session);
  const listed = await session.send('list in v1, empty', { method: 'GET', path: v1 });
  const created = await session.send('create in v1beta1', {
    method: 'POST',
    path: v1beta1,
    body: gadget('v1beta1', 'one', 'nginx:1'),
  });
  await session.send('get in v1', { method: 'GET', path: `${v1}/one` });
  await session.send('get in v1beta1', { method: 'GET', path: `${v1beta1}/one` });
  await session.send('create in v1', {
    method: 'POST',
    path: v1,
    body: gadget('v1', 'two', 'redis:7'),
  });
  await session.send('list in v1beta1', { method: 'GET', path: v1beta1 });
  await session.send('list in v1', { method: 'GET', path: v1 });
  await session.send('update in v1beta1', {
    method: 'PUT',
    path: `${v1beta1}/one`,
    body: {
      ...gadget('v1beta1', 'one', 'nginx:2'),
      metadata: { name: 'one', resourceVersion: resourceVersionOf(created) },
    },
  });
  await session.send('merge patch in v1beta1', {
    method: 'PATCH',
    path: `${v1beta1}/one`,
    body: { spec: { port: 9090 } },
    contentType: 'application/merge-patch+json',
  });
  await session.send('get in v1 after the v1beta1 writes', { method: 'GET', path: `${v1}/one` });
  const from = resourceVersionOf(listed);
  await session.send('watch in v1beta1', {
    method: 'GET',
    path: `${v1beta1}?watch=true&resourceVersion=${from}&timeoutSeconds=1`,
    stream: true,
  });
  await session.send('watch in v1', {
    method: 'GET',
    path: `${v1}?watch=true&resourceVersion=${from}&timeoutSeconds=1`,
    stream: true,
  });
  await session.send(
    'create in v1beta1, the webhook fails',
    {
      method: 'POST',
      path: v1beta1,
      body: gadget('v1beta1', 'refused', 'nginx:1', { answer: 'fail' }),
    },
    revisionMasked,
  );
  await session.send('get in v1 after the failed create', {
    method: 'GET',
    path: `${v1}/refused`,
  });
  await session.send(
    'create in v1beta1, converting the answer back fails',
    {
      method: 'POST',
      path: v1beta1,
      body: gadget('v1beta1', 'stored', 'nginx:1', { answer: 'fail', 'answer-to': 'v1beta1' }),
    },
    revisionMasked,
  );
  await session.send('get in v1 after the failed answer', { method: 'GET', path: `${v1}/stored` });
  await setUp(session, { method: 'DELETE', path: `${v1}/stored` });
  for (const mode of failureModes) {
    await setUp(session, {
      method: 'POST',
      path: v1,
      body: gadget('v1', mode, 'nginx:1', { answer: mode, 'answer-to': 'v1beta1' }),
    });
    await session.send(
      `get in v1beta1, the webhook answers ${mode}`,
      {
        method: 'GET',
        path: `${v1beta1}/${mode}`,
      },
      revisionMasked,
    );
  }
  await session.send(
    'list in v1beta1, one object fails',
    { method: 'GET', path: v1beta1 },
    revisionMasked,
  );
  await session.send('get in v1 still works', { method: 'GET', path: `${v1}/fail` });
}

async function unreachable(session: Session, caBundle: string): Promise<void> {
  const url = `https://127.0.0.1:${await closedPort()}/convert`;
  const v1beta1 = collection('sprockets', 'v1beta1');
  const v1 = collection('sprockets', 'v1');
  await useCustomResourceDefinition(
    session,
    conversionCrd('sprockets', 'Sprocket', url, caBundle),
    v1,
  );
  await session.send('create in v1, the webhook unreachable', {
    method: 'POST',
    path: v1,
    body: gadget('v1', 'kept', 'nginx:1', {}, 'Sprocket'),
  });
  await session.send(
    'get in v1beta1, the webhook unreachable',
    { method: 'GET', path: `${v1beta1}/kept` },
    revisionMasked,
  );
  await session.send(
    'create in v1beta1, the webhook unreachable',
    { method: 'POST', path: v1beta1, body: gadget('v1beta1', 'lost', 'nginx:1', {}, 'Sprocket') },
    revisionMasked,
  );
  await session.send('list in v1, nothing lost', { method: 'GET', path: v1 });
}

async function storedVersions(session: Session): Promise<void> {
  const crd = `${crds}/gadgets.${widgetGroup}`;
  const versionsOf: CompareOptions = {
    select: (body) => {
      const object = body as {
        kind?: string;
        spec?: { versions?: Array<{ name: string; storage: boolean }> };
        status?: { storedVersions?: string[] };
        message?: string;
      };
      return object.kind === 'Status'
        ? body
        : {
            storage: object.spec?.versions?.map((v) => `${v.name}:${v.storage}`),
            storedVersions: object.status?.storedVersions,
          };
    },
  };
  await session.send('the CRD stores v1', { method: 'GET', path: crd }, versionsOf);
  await session.send(
    'switch the storage version to v1beta1',
    {
      method: 'PATCH',
      path: crd,
      body: [
        { op: 'replace', path: '/spec/versions/0/storage', value: true },
        { op: 'replace', path: '/spec/versions/1/storage', value: false },
      ],
      contentType: 'application/json-patch+json',
    },
    versionsOf,
  );
  await session.send(
    'drop the storage version from storedVersions',
    {
      method: 'PATCH',
      path: `${crd}/status`,
      body: { status: { storedVersions: ['v1'] } },
      contentType: 'application/merge-patch+json',
    },
    versionsOf,
  );
  await session.send(
    'drop an unknown version into storedVersions',
    {
      method: 'PATCH',
      path: `${crd}/status`,
      body: { status: { storedVersions: ['v1beta1', 'v2'] } },
      contentType: 'application/merge-patch+json',
    },
    versionsOf,
  );
  await session.send(
    'drop v1 from storedVersions',
    {
      method: 'PATCH',
      path: `${crd}/status`,
      body: { status: { storedVersions: ['v1beta1'] } },
      contentType: 'application/merge-patch+json',
    },
    versionsOf,
  );
}

/** Custom resources served at two versions and converted by a webhook. */
export const conversion: FidelityScenario = {
  name: 'custom-resource/conversion',
  description:
    'A CRD with a conversion webhook: writes and reads in either version, lists, watches, the webhook failing in each way kube-apiserver checks, the webhook unreachable, storedVersions',
  async run(session) {
    await useNamespace(session, ns);
    const webhook = await startConversionWebhook();
    try {
      await converting(session, webhook);
      await unreachable(session, webhook.caBundle);
      await storedVersions(session);
    } finally {
      await webhook.close();
    }
  },
};
