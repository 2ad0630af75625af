import { describe, expect, it } from 'vitest';
import { DelayHeap } from './delay-heap.js';

function popAll<T>(heap: DelayHeap<T>): [T, number][] {
  const out: [T, number][] = [];
  for (let entry = heap.pop(); entry !== undefined; entry = heap.pop()) {
    out.push([entry.item, entry.readyAt]);
  }
  return out;
}

describe('DelayHeap', () => {
  it('pops in order of ready time', () => {
    const heap = new DelayHeap<number>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const times = new Map<number, number>();
    for (let i = 0; i < 500; i++) {
      const at = random() % 1000;
      times.set(i, at);
      heap.schedule(i, at);
    }
    expect(heap.size).toBe(500);
    const popped = popAll(heap);
    expect(popped).toHaveLength(500);
    for (let i = 1; i < popped.length; i++) {
      expect((popped[i] as [number, number])[1]).toBeGreaterThanOrEqual(
        (popped[i - 1] as [number, number])[1],
      );
    }
    for (const [item, at] of popped) expect(at).toBe(times.get(item));
    expect(heap.size).toBe(0);
  });

  it('releases items due at the same time in scheduling order', () => {
    const heap = new DelayHeap<string>();
    for (const item of ['c', 'a', 'b', 'e', 'd']) heap.schedule(item, 10);
    expect(popAll(heap).map(([item]) => item)).toEqual(['c', 'a', 'b', 'e', 'd']);
  });

  it('keeps one entry per item, moved earlier but never later', () => {
    const heap = new DelayHeap<string>();
    expect(heap.schedule('a', 50)).toBe(true);
    expect(heap.schedule('b', 30)).toBe(true);
    expect(heap.schedule('c', 40)).toBe(true);
    expect(heap.schedule('a', 10)).toBe(true);
    expect(heap.schedule('b', 100)).toBe(false);
    expect(heap.schedule('c', 40)).toBe(false);
    expect(heap.size).toBe(3);
    expect(heap.peek()).toMatchObject({ item: 'a', readyAt: 10 });
    expect(popAll(heap)).toEqual([
      ['a', 10],
      ['b', 30],
      ['c', 40],
    ]);
  });

  it('stays a heap when an item deep inside moves to the top', () => {
    const heap = new DelayHeap<number>();
    for (let i = 0; i < 64; i++) heap.schedule(i, 1000 + i);
    heap.schedule(63, 1);
    heap.schedule(40, 2);
    const order = popAll(heap).map(([item]) => item);
    expect(order.slice(0, 3)).toEqual([63, 40, 0]);
    expect(order).toHaveLength(64);
  });

  it('tracks membership and clears', () => {
    const heap = new DelayHeap<object>();
    const a = {};
    heap.schedule(a, 5);
    expect(heap.has(a)).toBe(true);
    expect(heap.has({})).toBe(false);
    heap.pop();
    expect(heap.has(a)).toBe(false);
    heap.schedule(a, 5);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.has(a)).toBe(false);
    expect(heap.peek()).toBeUndefined();
  });
});
