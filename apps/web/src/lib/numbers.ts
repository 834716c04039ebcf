/*
 * Spelled by hand, like core's formatRelativeTime: Intl's formatters load their locale data on
 * first use, which a list's first paint would pay for.
 */

/** A whole number with thousands separators, as the app shows counts and reputation: '12,345'. */
export function formatCount(value: number): string {
  const digits = String(Math.abs(Math.trunc(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** A change with its sign and thousands separators: '+10', '-2', '+12,344'; no change is '0'. */
export function formatChange(value: number): string {
  return value > 0 ? `+${formatCount(value)}` : formatCount(value);
}
