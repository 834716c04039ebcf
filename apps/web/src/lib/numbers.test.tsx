import { describe, expect, it } from 'vitest';
import { formatChange, formatCount } from './numbers';

describe('numbers', () => {
  it('groups thousands', () => {
    expect(formatCount(1)).toBe('1');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(12_345)).toBe('12,345');
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatCount(-100_000)).toBe('-100,000');
  });

  it('signs a change, and leaves no change unsigned', () => {
    expect(formatChange(10)).toBe('+10');
    expect(formatChange(12_344)).toBe('+12,344');
    expect(formatChange(-2)).toBe('-2');
    expect(formatChange(0)).toBe('0');
  });
});
