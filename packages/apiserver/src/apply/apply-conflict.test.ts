import { describe, expect, it } from 'vitest';
import { applyConflictError } from './apply-conflict.js';

describe('applyConflictError', () => {
  it('names appliers bare and updaters with their version and subresource', () => {
    const error = applyConflictError([
      {
        manager: {
          manager: 'curl',
          operation: 'Update',
          apiVersion: 'ex.com/v1',
          subresource: 'status',
        },
        path: ['f:status', 'f:phase'],
      },
    ]);
    expect(error.message).toBe(
      'Apply failed with 1 conflict: conflict with "curl" with subresource "status" using ex.com/v1: .status.phase',
    );
    const applier = applyConflictError([
      {
        manager: { manager: 'other', operation: 'Apply', apiVersion: 'v1', subresource: '' },
        path: ['f:data', 'f:b'],
      },
    ]);
    expect(applier.toStatus()).toMatchObject({
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "other": .data.b',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "other"', field: '.data.b' },
        ],
      },
    });
  });
});
