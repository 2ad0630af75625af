import { describe, expect, it } from 'vitest';
import { pythonClientSuite } from './python-client-suite.js';

// CEL validation rules through a client written in another language: the official Python
// client, as python-client.test.ts uses it.
const suite = pythonClientSuite('python-cel-client');

describe('CEL validation rules through the official Python client', () => {
  it('creates an object that holds the rule and gets the 422 for one that breaks it', async () => {
    expect(await suite.runScript('cel_client.py')).toEqual({
      created: 'fits',
      refused: {
        status: 422,
        message: 'Limit.cel.ops.dev "breaks" is invalid: spec: Invalid value: min 3 exceeds max 2',
      },
    });
  });
});
