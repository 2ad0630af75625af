/**
 * A set of field paths, as structured-merge-diff's `fieldpath.Set` holds them and
 * `metadata.managedFields[].fieldsV1` encodes them (sigs.k8s.io/structured-merge-diff
 * fieldpath/set.go and serialize.go).
 *
 * A path is a list of path elements, each written as in fieldsV1:
 * - `f:<name>`: a field of a map (`f:spec`),
 * - `k:<json>`: an item of a list of type `map`, by its keys (`k:{"name":"c"}`),
 * - `v:<json>`: an item of a list of type `set`, by its value (`v:"a"`),
 * - `i:<n>`: an item of a list by index (kube never records these for atomic lists).
 *
 * A node of the tree is a *member* when its own path is in the set; fieldsV1 marks a member
 * that also has children with a `.` key.
 */
import { isJsonObject } from '@ops/api';

/** One path element, in its fieldsV1 form (`f:spec`, `k:{"name":"c"}`, `v:"a"`, `i:0`). */
export type PathElement = string;

/** A path from the object's root. */
export type FieldPath = readonly PathElement[];

const elementKinds = ['f', 'k', 'v', 'i'];

/** structured-merge-diff's order: field names, then keys, then values, then indexes. */
function compareElements(a: PathElement, b: PathElement): number {
  const kindA = elementKinds.indexOf(a.charAt(0));
  const kindB = elementKinds.indexOf(b.charAt(0));
  if (kindA !== kindB) return kindA - kindB;
  if (a.startsWith('i:')) return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

function valueString(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * A path as structured-merge-diff prints it in conflict messages:
 * `.spec.containers[name="c"].image`, `.metadata.finalizers[="a"]`, `.spec.items[0]`.
 */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const element of path) {
    const body = element.slice(2);
    switch (element.charAt(0)) {
      case 'f':
        out += `.${body}`;
        break;
      case 'k': {
        const keys = JSON.parse(body) as Record<string, unknown>;
        out += `[${Object.entries(keys)
          .map(([key, value]) => `${key}=${valueString(value)}`)
          .join(',')}]`;
        break;
      }
      case 'v':
        out += `[=${valueString(JSON.parse(body))}]`;
        break;
      default:
        out += `[${body}]`;
    }
  }
  return out;
}

/** Whether `element` is written as fieldsV1 writes path elements. */
function isPathElement(element: string): boolean {
  if (element.startsWith('f:')) return true;
  if (element.startsWith('i:')) return /^i:\d+$/.test(element);
  if (element.startsWith('k:') || element.startsWith('v:')) {
    try {
      const parsed: unknown = JSON.parse(element.slice(2));
      return element.startsWith('v:') || (typeof parsed === 'object' && parsed !== null);
    } catch {
      return false;
    }
  }
  return false;
}

/** A set of field paths (see the module comment). Immutable operations return new sets. */
export class FieldSet {
  /** Whether the path of this node is itself in the set. */
  member = false;
  /** The sets below each child path element. */
  readonly children = new Map<PathElement, FieldSet>();

  /** A set of the given paths. */
  static of(...paths: FieldPath[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /**
   * The set a `fieldsV1` value encodes.
   *
   * @throws {Error} naming the offending key when `fieldsV1` is not an object of path
   *   elements (`f:`, `k:`, `v:`, `i:`, `.`) whose values are objects.
   */
  static fromFieldsV1(fieldsV1: unknown): FieldSet {
    const set = new FieldSet();
    const read = (node: FieldSet, value: unknown, at: string): void => {
      if (!isJsonObject(value)) {
        throw new Error(`fieldsV1 ${at || 'root'} must be an object`);
      }
      for (const [key, child] of Object.entries(value)) {
        if (key === '.') {
          node.member = true;
          continue;
        }
        if (!isPathElement(key)) {
          throw new Error(
            `fieldsV1 key ${JSON.stringify(key)} is not a path element (f:, k:, v:, i: or .)`,
          );
        }
        const next = node.child(key);
        read(next, child, `${at}${key}`);
        if (next.children.size === 0) next.member = true;
      }
    };
    read(set, fieldsV1, '');
    return set;
  }

  private child(element: PathElement): FieldSet {
    let next = this.children.get(element);
    if (next === undefined) {
      next = new FieldSet();
      this.children.set(element, next);
    }
    return next;
  }

  /** Adds a path (and makes it a member). */
  insert(path: FieldPath): void {
    let node: FieldSet = this;
    for (const element of path) node = node.child(element);
    node.member = true;
  }

  /** Whether `path` is a member. */
  has(path: FieldPath): boolean {
    let node: FieldSet | undefined = this;
    for (const element of path) {
      node = node.children.get(element);
      if (node === undefined) return false;
    }
    return node.member;
  }

  /** The set below `element`, if any. */
  get(element: PathElement): FieldSet | undefined {
    return this.children.get(element);
  }

  /** Whether the set holds no path. */
  isEmpty(): boolean {
    if (this.member) return false;
    for (const child of this.children.values()) if (!child.isEmpty()) return false;
    return true;
  }

  /** A deep copy. */
  copy(): FieldSet {
    return this.union(new FieldSet());
  }

  /** The paths in either set. */
  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member || other.member;
    for (const [element, child] of this.children) {
      const theirs = other.children.get(element);
      out.children.set(element, theirs ? child.union(theirs) : child.union(new FieldSet()));
    }
    for (const [element, child] of other.children) {
      if (!out.children.has(element)) out.children.set(element, child.union(new FieldSet()));
    }
    return out.pruned();
  }

  /** The paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [element, child] of this.children) {
      const theirs = other.children.get(element);
      if (theirs) out.children.set(element, child.intersection(theirs));
    }
    return out.pruned();
  }

  /** The paths of this set that are not in `other` (children of `other`'s paths stay). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [element, child] of this.children) {
      const theirs = other.children.get(element);
      out.children.set(element, theirs ? child.difference(theirs) : child.copy());
    }
    return out.pruned();
  }

  /** The paths of this set that are neither in `other` nor below one of `other`'s paths. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [element, child] of this.children) {
      const theirs = other.children.get(element);
      if (theirs?.member) continue;
      out.children.set(element, theirs ? child.recursiveDifference(theirs) : child.copy());
    }
    return out.pruned();
  }

  /** Drops empty children, so equal sets have equal trees. */
  private pruned(): this {
    for (const [element, child] of this.children) {
      if (child.isEmpty()) this.children.delete(element);
    }
    return this;
  }

  /** Every member path, in fieldsV1 order. */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const walk = (node: FieldSet, prefix: PathElement[]): void => {
      if (node.member) out.push(prefix);
      for (const element of [...node.children.keys()].sort(compareElements)) {
        walk(node.children.get(element) as FieldSet, [...prefix, element]);
      }
    };
    walk(this, []);
    return out;
  }

  /** The fieldsV1 encoding: `.` first when a member has children, then children in order. */
  toFieldsV1(): Record<string, unknown> {
    const encode = (node: FieldSet): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      const elements = [...node.children.keys()].sort(compareElements);
      if (node.member && elements.length > 0) out['.'] = {};
      for (const element of elements) out[element] = encode(node.children.get(element) as FieldSet);
      return out;
    };
    return encode(this);
  }
}
