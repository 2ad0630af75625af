import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { httpRequest } from './http-request.js';

const rbac = 'rbac.authorization.k8s.io';
const tokenReviews = '/apis/authentication.k8s.io/v1/tokenreviews';

let server: ApiServer;

async function asAdmin(method: string, path: string, body?: unknown) {
  const answer = await httpRequest(server, method, path, { token: server.adminToken, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

const review = (asToken: string, spec: Record<string, unknown>) =>
  httpRequest(server, 'POST', tokenReviews, {
    token: asToken,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec },
  });

// The TokenReview API, as kube-apiserver answers it to servers that delegate authentication
// (controller-runtime's secured metrics): whether a token authenticates, and as whom.
describe('TokenReview', () => {
  let delegator: string;
  let scraper: string;
  let scraperUid: string;

  beforeAll(async () => {
    server = await ApiServer.start({ rbac: true, cluster: false });
    await asAdmin('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    for (const name of ['operator', 'prometheus'])
      await asAdmin('POST', '/api/v1/namespaces/team/serviceaccounts', { metadata: { name } });
    await asAdmin('POST', `/apis/${rbac}/v1/clusterroles`, {
      metadata: { name: 'metrics-auth-role' },
      rules: [
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      ],
    });
    await asAdmin('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
      metadata: { name: 'metrics-auth-rolebinding' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'metrics-auth-role' },
      subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: 'team' }],
    });
    const issue = async (name: string) =>
      (
        await asAdmin('POST', `/api/v1/namespaces/team/serviceaccounts/${name}/token`, {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: {},
        })
      ).status.token as string;
    delegator = await issue('operator');
    scraper = await issue('prometheus');
    scraperUid = (await asAdmin('GET', '/api/v1/namespaces/team/serviceaccounts/prometheus'))
      .metadata.uid;
  });

  afterAll(async () => {
    await server.stop();
  });

  it('is served in discovery with create only', async () => {
    const discovery = await asAdmin('GET', '/apis/authentication.k8s.io/v1');
    expect(discovery.resources).toContainEqual(
      expect.objectContaining({
        name: 'tokenreviews',
        kind: 'TokenReview',
        namespaced: false,
        verbs: ['create'],
      }),
    );
  });

  it('says who a valid token is: name, uid, groups, extra, and the audience', async () => {
    const answer = await review(delegator, { token: scraper });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: scraper },
      status: {
        authenticated: true,
        user: {
          username: 'system:serviceaccount:team:prometheus',
          uid: scraperUid,
          groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
        },
      },
    });
    expect(answer.body.status.user.extra['authentication.kubernetes.io/credential-id']).toEqual([
      expect.stringMatching(/^JTI=/),
    ]);
    expect(answer.body.status.audiences).toHaveLength(1);
  });

  it('answers unauthenticated for an unknown token, an empty one, or another audience', async () => {
    for (const spec of [
      { token: 'forged' },
      {},
      { token: scraper, audiences: ['https://elsewhere.example'] },
    ]) {
      const answer = await review(delegator, spec);
      expect(answer.status).toBe(201);
      expect(answer.body.status.authenticated).toBeUndefined();
      expect(answer.body.status.user).toEqual({});
      expect(answer.body.status.error).toMatch(/^\[(invalid bearer token|token audiences .*)\]$/);
    }
  });

  it('is refused to a user without create on tokenreviews', async () => {
    const answer = await review(scraper, { token: delegator });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toContain(
      'cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
  });
});
