import { useState } from 'react';
import { MESSAGES } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { userFacingError } from '@/lib/api-client';
import { logout } from '../api/logout';
import { useSessionChange } from '../hooks/use-session-change';

/** Signs out on the server, then clears the browser's side and goes to the PorpChat entry (spec: /profile). */
export function SignOutButton() {
  const { signedOut } = useSessionChange();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function handleClick() {
    if (pending) return;
    setError(null);
    setPending(true);
    try {
      await logout();
    } catch (cause) {
      // The session is still valid on the server, so the browser must not pretend otherwise.
      setError(userFacingError(cause, MESSAGES.unavailable));
      setPending(false);
      return;
    }
    await signedOut();
  }

  return (
    <div className="sign-out">
      <button type="button" className="button" onClick={() => void handleClick()} aria-disabled={pending}>
        Sign Out
      </button>
      <FormError message={error} />
    </div>
  );
}
