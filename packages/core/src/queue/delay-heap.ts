/** @internal An item waiting in a {@link DelayHeap}. */
export interface DelayedEntry<T> {
  readonly item: T;
  /** When the item is due, on the clock's millisecond scale. */
  readonly readyAt: number;
}

interface Slot<T> {
  readonly item: T;
  readyAt: number;
  /** Insertion order, to release items due at the same instant first-scheduled first. */
  readonly seq: number;
  /** Position in the heap array, kept up to date by every move. */
  index: number;
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
  private readonly heap: Slot<T>[] = [];
  private readonly byItem = new Map<T, Slot<T>>();
  private seq = 0;

  /** The number of waiting items. */
  get size(): number {
    return this.heap.length;
  }

  /** Whether `item` is waiting. */
  has(item: T): boolean {
    return this.byItem.has(item);
  }

  /** The item due first, or `undefined` when none waits. */
  peek(): DelayedEntry<T> | undefined {
    return this.heap[0];
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
      this.siftUp(existing.index);
      return true;
    }
    const slot: Slot<T> = { item, readyAt, seq: this.seq++, index: this.heap.length };
    this.heap.push(slot);
    this.byItem.set(item, slot);
    this.siftUp(slot.index);
    return true;
  }

  /** Removes and returns the item due first, or `undefined` when none waits. */
  pop(): DelayedEntry<T> | undefined {
    const top = this.heap[0];
    if (top === undefined) return undefined;
    const last = this.heap.pop() as Slot<T>;
    if (last !== top) {
      last.index = 0;
      this.heap[0] = last;
      this.siftDown(0);
    }
    this.byItem.delete(top.item);
    return top;
  }

  /** Removes every waiting item. */
  clear(): void {
    this.heap.length = 0;
    this.byItem.clear();
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    const slot = heap[start] as Slot<T>;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Slot<T>;
      if (!before(slot, parent)) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = slot;
    slot.index = index;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const length = heap.length;
    const slot = heap[start] as Slot<T>;
    let index = start;
    for (;;) {
      const leftIndex = 2 * index + 1;
      if (leftIndex >= length) break;
      const rightIndex = leftIndex + 1;
      let childIndex = leftIndex;
      let child = heap[leftIndex] as Slot<T>;
      if (rightIndex < length) {
        const right = heap[rightIndex] as Slot<T>;
        if (before(right, child)) {
          childIndex = rightIndex;
          child = right;
        }
      }
      if (!before(child, slot)) break;
      heap[index] = child;
      child.index = index;
      index = childIndex;
    }
    heap[index] = slot;
    slot.index = index;
  }
}

function before<T>(a: Slot<T>, b: Slot<T>): boolean {
  return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
}
