import { useId, useState, type ReactNode } from 'react';
import { FormError } from '@/components/form-error';

/**
 * A button whose action goes to the server: busy (and deaf to presses) while it is sent, the
 * server's refusal shown under it and tied to it. `run` resolves with that refusal, or null.
 */
export function AsyncButton({
  run,
  children,
  className = 'button',
  pressed,
  wrapperClassName,
}: {
  run: () => Promise<string | null>;
  children: ReactNode;
  className?: string;
  /** For a toggle (aria-pressed); absent for a plain action. */
  pressed?: boolean;
  wrapperClassName?: string;
}) {
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function press() {
    if (busy) return;
    setBusy(true);
    setError(null);
    const refusal = await run();
    setError(refusal);
    setBusy(false);
  }
  return (
    <div className={wrapperClassName ?? 'async-button'}>
      <button
        type="button"
        className={className}
        aria-pressed={pressed}
        aria-disabled={busy}
        aria-describedby={error === null ? undefined : errorId}
        onClick={() => void press()}
      >
        {children}
      </button>
      <FormError id={errorId} message={error} />
    </div>
  );
}
