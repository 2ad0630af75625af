/** @internal What an {@link IndexedHeap} keeps in each slot: its position, kept up to date. */
export interface HeapSlot {
  /** Position in the heap array; -1 once removed. Maintained by the heap only. */
  heapIndex: number;
}

/**
 * @internal A binary heap of slots that know their position, so that a slot can be removed
 * or re-ordered after its key changed in O(log n), not only popped. `before(a, b)` is the
 * heap's order: the slot for which it holds comes out first. Ties must be broken by the
 * comparator (a sequence number, say) for the order to be deterministic.
 *
 * Guarantees: `push`, `pop`, `remove` and `update` are O(log n); `peek` and `size` O(1).
 * Assumes: a slot is in at most one heap at a time and its key changes only just before
 * `update` is called for it.
 */
export class IndexedHeap<S extends HeapSlot> {
  private readonly heap: S[] = [];

  constructor(private readonly before: (a: S, b: S) => boolean) {}

  /** The number of slots held. */
  get size(): number {
    return this.heap.length;
  }

  /** The slot that comes out first, or `undefined` when empty. */
  peek(): S | undefined {
    return this.heap[0];
  }

  /** Adds `slot`. */
  push(slot: S): void {
    slot.heapIndex = this.heap.length;
    this.heap.push(slot);
    this.siftUp(slot.heapIndex);
  }

  /** Removes and returns the slot that comes out first, or `undefined` when empty. */
  pop(): S | undefined {
    const top = this.heap[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  /** Removes `slot`, which must be held. */
  remove(slot: S): void {
    const index = slot.heapIndex;
    const last = this.heap.pop() as S;
    slot.heapIndex = -1;
    if (last === slot) return;
    this.heap[index] = last;
    last.heapIndex = index;
    this.update(last);
  }

  /** Restores the order after `slot`'s key changed (in either direction). */
  update(slot: S): void {
    this.siftUp(slot.heapIndex);
    this.siftDown(slot.heapIndex);
  }

  /** Removes every slot. */
  clear(): void {
    for (const slot of this.heap) slot.heapIndex = -1;
    this.heap.length = 0;
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    const slot = heap[start] as S;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as S;
      if (!this.before(slot, parent)) break;
      heap[index] = parent;
      parent.heapIndex = index;
      index = parentIndex;
    }
    heap[index] = slot;
    slot.heapIndex = index;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const length = heap.length;
    const slot = heap[start] as S;
    let index = start;
    for (;;) {
      const leftIndex = 2 * index + 1;
      if (leftIndex >= length) break;
      const rightIndex = leftIndex + 1;
      let childIndex = leftIndex;
      let child = heap[leftIndex] as S;
      if (rightIndex < length) {
        const right = heap[rightIndex] as S;
        if (this.before(right, child)) {
          childIndex = rightIndex;
          child = right;
        }
      }
      if (!this.before(child, slot)) break;
      heap[index] = child;
      child.heapIndex = index;
      index = childIndex;
    }
    heap[index] = slot;
    slot.heapIndex = index;
  }
}
