import { describe, expect, it } from 'vitest';
import { imageFromEnvironment, parseImage } from './image-reference.js';

describe('parseImage (kustomize edit set image)', () => {
  it('splits an image reference into kustomize fields', () => {
    expect(parseImage('application-operator:latest')).toEqual({
      newName: 'application-operator',
      newTag: 'latest',
    });
    expect(parseImage('registry.local:5000/team/app:1.2.3')).toEqual({
      newName: 'registry.local:5000/team/app',
      newTag: '1.2.3',
    });
    expect(parseImage('registry.local:5000/team/app')).toEqual({
      newName: 'registry.local:5000/team/app',
    });
    expect(parseImage(`ghcr.io/a/b@sha256:${'a'.repeat(64)}`)).toEqual({
      newName: 'ghcr.io/a/b',
      digest: `sha256:${'a'.repeat(64)}`,
    });
  });

  it('refuses an empty reference or one with spaces, with an example', () => {
    expect(() => parseImage('')).toThrow(
      'IMG must be an image reference such as ghcr.io/you/my-operator:0.1.0, got ""',
    );
    expect(() => parseImage('a b')).toThrow('IMG must be an image reference');
  });
});

it('takes IMG from the environment, else the operator default', () => {
  expect(imageFromEnvironment('x:latest', { IMG: 'ghcr.io/a/x:1' })).toBe('ghcr.io/a/x:1');
  expect(imageFromEnvironment('x:latest', { IMG: '' })).toBe('x:latest');
  expect(imageFromEnvironment('x:latest', {})).toBe('x:latest');
});
