import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, recipientError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { addThread } from '../api/add-thread';

/** Starts a direct thread with another member, then shows the thread list (spec: /new/thread). */
export function NewThreadForm({ username }: { username: string }) {
  const errorId = useId();
  const navigate = useNavigate();
  const [recipient, setRecipient] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    const message = recipientError(recipient);
    setError(message);
    if (message !== null) return;
    setPending(true);
    try {
      await addThread(username, recipient);
    } catch (cause) {
      setError(userFacingError(cause, MESSAGES.threadFailed));
      setPending(false);
      return;
    }
    await navigate(paths.threads());
  }

  return (
    <form className="form card form-card" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <TextField
        label="Thread Recipient"
        name="recipient"
        value={recipient}
        onChange={setRecipient}
        hint="Must be valid username"
        autoComplete="off"
        required
        verbatim
        invalid={error !== null}
        describedBy={errorId}
      />
      <FormError key={attempt} id={errorId} message={error} />
      <div className="button-row">
        <button type="submit" className="button button--primary" aria-disabled={pending}>
          Create Thread
        </button>
      </div>
    </form>
  );
}
