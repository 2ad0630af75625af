import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

function drain<T>(buffer: RingBuffer<T>): T[] {
  const out: T[] = [];
  while (buffer.length > 0) out.push(buffer.shift() as T);
  return out;
}

describe('RingBuffer', () => {
  it('is first in, first out across growth', () => {
    const buffer = new RingBuffer<number>(2);
    for (let i = 0; i < 100; i++) buffer.push(i);
    expect(buffer.length).toBe(100);
    expect(buffer.peek()).toBe(0);
    expect(drain(buffer)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(buffer.shift()).toBeUndefined();
    expect(buffer.peek()).toBeUndefined();
  });

  it('keeps order when the contents wrap around the end before growing', () => {
    const buffer = new RingBuffer<number>(8);
    const expected: number[] = [];
    let next = 0;
    const taken: number[] = [];
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 5; i++) {
        buffer.push(next);
        expected.push(next++);
      }
      for (let i = 0; i < 3; i++) taken.push(buffer.shift() as number);
    }
    taken.push(...drain(buffer));
    expect(taken).toEqual(expected);
  });

  it('holds undefined items, counted by length', () => {
    const buffer = new RingBuffer<string | undefined>();
    buffer.push(undefined);
    buffer.push('a');
    expect(buffer.length).toBe(2);
    expect(buffer.shift()).toBeUndefined();
    expect(buffer.length).toBe(1);
    expect(buffer.shift()).toBe('a');
  });

  it('is usable after clear and after emptying a large buffer', () => {
    const buffer = new RingBuffer<number>();
    for (let i = 0; i < 70_000; i++) buffer.push(i);
    expect(drain(buffer)).toHaveLength(70_000);
    buffer.push(1);
    buffer.push(2);
    buffer.clear();
    expect(buffer.length).toBe(0);
    buffer.push(3);
    expect(drain(buffer)).toEqual([3]);
  });
});
