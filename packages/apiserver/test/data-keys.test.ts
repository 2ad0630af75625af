import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectRefusal, rawRequest } from './raw-http.js';

// ConfigMap and Secret keys become file names when a volume mounts them: kube-apiserver
// refuses any that could step out of the mount (`/`, `..`), with IsConfigMapKey's messages.
let server: ApiServer;
const configMaps = '/api/v1/namespaces/default/configmaps';
const secrets = '/api/v1/namespaces/default/secrets';
const keyMessage =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
});
afterAll(async () => {
  await server.stop();
});

const refuse = (path: string, body: unknown, message: string, kind: string, name: string) =>
  expectRefusal(
    server,
    {
      method: 'POST',
      path,
      body: JSON.stringify(body),
      code: 422,
      message: `${kind} "${name}" is invalid: ${message}`,
    },
    [configMaps],
  );

describe('ConfigMap keys', () => {
  it.each([
    ['a/b', `data[a/b]: Invalid value: "a/b": ${keyMessage}`],
    [
      '../etc',
      `[data[../etc]: Invalid value: "../etc": ${keyMessage}, data[../etc]: Invalid value: "../etc": must not start with '..']`,
    ],
    ['..', `data[..]: Invalid value: "..": must not be '..'`],
    ['.', `data[.]: Invalid value: ".": must not be '.'`],
    ['a b', `data[a b]: Invalid value: "a b": ${keyMessage}`],
    ['', `data[]: Invalid value: "": ${keyMessage}`],
    [
      'k'.repeat(254),
      `data[${'k'.repeat(254)}]: Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`,
    ],
  ])('data key %j is 422 Invalid, and nothing is stored', async (key, message) => {
    const name = `bad-${Math.random().toString(36).slice(2, 8)}`;
    const status = await refuse(
      configMaps,
      { metadata: { name }, data: { [key]: 'x' } },
      message,
      'ConfigMap',
      name,
    );
    expect(status.details.causes[0]).toMatchObject({
      reason: 'FieldValueInvalid',
      field: `data[${key}]`,
    });
    expect((await rawRequest(server, 'GET', `${configMaps}/${name}`)).status).toBe(404);
  });

  it('refuses binaryData keys and a key in both data and binaryData', async () => {
    await refuse(
      configMaps,
      { metadata: { name: 'bin' }, binaryData: { 'x/y': 'eA==' } },
      `binaryData[x/y]: Invalid value: "x/y": ${keyMessage}`,
      'ConfigMap',
      'bin',
    );
    await refuse(
      configMaps,
      { metadata: { name: 'both' }, data: { k: 'x' }, binaryData: { k: 'eA==' } },
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
      'ConfigMap',
      'both',
    );
  });

  it('accepts the keys kube accepts, and refuses a bad key on update and patch too', async () => {
    const good = { '-._aZ09': 'x', 'a..b': 'y', [`${'k'.repeat(253)}`]: 'z' };
    const made = await rawRequest(
      server,
      'POST',
      configMaps,
      JSON.stringify({ metadata: { name: 'good' }, data: good }),
    );
    expect(made.status, made.text).toBe(201);
    const patched = await rawRequest(
      server,
      'PATCH',
      `${configMaps}/good`,
      JSON.stringify({ data: { 'x/y': '1' } }),
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patched.status).toBe(422);
    expect(patched.json().message).toBe(
      `ConfigMap "good" is invalid: data[x/y]: Invalid value: "x/y": ${keyMessage}`,
    );
    const put = await rawRequest(
      server,
      'PUT',
      `${configMaps}/good`,
      JSON.stringify({ metadata: { name: 'good' }, data: { '..x': '1' } }),
    );
    expect(put.status).toBe(422);
    expect(put.json().message).toBe(
      `ConfigMap "good" is invalid: data[..x]: Invalid value: "..x": must not start with '..'`,
    );
  });
});

describe('Secret keys', () => {
  it('refuses bad data and stringData keys, both reported at data[key] as kube does', async () => {
    await refuse(
      secrets,
      { metadata: { name: 's1' }, data: { 'a/b': 'eA==' } },
      `data[a/b]: Invalid value: "a/b": ${keyMessage}`,
      'Secret',
      's1',
    );
    await refuse(
      secrets,
      { metadata: { name: 's2' }, stringData: { '..': 'x' } },
      `data[..]: Invalid value: "..": must not be '..'`,
      'Secret',
      's2',
    );
    const made = await rawRequest(
      server,
      'POST',
      secrets,
      JSON.stringify({ metadata: { name: 's3' }, stringData: { 'tls.crt': 'x' } }),
    );
    expect(made.status, made.text).toBe(201);
  });
});
