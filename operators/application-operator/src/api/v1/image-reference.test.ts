import { describe, expect, it } from 'vitest';
import { isValidImageReference } from './image-reference.js';

describe('isValidImageReference', () => {
  it.each([
    'nginx',
    'nginx:1.22',
    'library/nginx:latest',
    'docker.io/library/nginx:1.22',
    'ghcr.io/org/app-name/sub_path:v1.2.3-rc.1',
    'localhost:5000/app',
    'registry.example.com:443/team/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    'hashicorp/http-echo',
  ])('accepts %j', (image) => {
    expect(isValidImageReference(image)).toBe(true);
  });

  it.each([
    '',
    ' ',
    'nginx::1.22',
    'nginx:',
    'Nginx:latest!',
    'nginx:1.22 ',
    'app/UPPER',
    '-nginx',
    'nginx@sha256:short',
    `a/${'b'.repeat(260)}`,
  ])('rejects %j', (image) => {
    expect(isValidImageReference(image)).toBe(false);
  });
});
