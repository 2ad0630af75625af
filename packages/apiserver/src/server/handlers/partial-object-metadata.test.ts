import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../registry/resource-type.js';
import {
  asPartialObjectMetadata,
  asPartialObjectMetadataList,
  partialObjectMetadataFormOf,
  partialObjectMetadataMismatch,
} from './partial-object-metadata.js';

const configMaps = { group: '', kind: 'ConfigMap', custom: false } as ResourceType;
const deployments = { group: 'apps', kind: 'Deployment', custom: false } as ResourceType;
const widgets = { group: 'ops.dev', kind: 'Widget', custom: true } as ResourceType;

describe('partialObjectMetadataFormOf', () => {
  it('reads the form client-go and controller-runtime ask for', () => {
    expect(
      partialObjectMetadataFormOf('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'),
    ).toBe('PartialObjectMetadata');
    expect(
      partialObjectMetadataFormOf(
        'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      ),
    ).toBe('PartialObjectMetadataList');
    expect(
      partialObjectMetadataFormOf(
        'application/json; as=PartialObjectMetadata; g=meta.k8s.io; v=v1beta1',
      ),
    ).toBe('PartialObjectMetadata');
  });

  it('answers the object when plain JSON comes first, or the group or version is not meta.k8s.io/v1', () => {
    expect(partialObjectMetadataFormOf(undefined)).toBeUndefined();
    expect(partialObjectMetadataFormOf('application/json')).toBeUndefined();
    expect(
      partialObjectMetadataFormOf(
        'application/json,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
      ),
    ).toBeUndefined();
    expect(
      partialObjectMetadataFormOf('application/json;as=PartialObjectMetadata;g=apps;v=v1'),
    ).toBeUndefined();
    expect(
      partialObjectMetadataFormOf('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2'),
    ).toBeUndefined();
  });
});

describe('PartialObjectMetadata bodies', () => {
  it('keeps only kind, apiVersion and metadata', () => {
    const metadata = { name: 'a', namespace: 'n', resourceVersion: '7', labels: { x: 'y' } };
    expect(
      asPartialObjectMetadata({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata,
        data: { k: 'v' },
      } as never),
    ).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata });
    expect(
      asPartialObjectMetadataList({ resourceVersion: '9', continue: 'c' }, [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: {} } as never,
      ]),
    ).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '9', continue: 'c' },
      items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata }],
    });
  });
});

describe('partialObjectMetadataMismatch', () => {
  it("answers kube-apiserver's 406 for the wrong form, naming its Go type", () => {
    const list = partialObjectMetadataMismatch('PartialObjectMetadata', configMaps, true);
    expect(list?.code).toBe(406);
    expect(list?.toStatus()).toMatchObject({
      reason: 'NotAcceptable',
      message:
        'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    });
    expect(
      partialObjectMetadataMismatch('PartialObjectMetadataList', deployments, false)?.message,
    ).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*apps.Deployment)',
    );
    expect(
      partialObjectMetadataMismatch('PartialObjectMetadataList', widgets, false)?.message,
    ).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*unstructured.Unstructured)',
    );
  });

  it('answers nothing when the form fits the verb', () => {
    expect(
      partialObjectMetadataMismatch('PartialObjectMetadata', configMaps, false),
    ).toBeUndefined();
    expect(
      partialObjectMetadataMismatch('PartialObjectMetadataList', widgets, true),
    ).toBeUndefined();
  });
});
