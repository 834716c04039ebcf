const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * The spec's relative time: seconds under a minute, minutes under an hour, hours under a
 * day, then 'Mon DD at HH:MM', with the year once older than a year.
 */
export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return ago(seconds, 'second');
  if (seconds < 3600) return ago(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return ago(Math.floor(seconds / 3600), 'hour');
  const day = `${MONTHS[then.getMonth()]} ${pad(then.getDate())}`;
  const time = `${pad(then.getHours())}:${pad(then.getMinutes())}`;
  if (seconds < 365 * 86_400) return `${day} at ${time}`;
  return `${day}, ${then.getFullYear()} at ${time}`;
}

/**
 * The full local date and time ('Nov 23, 2026 at 18:32:05'), shown as a date's tooltip.
 * Spelled by hand like formatRelativeTime: Intl's formatters cost a long list's first paint
 * tens of milliseconds (the locale data loads on first use).
 */
export function formatFullTime(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A profile's 'Member since {Month YYYY}' (docs/product.md section 5), in local time. */
export function formatMemberSince(date: Date | string): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  return `Member since ${LONG_MONTHS[then.getMonth()]} ${then.getFullYear()}`;
}
