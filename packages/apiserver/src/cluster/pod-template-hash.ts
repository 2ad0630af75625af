import { canonicalJson } from '../json/json.js';

/** The label a Deployment's ReplicaSets and their Pods carry: the hash of the Pod template. */
export const podTemplateHashLabel = 'pod-template-hash';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** 32-bit FNV-1a of a string's UTF-8 bytes. */
function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The `pod-template-hash` of a Deployment's Pod template, as the deployment controller
 * computes it: an FNV-1a hash of the template (here of its canonical JSON, so equal templates
 * give equal hashes whatever their key order), salted with `collisionCount` when set, written
 * with the alphabet of random names (no vowels, so it never spells words). Not byte-identical
 * to kube's hash, whose input is Go's printing of the struct.
 */
export function podTemplateHash(template: unknown, collisionCount?: number): string {
  let text = canonicalJson(template);
  if (collisionCount !== undefined && collisionCount > 0) text += `#${collisionCount}`;
  const decimal = String(fnv32a(text));
  let encoded = '';
  for (const char of decimal)
    encoded += safeAlphabet.charAt(char.charCodeAt(0) % safeAlphabet.length);
  return encoded;
}
