import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import generated from './generated/kubernetes-protos.json' with { type: 'json' };
import { knownKinds, rootMessageOf } from './kind-registry.js';
import {
  isInline,
  jsonNameOf,
  keepsZero,
  kubernetesProtoVersions,
  messageType,
  wellKnownOf,
} from './kubernetes-protos.js';

const field = (message: string, id: number) => {
  const found = messageType(message)?.fieldsById[id];
  if (found === undefined) throw new Error(`${message} has no field ${id}`);
  return found;
};

describe('the vendored Kubernetes protobuf definitions', () => {
  it('are those of the Kubernetes the real plane builds (refresh with `pnpm refresh-protos`)', () => {
    const goMod = readFileSync(
      new URL('../../../envtest/go/kubernetes/go.mod', import.meta.url),
      'utf8',
    );
    for (const module of ['k8s.io/api', 'k8s.io/apimachinery']) {
      const pinned = new RegExp(`^\\s*${module.replaceAll('.', '\\.')} => \\S+ (v\\S+)`, 'm').exec(
        goMod,
      )?.[1];
      expect(pinned, module).toBeDefined();
      expect(kubernetesProtoVersions[module], module).toBe(pinned);
    }
  });

  it('are what the vendored .proto files say, plus the Go struct tags (no drift between the two)', () => {
    const protoDir = fileURLToPath(new URL('../../proto/', import.meta.url));
    const versions = JSON.parse(readFileSync(`${protoDir}VERSIONS.json`, 'utf8')) as {
      files: string[];
    };
    const parsed = new protobuf.Root();
    parsed.resolvePath = (_origin, target) => `${protoDir}${target}`;
    parsed.loadSync(versions.files, { keepCase: true });
    // The descriptor without the options refresh-protos adds from the Go struct tags.
    const goTagOptions = new Set(['json', 'keep', 'inline', 'stringList']);
    const withoutGoTags = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(withoutGoTags);
      if (typeof value !== 'object' || value === null) return value;
      const out: Record<string, unknown> = {};
      // Options of a field (it has an id) or of a message (it has fields), not a field named so.
      const described = 'id' in value || 'fields' in value;
      for (const [key, item] of Object.entries(value)) {
        if (key !== 'options' || !described) {
          out[key] = withoutGoTags(item);
          continue;
        }
        const kept = Object.entries(item as Record<string, unknown>).filter(
          ([name]) => !goTagOptions.has(name),
        );
        if (kept.length > 0) out[key] = Object.fromEntries(kept);
      }
      return out;
    };
    expect(withoutGoTags(generated.descriptor)).toEqual(
      JSON.parse(JSON.stringify(parsed.toJSON({ keepComments: false }))),
    );
  });

  it('resolve every known kind to a root message, and nothing else', () => {
    for (const { apiVersion, kind } of knownKinds()) {
      expect(rootMessageOf(apiVersion, kind)?.name, `${apiVersion} ${kind}`).toBe(kind);
    }
    expect(rootMessageOf('v1', 'Nope')).toBeUndefined();
    expect(rootMessageOf('v1', 'constructor')).toBeUndefined();
    expect(rootMessageOf('__proto__', 'ConfigMap')).toBeUndefined();
  });

  it('carry the Go json tags that decide the JSON form', () => {
    const container = field('k8s.io.api.core.v1.Container', 1);
    expect([jsonNameOf(container), keepsZero(container)]).toEqual(['name', true]);
    const replicas = field('k8s.io.api.apps.v1.DeploymentSpec', 1);
    expect([jsonNameOf(replicas), keepsZero(replicas)]).toEqual(['replicas', true]);
    const generation = field('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', 7);
    expect([jsonNameOf(generation), keepsZero(generation)]).toEqual(['generation', false]);
    expect(isInline(field('k8s.io.api.core.v1.ConfigMapKeySelector', 1))).toBe(true);
    expect(isInline(field('k8s.io.api.core.v1.Volume', 2))).toBe(true);
    expect(isInline(field('k8s.io.api.core.v1.Volume', 1))).toBe(false);
    expect(jsonNameOf(field('k8s.io.api.authentication.v1.BoundObjectReference', 4))).toBe('uid');
  });

  it('name the messages with a Kubernetes JSON form of their own', () => {
    const wellKnown = (name: string) => {
      const type = messageType(name);
      return type === undefined ? 'missing' : wellKnownOf(type);
    };
    expect(wellKnown('k8s.io.apimachinery.pkg.apis.meta.v1.Time')).toBe('Time');
    expect(wellKnown('k8s.io.apimachinery.pkg.api.resource.Quantity')).toBe('Quantity');
    expect(wellKnown('k8s.io.apimachinery.pkg.util.intstr.IntOrString')).toBe('IntOrString');
    expect(wellKnown('k8s.io.apimachinery.pkg.runtime.RawExtension')).toBe('RawExtension');
    expect(wellKnown('k8s.io.api.authorization.v1.ExtraValue')).toBe('StringList');
    expect(wellKnown('k8s.io.api.authentication.v1.AttestationValue')).toBe('StringList');
    expect(wellKnown('k8s.io.api.core.v1.Pod')).toBeUndefined();
  });
});
