import { describe, expect, it } from 'vitest';
import { writesAtRest } from './writes-at-rest.js';

describe('writesAtRest', () => {
  it('waits out writes still coming, then counts only those of the quiet period', async () => {
    let writes = 0;
    // Stragglers for 400 ms, then quiet; then one write inside the quiet period.
    const stragglers = setInterval(() => writes++, 50);
    setTimeout(() => clearInterval(stragglers), 400);
    const measuring = writesAtRest(() => writes, 600);
    const straggled = new Promise<number>((resolve) =>
      setTimeout(() => {
        const before = writes;
        setTimeout(() => {
          writes++;
          resolve(before);
        }, 900);
      }, 400),
    );
    const result = await measuring;
    const before = await straggled;
    expect(result.settled).toBe(before);
    expect(result.settled).toBeGreaterThan(0);
    expect(result.quietWrites).toBe(1);
  });
});
