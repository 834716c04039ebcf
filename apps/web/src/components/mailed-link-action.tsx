import { useEffect, useRef, useState, type ReactNode } from 'react';
import { MESSAGES } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { userFacingError } from '@/lib/api-client';

/**
 * The page a mailed link opens (a new email to confirm, a digest to stop): nothing changes
 * until its one button is pressed, so a mail scanner that opens the link changes nothing.
 * The news line is there from the start (a status that appears already filled is often not
 * read out); once the change is made it takes the focus the button had.
 */
export function MailedLinkAction({
  intro,
  label,
  act,
  done,
  after,
}: {
  /** What pressing the button does, shown until it is pressed. */
  intro: ReactNode;
  label: string;
  act: () => Promise<unknown>;
  /** The status once done. */
  done: string;
  /** Shown once done (a way on). */
  after?: ReactNode;
}) {
  const [state, setState] = useState<{ pending: boolean; done: boolean; error: string | null; attempt: number }>({
    pending: false,
    done: false,
    error: null,
    attempt: 0,
  });

  async function run() {
    if (state.pending) return;
    setState((current) => ({ ...current, pending: true, error: null, attempt: current.attempt + 1 }));
    try {
      await act();
      setState((current) => ({ ...current, pending: false, done: true }));
    } catch (cause) {
      const error = userFacingError(cause, MESSAGES.unavailable);
      setState((current) => ({ ...current, pending: false, error }));
    }
  }

  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state.done) status.current?.focus();
  }, [state.done]);

  return (
    <div className="form">
      {state.done ? null : intro}
      <p ref={status} className="form-notice" role="status" tabIndex={-1}>
        {state.done ? done : ''}
      </p>
      {state.done ? (
        (after ?? null)
      ) : (
        <>
          <FormError key={state.attempt} message={state.error} />
          <button
            type="button"
            className="button button--primary button--block"
            aria-disabled={state.pending}
            onClick={() => void run()}
          >
            {label}
          </button>
        </>
      )}
    </div>
  );
}
