import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { copyFixture, removeCopies } from '../test/fixture-operator.js';
import { ensureLocalCertificates, localWebhookHosts } from './local-certificates.js';
import { readOperatorProject } from './operator-project.js';
import { certificatesUsable } from './serving-certificates.js';

afterAll(removeCopies);

it('covers the loopback names and the webhook Service of the operator, plus extra hosts', () => {
  const project = readOperatorProject(copyFixture());
  expect(localWebhookHosts(project, ['192.0.2.1', 'localhost'])).toEqual([
    'localhost',
    '127.0.0.1',
    '::1',
    'sample-webhook-service.sample-system.svc',
    'sample-webhook-service.sample-system.svc.cluster.local',
    '192.0.2.1',
  ]);
});

it('covers only the loopback names for an operator without webhooks', () => {
  const root = copyFixture();
  writeFileSync(join(root, 'config/webhook/manifests.yaml'), '');
  expect(localWebhookHosts(readOperatorProject(root))).toEqual(['localhost', '127.0.0.1', '::1']);
});

it('keeps them in the operator .cache by default', async () => {
  const project = readOperatorProject(copyFixture());
  const certs = await ensureLocalCertificates(project);
  expect(certs.dir).toBe(join(project.root, '.cache/k8s-webhook-server/serving-certs'));
  expect(certificatesUsable(certs, localWebhookHosts(project))).toBe(true);
});
