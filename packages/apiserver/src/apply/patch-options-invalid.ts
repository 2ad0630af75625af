import { StatusError } from '../api/status-error.js';

/**
 * The 422 kube-apiserver answers a PATCH whose options do not fit its type, e.g.
 * `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for
 * apply patch`. `detail` starts with the field error's kind (`Required value: ...`).
 */
export function patchOptionsInvalid(field: string, detail: string): StatusError {
  const reasons: Record<string, string> = {
    'Required value': 'FieldValueRequired',
    Forbidden: 'FieldValueForbidden',
    'Too long': 'FieldValueTooLong',
    'Invalid value': 'FieldValueInvalid',
  };
  const kind = detail.split(':')[0] ?? '';
  return new StatusError(
    422,
    'Invalid',
    `PatchOptions.meta.k8s.io "" is invalid: ${field}: ${detail}`,
    {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [{ reason: reasons[kind] ?? 'FieldValueInvalid', message: detail, field }],
    },
  );
}
