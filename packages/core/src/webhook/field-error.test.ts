import { describe, expect, it } from 'vitest';
import { fieldErrorsToCauses, formatFieldErrors } from './field-error.js';

describe('formatFieldErrors', () => {
  it('gives a single error its message verbatim, without the field', () => {
    expect(formatFieldErrors([{ field: 'spec.image', message: 'invalid image name: ' }])).toBe(
      'invalid image name: ',
    );
  });

  it('joins several errors as an aggregate with field prefixes', () => {
    expect(
      formatFieldErrors([
        { field: 'spec.image', message: 'must not be empty' },
        { field: '', message: 'object is frozen' },
        { field: 'spec.replicas', message: 'must be positive', type: 'FieldValueInvalid' },
      ]),
    ).toBe('[spec.image: must not be empty, object is frozen, spec.replicas: must be positive]');
  });

  it('is empty for no errors', () => {
    expect(formatFieldErrors([])).toBe('');
  });
});

describe('fieldErrorsToCauses', () => {
  it('maps each error to a cause, FieldValueInvalid by default', () => {
    expect(
      fieldErrorsToCauses([
        { field: 'spec.image', message: 'invalid image name: ' },
        { field: 'spec.owner', message: 'Required value', type: 'FieldValueRequired' },
      ]),
    ).toEqual([
      { reason: 'FieldValueInvalid', message: 'invalid image name: ', field: 'spec.image' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.owner' },
    ]);
  });
});
