import type { ResourceType } from '../../registry/resource-type.js';

/**
 * Whether `type` serves `subresource`: `status` and `scale` as declared, `finalize` on
 * Namespaces, `token` (TokenRequest) on ServiceAccounts.
 */
export function subresourceServed(type: ResourceType, subresource: string): boolean {
  if (subresource === 'status') return type.subresources.status;
  if (subresource === 'scale') return type.subresources.scale;
  if (subresource === 'finalize') return type.group === '' && type.plural === 'namespaces';
  if (subresource === 'token') return type.group === '' && type.plural === 'serviceaccounts';
  return false;
}
