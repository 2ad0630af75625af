import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  renderWebhooksByUrl,
  webhooksByUrlPluginName,
  webhooksByUrlPostRenderer,
} from './webhooks-by-url-post-renderer.js';

const rendered = `---
# Source: demo/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: demo-webhook-service
spec:
  ports:
    - port: 443
---
# Source: demo/templates/validating.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: demo-validating
webhooks:
  - name: vdemo.example.com
    clientConfig:
      service:
        name: demo-webhook-service
        namespace: demo-system
        path: /validate-demo
    sideEffects: None
`;

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe('renderWebhooksByUrl', () => {
  it('points each webhook at the URL and leaves every other document as Helm rendered it', () => {
    const output = renderWebhooksByUrl(rendered, { port: 9555 });
    const documents = YAML.parseAllDocuments(output).map((document) => document.toJS());
    expect(documents).toHaveLength(2);
    expect(documents[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'demo-webhook-service' },
      spec: { ports: [{ port: 443 }] },
    });
    expect(output).toContain('# Source: demo/templates/service.yaml');
    expect(documents[1].webhooks).toEqual([
      {
        name: 'vdemo.example.com',
        clientConfig: { url: 'https://127.0.0.1:9555/validate-demo' },
        sideEffects: 'None',
      },
    ]);
  });

  it('refuses a stream that is not YAML, saying so', () => {
    expect(() => renderWebhooksByUrl('kind: [unclosed', { port: 9555 })).toThrow(
      /a rendered manifest is not YAML/,
    );
  });
});

describe('webhooksByUrlPostRenderer', () => {
  it('writes a Helm 4 postrenderer/v1 plugin running the built program with the port', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'envtest-post-renderer-'));
    directories.push(directory);
    const renderer = await webhooksByUrlPostRenderer(directory, { port: 9555 });
    expect(renderer).toEqual({
      args: ['--post-renderer', webhooksByUrlPluginName],
      env: { HELM_PLUGINS: directory },
    });
    const plugin = YAML.parse(
      await readFile(join(directory, webhooksByUrlPluginName, 'plugin.yaml'), 'utf8'),
    );
    expect(plugin).toMatchObject({
      apiVersion: 'v1',
      type: 'postrenderer/v1',
      name: 'webhooks-by-url',
      runtime: 'subprocess',
    });
    const [command] = plugin.runtimeConfig.platformCommand;
    expect(command.command).toBe(process.execPath);
    expect(command.args[0]).toMatch(/dist\/webhooks-by-url-post-renderer-main\.js$/);
    expect(command.args.slice(1)).toEqual(['9555']);
  });

  it('refuses a port that is not a TCP port before Helm runs', async () => {
    await expect(webhooksByUrlPostRenderer(tmpdir(), { port: 0 })).rejects.toThrow(
      /webhook port 0 is not a TCP port/,
    );
  });
});
