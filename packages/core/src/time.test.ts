import { describe, expect, it } from 'vitest';
import { formatFullTime, formatMemberSince, formatRelativeTime } from './time.ts';

describe('relative time', () => {
  const now = new Date(2026, 10, 22, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it.each([
    [5_000, '5 seconds ago'],
    [59_000, '59 seconds ago'],
    [1_000, '1 second ago'],
    [60_000, '1 minute ago'],
    [59 * 60_000, '59 minutes ago'],
    [3 * 3_600_000, '3 hours ago'],
  ])('%i ms ago reads %s', (ms, expected) => expect(formatRelativeTime(ago(ms), now)).toBe(expected));

  it('shows the month and day after a day, and the year after a year', () => {
    expect(formatRelativeTime(new Date(2026, 0, 5, 9, 3), now)).toBe('Jan 05 at 09:03');
    expect(formatRelativeTime(new Date(2024, 6, 14, 18, 30), now)).toBe('Jul 14, 2024 at 18:30');
  });

  it('spells the full date and time for the tooltip', () => {
    expect(formatFullTime(new Date(2026, 10, 3, 8, 4, 9))).toBe('Nov 03, 2026 at 08:04:09');
  });
});

describe('member since', () => {
  it("names the account's month and year in full (docs/product.md section 5)", () => {
    expect(formatMemberSince(new Date(2026, 10, 30, 23, 59))).toBe('Member since November 2026');
    expect(formatMemberSince(new Date(2027, 0, 1, 0, 0))).toBe('Member since January 2027');
  });
});
