import { useEffect, useState } from 'react';
import { formatFullTime, formatRelativeTime } from '@porpoise/core';

const TICK_MS = 30_000;

/** A date shown as the spec's relative time ('5 minutes ago'), kept current while on screen. */
export function RelativeTime({ date, prefix = '' }: { date: string; prefix?: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  const then = new Date(date);
  return (
    <time dateTime={date} title={Number.isNaN(then.getTime()) ? undefined : formatFullTime(then)}>
      {prefix}
      {formatRelativeTime(then, now)}
    </time>
  );
}
