import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { confirmEmail } from '../api/password-reset';

/**
 * /confirm-email?token=... (docs/product.md section 10): nothing changes until 'Confirm Email'
 * is pressed, so a mail scanner that opens the link changes nothing.
 */
export function ConfirmEmail({ token }: { token: string }) {
  const [state, setState] = useState<{ pending: boolean; done: boolean; error: string | null; attempt: number }>({
    pending: false,
    done: false,
    error: null,
    attempt: 0,
  });

  async function confirm() {
    if (state.pending) return;
    setState((current) => ({ ...current, pending: true, error: null, attempt: current.attempt + 1 }));
    try {
      await confirmEmail(token);
      setState((current) => ({ ...current, pending: false, done: true }));
    } catch (cause) {
      const error = userFacingError(cause, MESSAGES.unavailable);
      setState((current) => ({ ...current, pending: false, error }));
    }
  }

  // The news line is there from the start (a status that appears already filled is often
  // not read out); once the change is made it takes the focus the button had.
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state.done) status.current?.focus();
  }, [state.done]);

  return (
    <div className="form">
      {state.done ? null : <p>Confirm that your account should use the address this link was sent to.</p>}
      <p ref={status} className="form-notice" role="status" tabIndex={-1}>
        {state.done ? MESSAGES.emailConfirmed : ''}
      </p>
      {state.done ? (
        <p className="form__alternative">
          <Link to={paths.profile()}>Go to your profile</Link>
        </p>
      ) : (
        <>
          <FormError key={state.attempt} message={state.error} />
          <button
            type="button"
            className="button button--primary button--block"
            aria-disabled={state.pending}
            onClick={() => void confirm()}
          >
            Confirm Email
          </button>
        </>
      )}
    </div>
  );
}
