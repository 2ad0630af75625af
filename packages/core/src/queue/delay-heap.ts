import { type HeapSlot, IndexedHeap } from './indexed-heap.js';

/** @internal An item waiting in a {@link DelayHeap}. */
export interface DelayedEntry<T> {
  readonly item: T;
  /** When the item is due, on the clock's millisecond scale. */
  readonly readyAt: number;
}

interface Slot<T> extends HeapSlot {
  readonly item: T;
  readyAt: number;
  /** Insertion order, to release items due at the same instant first-scheduled first. */
  readonly seq: number;
}

/**
 * @internal The waiting room of the delaying queue: a binary min-heap on ready time with an
 * index from item to slot, so that each item waits at most once.
 *
 * Guarantees: `schedule`, `pop` are O(log n); `peek`, `has` and `size` O(1). Items due at
 * the same time come out in the order they were first scheduled. Items are keyed as in a
 * `Map` (SameValueZero: strings by value, objects by identity).
 */
export class DelayHeap<T> {
  private readonly heap = new IndexedHeap<Slot<T>>(
    (a, b) => a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq),
  );
  private readonly byItem = new Map<T, Slot<T>>();
  private seq = 0;

  /** The number of waiting items. */
  get size(): number {
    return this.heap.size;
  }

  /** Whether `item` is waiting. */
  has(item: T): boolean {
    return this.byItem.has(item);
  }

  /** The item due first, or `undefined` when none waits. */
  peek(): DelayedEntry<T> | undefined {
    return this.heap.peek();
  }

  /**
   * Makes `item` due at `readyAt`. An item already waiting is moved earlier when `readyAt` is
   * earlier than its current time, and otherwise left alone.
   *
   * @returns whether the item's ready time was set or moved.
   */
  schedule(item: T, readyAt: number): boolean {
    const existing = this.byItem.get(item);
    if (existing !== undefined) {
      if (readyAt >= existing.readyAt) return false;
      existing.readyAt = readyAt;
      this.heap.update(existing);
      return true;
    }
    const slot: Slot<T> = { item, readyAt, seq: this.seq++, heapIndex: -1 };
    this.heap.push(slot);
    this.byItem.set(item, slot);
    return true;
  }

  /** Removes and returns the item due first, or `undefined` when none waits. */
  pop(): DelayedEntry<T> | undefined {
    const top = this.heap.pop();
    if (top !== undefined) this.byItem.delete(top.item);
    return top;
  }

  /** Removes every waiting item. */
  clear(): void {
    this.heap.clear();
    this.byItem.clear();
  }
}
