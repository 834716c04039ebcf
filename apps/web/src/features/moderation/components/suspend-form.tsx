import { useState, type FormEvent } from 'react';
import { MESSAGES, parseSuspensionDays, suspensionReasonError } from '@porpoise/core';
import { Field } from '@/components/field';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { suspendAuthor, type ReviewItem } from '../api/moderation';

/** The server's refusals about 'Days', shown beside that field. */
const DAYS_MESSAGES = new Set<string>([
  MESSAGES.suspensionDays,
  MESSAGES.suspensionDaysRequired,
  MESSAGES.suspensionDaysAndForever,
]);

/**
 * Suspends an item's author: a reason, and days or 'Suspend for good'. Named as the item shows
 * them: a PorpChat message's typed name, never its account (docs/product.md section 10).
 */
export function SuspendForm({ item, onDone }: { item: ReviewItem; onDone: (text: string) => void }) {
  const username = item.author;
  const form = useForm<'reason' | 'days'>();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const [forever, setForever] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    // Days are required unless 'Suspend for good' is checked (docs/product.md section 5).
    const parsed = forever ? { days: null } : parseSuspensionDays(days);
    void form.submit({
      validate: () => ({ reason: suspensionReasonError(reason), days: 'error' in parsed ? parsed.error : null }),
      send: async () => {
        if ('error' in parsed) return;
        const result = await suspendAuthor(item.targetType, item.targetId, reason.trim(), parsed.days);
        onDone(
          result.suspendedUntil === null
            ? `${username} is suspended for good.`
            : `${username} is suspended until ${new Date(result.suspendedUntil).toLocaleString()}.`,
        );
      },
      failureMessage: (caught) => userFacingError(caught, 'Failed to suspend. Please try again.'),
      fieldOf: (message) => (DAYS_MESSAGES.has(message) ? 'days' : message.startsWith('Reason ') ? 'reason' : null),
    });
  }

  return (
    <form className="suspend-form" onSubmit={submit} noValidate aria-label={`Suspend ${username}`}>
      <TextField
        id={form.fieldId('reason')}
        label="Reason"
        name="reason"
        value={reason}
        onChange={setReason}
        error={form.errorOf('reason')}
        attempt={form.attempt}
      />
      <Field
        id={form.fieldId('days')}
        label="Days"
        hint="Required unless 'Suspend for good' is checked."
        error={form.errorOf('days')}
        attempt={form.attempt}
      >
        {(control) => (
          <input
            {...control}
            className="field__input suspend-form__days"
            name="days"
            inputMode="numeric"
            value={days}
            disabled={forever}
            onChange={(event) => setDays(event.target.value)}
          />
        )}
      </Field>
      <label className="suspend-form__forever">
        <input type="checkbox" checked={forever} onChange={(event) => setForever(event.target.checked)} />
        Suspend for good
      </label>
      <FormError key={form.attempt} message={form.formError} />
      <button type="submit" className="button" aria-disabled={form.pending}>
        Suspend
      </button>
    </form>
  );
}
