/**
 * The 409 kube-apiserver answers an apply that would change fields other managers own
 * (staging apimachinery managedfields/internal/conflict.go): `Apply failed with 1 conflict:
 * conflict with "other" using v1: .data.a`, one `FieldManagerConflict` cause per field.
 */
import { StatusError } from '../api/status-error.js';
import { type FieldPath, formatFieldPath } from './field-set.js';
import type { ManagerEntry } from './managed-fields.js';

/** A field an applier would take from another manager. */
export interface FieldConflict {
  manager: Omit<ManagerEntry, 'fields'>;
  path: FieldPath;
}

/** A manager as kube names it in conflicts (`"kubectl-create" using apps/v1`). */
function describeManager(entry: Omit<ManagerEntry, 'fields'>): string {
  let out = JSON.stringify(entry.manager);
  if (entry.subresource) out += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') out += ` using ${entry.apiVersion}`;
  return out;
}

/**
 * The 409 Conflict for `conflicts` (at least one), managers in name order and each one's
 * fields in path order.
 */
export function applyConflictError(conflicts: readonly FieldConflict[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => {
    const left = describeManager(a.manager);
    const right = describeManager(b.manager);
    return left < right ? -1 : left > right ? 1 : 0;
  });
  const causes = sorted.map((conflict) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(conflict.manager)}`,
    field: formatFieldPath(conflict.path),
  }));
  let message: string;
  const first = sorted[0];
  if (sorted.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(first.manager)}: ${formatFieldPath(first.path)}`;
  } else {
    const lines: string[] = [];
    let current = '';
    for (const conflict of sorted) {
      const manager = describeManager(conflict.manager);
      if (manager !== current) {
        lines.push(`conflicts with ${manager}:`);
        current = manager;
      }
      lines.push(`- ${formatFieldPath(conflict.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}
