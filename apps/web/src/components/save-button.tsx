import type { ReactNode } from 'react';

/** What a save button says while its request is under way. */
export const SAVING = 'Saving...';

/**
 * A form's save button (the pending state of `useForm`): while the request is under way it
 * says 'Saving...', not only fades, and takes no second click; it keeps the focus
 * (aria-disabled, not disabled). Otherwise it shows its own text (the spec's).
 */
export function SaveButton({
  pending,
  children,
  className = 'button button--primary',
}: {
  pending: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button type="submit" className={className} aria-disabled={pending}>
      {pending ? SAVING : children}
    </button>
  );
}
