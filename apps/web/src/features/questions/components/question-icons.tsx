/** Decorative icons for the question screens; the text beside them carries the meaning. */
import type { SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

const base = {
  viewBox: '0 0 24 24',
  width: 20,
  height: 20,
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinejoin: 'round',
  strokeLinecap: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** A triangle pointing up or down: filled when the user's vote is on it, outlined otherwise. */
export function VoteArrow({ direction, filled, ...props }: IconProps & { direction: 'up' | 'down'; filled: boolean }) {
  const d = direction === 'up' ? 'M12 4 21 18H3z' : 'M12 20 3 6h18z';
  return (
    <svg {...base} width={24} height={24} fill={filled ? 'currentColor' : 'none'} {...props}>
      <path d={d} />
    </svg>
  );
}

export function SearchIcon(props: IconProps) {
  return (
    <svg {...base} fill="none" {...props}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <svg {...base} width={16} height={16} fill="none" {...props}>
      <path d="m5 12 5 5 9-10" />
    </svg>
  );
}
