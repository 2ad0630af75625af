// The seeds' YAML applies unchanged: OPERATORS.md's sample Application, character for
// character, and variants leaving out what the tutorial's API leaves optional (`enabled`,
// `image`), applied with the real kubectl on the control plane of `pnpm test` (the local API
// server) or `pnpm test:binaries` (etcd + kube-apiserver), the operator running as its
// ServiceAccount under its generated RBAC: with its webhooks (the mutating one fills
// `enabled`, the validating one refuses a missing image with OPERATORS.md's message), and
// without them (the reconciler reports a missing image on the Application instead).
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlledBy, gone, OperatorHarness, readyCondition } from './operator-harness.js';

/** OPERATORS.md's sample, verbatim. */
const operatorsMdSample = `apiVersion: core.crd.lixueduan.com/v1
kind: Application
metadata: {name: demo, namespace: default}
spec: {enabled: true, image: 'nginx:1.22'}
`;

/** The sample under another name with another spec (a flow mapping, as the sample's). */
const variant = (name: string, spec: string) =>
  `apiVersion: core.crd.lixueduan.com/v1\nkind: Application\nmetadata: {name: ${name}, namespace: default}\nspec: ${spec}\n`;

/** What kubectl prints when the validating webhook refuses a missing or empty image. */
const deniedEmptyImage =
  'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: ';

/** kubectl apply of `yaml` on stdin: stdout, or the error's message (kubectl's stderr). */
const apply = (harness: OperatorHarness, yaml: string) =>
  harness.kubectl(['apply', '-f', '-'], yaml).then(
    (stdout) => stdout,
    (error: Error) => `refused: ${error.message}`,
  );

describe("the seeds' YAML with the operator's webhooks", () => {
  let harness: OperatorHarness;
  beforeAll(async () => {
    harness = await OperatorHarness.start();
    await harness.startOperator();
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
  });

  it("OPERATORS.md's sample: created, and reconciled to its Deployment app-demo running nginx:1.22", async () => {
    expect(await apply(harness, operatorsMdSample)).toBe(
      'application.core.crd.lixueduan.com/demo created\n',
    );
    const app = await eventually(async () => {
      const current = await harness.application('demo');
      return current.status?.observedGeneration === current.metadata.generation && current;
    });
    expect(app.metadata.finalizers).toEqual(['lixueduan.com/application']);
    const deployment = await harness.deployment('demo');
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.22');
    expect(deployment.metadata.ownerReferences).toEqual(controlledBy(app));
  });

  it('without enabled: the mutating webhook fills enabled: true, and the Deployment runs', async () => {
    expect(await apply(harness, variant('no-enabled', "{image: 'nginx:1.22'}"))).toBe(
      'application.core.crd.lixueduan.com/no-enabled created\n',
    );
    expect((await harness.application('no-enabled')).spec.enabled).toBe(true);
    const deployment = await eventually(() =>
      harness.deployment('no-enabled').catch(() => false as const),
    );
    expect(deployment.spec?.replicas).toBe(1);
  });

  it('without image, or with every optional field left out: refused with "invalid image name: "', async () => {
    for (const [name, spec] of [
      ['no-image', '{enabled: true}'],
      ['bare', '{}'],
    ] as const) {
      const refused = await apply(harness, variant(name, spec));
      expect(refused.startsWith('refused: '), refused).toBe(true);
      expect(refused.endsWith(deniedEmptyImage), refused).toBe(true);
      expect(await gone(() => harness.application(name))).toBe(true);
    }
  });
});

describe("the seeds' YAML without webhooks (--disable-webhooks): the reconciler alone", () => {
  let harness: OperatorHarness;
  beforeAll(async () => {
    harness = await OperatorHarness.start({ webhooks: false });
    await harness.startOperator();
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
  });

  it('without image: stored, Ready=False MissingImage naming spec.image, no Deployment; then the image makes one', async () => {
    expect(await apply(harness, variant('demo', '{enabled: true}'))).toBe(
      'application.core.crd.lixueduan.com/demo created\n',
    );
    const reported = await eventually(async () => {
      const current = await harness.application('demo');
      return readyCondition(current)?.reason === 'MissingImage' && current;
    });
    expect(reported.status?.ready).toBe(false);
    expect(reported.status?.observedGeneration).toBe(reported.metadata.generation);
    expect(readyCondition(reported)).toMatchObject({
      status: 'False',
      message:
        'spec.image is not set: set spec.image to the container image to run (for example nginx:1.22); until then Deployment app-demo is neither created nor changed',
    });
    expect(await gone(() => harness.deployment('demo'))).toBe(true);

    // The sample itself, applied over it, brings the image: the Deployment follows.
    expect(await apply(harness, operatorsMdSample)).toBe(
      'application.core.crd.lixueduan.com/demo configured\n',
    );
    const deployment = await eventually(() =>
      harness.deployment('demo').catch(() => false as const),
    );
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.22');
    const fixed = await eventually(async () => {
      const current = await harness.application('demo');
      return current.status?.observedGeneration === current.metadata.generation && current;
    });
    expect(readyCondition(fixed)?.reason).not.toBe('MissingImage');
  });

  it('with every optional field left out (spec: {}): the same report, and no Deployment', async () => {
    expect(await apply(harness, variant('bare', '{}'))).toBe(
      'application.core.crd.lixueduan.com/bare created\n',
    );
    const reported = await eventually(async () => {
      const current = await harness.application('bare');
      return readyCondition(current)?.reason === 'MissingImage' && current;
    });
    // The schema's own default fills enabled (no webhook needed for that).
    expect(reported.spec).toEqual({ enabled: true });
    expect(await gone(() => harness.deployment('bare'))).toBe(true);
  });

  it('without enabled: runs one replica, as enabled: true', async () => {
    await apply(harness, variant('no-enabled', "{image: 'nginx:1.22'}"));
    const deployment = await eventually(() =>
      harness.deployment('no-enabled').catch(() => false as const),
    );
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.22');
  });
});
