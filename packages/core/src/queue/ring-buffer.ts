/** Capacity above which an emptied buffer gives its storage back. */
const shrinkAbove = 1 << 16;

/**
 * @internal A growable FIFO on a power-of-two circular array: `push` and `shift` are O(1)
 * amortised (a full buffer doubles, copying once), unlike `Array.prototype.shift`, which is
 * O(n). Shifted slots are cleared so that the buffer holds no reference to items it gave out;
 * storage above 65,536 slots is released when the buffer empties.
 *
 * Assumes: callers check {@link RingBuffer.length} before `shift`/`peek` when `T` itself may
 * be `undefined`.
 */
export class RingBuffer<T> {
  private slots: (T | undefined)[];
  private mask: number;
  private head = 0;
  private size = 0;
  private readonly initialCapacity: number;

  /** @param capacity the initial capacity, rounded up to a power of two (at least 8). */
  constructor(capacity = 16) {
    this.initialCapacity = roundUpToPowerOfTwo(capacity);
    this.slots = new Array<T | undefined>(this.initialCapacity).fill(undefined);
    this.mask = this.initialCapacity - 1;
  }

  /** The number of items held. */
  get length(): number {
    return this.size;
  }

  /** Appends `item` at the tail. */
  push(item: T): void {
    if (this.size === this.slots.length) this.grow();
    this.slots[(this.head + this.size) & this.mask] = item;
    this.size++;
  }

  /** Removes and returns the head, or `undefined` when empty. */
  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.size--;
    if (this.size === 0) {
      this.head = 0;
      if (this.slots.length > shrinkAbove) this.reset();
    }
    return item;
  }

  /** The head without removing it, or `undefined` when empty. */
  peek(): T | undefined {
    return this.size === 0 ? undefined : this.slots[this.head];
  }

  /** Removes every item. */
  clear(): void {
    this.reset();
  }

  private reset(): void {
    this.slots = new Array<T | undefined>(this.initialCapacity).fill(undefined);
    this.mask = this.initialCapacity - 1;
    this.head = 0;
    this.size = 0;
  }

  private grow(): void {
    const capacity = this.slots.length * 2;
    const slots = new Array<T | undefined>(capacity).fill(undefined);
    for (let i = 0; i < this.size; i++) slots[i] = this.slots[(this.head + i) & this.mask];
    this.slots = slots;
    this.mask = capacity - 1;
    this.head = 0;
  }
}

function roundUpToPowerOfTwo(n: number): number {
  let capacity = 8;
  while (capacity < n) capacity *= 2;
  return capacity;
}
