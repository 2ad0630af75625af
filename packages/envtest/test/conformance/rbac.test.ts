import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
let operatorKubeconfig: string;
beforeAll(async () => {
  cluster = await startCluster({ apiServer: { rbac: true } });
  const dir = await mkdtemp(join(tmpdir(), 'rbac-'));
  operatorKubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    operatorKubeconfig,
    await cluster.env.serviceAccountKubeconfig('default', 'operator'),
  );
});
afterAll(async () => {
  await cluster.stop();
});

const asOperator = (args: string[]) => cluster.kubectl(args, { kubeconfig: operatorKubeconfig });

describe('RBAC, through the real kubectl', () => {
  it('denies what no rule allows, naming user, verb, resource and group', async () => {
    await expect(asOperator(['get', 'deployments'])).rejects.toThrow(
      'Error from server (Forbidden): deployments.apps is forbidden: User "system:serviceaccount:default:operator" cannot list resource "deployments" in API group "apps" in the namespace "default"',
    );
    await expect(asOperator(['auth', 'can-i', 'list', 'deployments.apps'])).rejects.toThrow(/no/);
  });

  it('allows what a Role grants, in its namespace only', async () => {
    await cluster.kubectl([
      'create',
      'role',
      'deployments-reader',
      '--verb=get,list,watch',
      '--resource=deployments.apps',
    ]);
    await cluster.kubectl([
      'create',
      'rolebinding',
      'operator-reads',
      '--role=deployments-reader',
      '--serviceaccount=default:operator',
    ]);
    expect((await asOperator(['auth', 'can-i', 'list', 'deployments.apps'])).trim()).toBe('yes');
    expect(
      (
        await asOperator(['auth', 'can-i', 'list', 'deployments.apps', '-n', 'kube-system']).catch(
          (error: Error) => error.message,
        )
      ).trim(),
    ).toBe('no');
    expect(
      (
        await asOperator(['auth', 'can-i', 'delete', 'deployments.apps']).catch(
          (error: Error) => error.message,
        )
      ).trim(),
    ).toBe('no');
    // "No resources found" goes to stderr; the list itself is empty and allowed.
    expect(await asOperator(['get', 'deployments', '-o', 'name'])).toBe('');
  });

  it('lists the rules of the current user', async () => {
    const rules = await asOperator(['auth', 'can-i', '--list']);
    expect(rules).toMatch(/deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]/);
    expect(rules).toContain('selfsubjectaccessreviews.authorization.k8s.io');
  });
});
