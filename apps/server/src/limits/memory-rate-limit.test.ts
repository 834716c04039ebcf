// Issue 15 item 14: the read limit's counters are bounded: however many addresses read,
// the process tracks at most the cap, each hit costing the same.
import { describe, expect, it } from 'vitest';
import { MemoryRateLimit } from './memory-rate-limit.ts';

describe('in-memory rate limit windows', () => {
  const rule = { max: 3, windowMs: 60_000 };

  it('allows max hits a window, then says how long until the window ends', () => {
    const limit = new MemoryRateLimit(rule, 10);
    const start = 1_000_000;
    expect([1, 2, 3].map((i) => limit.hit('a', start + i))).toEqual([0, 0, 0]);
    expect(limit.hit('a', start + 10_000)).toBe(50_001);
    expect(limit.hit('b', start + 10_000)).toBe(0);
    // A new window starts once the old one is over.
    expect(limit.hit('a', start + 60_001)).toBe(0);
  });

  it('tracks at most maxKeys addresses, dropping ended windows first, then the oldest', () => {
    const limit = new MemoryRateLimit(rule, 1_000);
    const start = 1_000_000;
    for (let i = 0; i < 100_000; i++) limit.hit(`10.0.${i >> 8}.${i & 255}`, start + i);
    expect(limit.size).toBe(1_000);
    // The newest keys are the ones kept: the last address is still counted.
    const last = `10.0.${99_999 >> 8}.${99_999 & 255}`;
    expect([limit.hit(last, start + 100_000), limit.hit(last, start + 100_000)]).toEqual([0, 0]);
    expect(limit.hit(last, start + 100_000)).toBeGreaterThan(0);
    // Once every window has ended, new keys replace them all.
    for (let i = 0; i < 10; i++) limit.hit(`192.0.2.${i}`, start + 1_000_000);
    expect(limit.size).toBe(10);
  });
});
