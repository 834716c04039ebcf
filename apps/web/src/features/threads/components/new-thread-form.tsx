import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, MESSAGES, recipientError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { SuggestField, type Suggestion } from '@/components/suggest-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { addThread } from '../api/add-thread';
import { suggestUsers } from '../api/suggest-users';

/** Members whose name starts with what is typed (docs/product.md section 5). */
async function recipientSuggestions(prefix: string, signal: AbortSignal): Promise<Suggestion[]> {
  return (await suggestUsers(prefix, signal)).map(({ username }) => ({ value: username, label: username }));
}

/** Starts a direct thread with another member, then shows the thread list (spec: /new/thread). */
export function NewThreadForm({ username }: { username: string }) {
  const navigate = useNavigate();
  const [recipient, setRecipient] = useState('');
  const form = useForm<'recipient'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ recipient: recipientError(recipient) }),
      send: async () => {
        await addThread(username, recipient);
        await navigate(paths.threads());
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.threadFailed),
      // An unknown recipient (or one already talked to) is about the field; an outage is not.
      fieldOf: (message) => (message === MESSAGES.threadFailed ? 'recipient' : null),
    });
  }

  return (
    <form className="form card form-card" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <SuggestField
        id={form.fieldId('recipient')}
        label="Thread Recipient"
        name="recipient"
        value={recipient}
        onChange={setRecipient}
        hint="Must be valid username"
        mode="whole"
        maxLength={LIMITS.usernameMax}
        suggest={recipientSuggestions}
        required
        verbatim
        error={form.errorOf('recipient')}
        attempt={form.attempt}
      />
      <FormError key={form.attempt} message={form.formError} />
      <div className="button-row">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          Create Thread
        </button>
      </div>
    </form>
  );
}
