import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FLAG_REASONS, MESSAGES, flagNoteError, type FlagReason, type FlagTarget } from '@porpoise/core';
import { Field, FieldError, fieldErrorId } from '@/components/field';
import { FormError } from '@/components/form-error';
import { useForm } from '@/hooks/use-form';
import { callApi, userFacingError } from '@/lib/api-client';

/** Flags an item (docs/product.md section 10): one flag per member per item. */
function flagItem(targetType: FlagTarget, targetId: string, reason: FlagReason, note: string) {
  return callApi('POST /flag', { body: { targetType, targetId, reason, ...(note.trim() === '' ? {} : { note }) } });
}

const REASON_LABELS: Record<FlagReason, string> = {
  spam: 'Spam',
  rude: 'Rude',
  'off-topic': 'Off-topic',
  other: 'Other',
};

/**
 * A 'Flag' button opening a dialog (docs/product.md section 10): the four reasons as radio
 * buttons, an optional note, and a 'Flag' button that sends it. A native modal dialog: it
 * keeps focus inside, Escape closes it, and focus returns to the button. Once sent, the
 * button gives way to a thank-you that is announced.
 */
export function FlagControl({
  targetType,
  targetId,
  what,
}: {
  targetType: FlagTarget;
  targetId: string;
  what: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const form = useForm<'reason' | 'note'>();
  const reasonsId = form.fieldId('reason');
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const statusRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (sent) statusRef.current?.focus();
  }, [sent]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ reason: reason === null ? 'Choose a reason' : null, note: flagNoteError(note) }),
      send: async () => {
        if (reason === null) return;
        try {
          await flagItem(targetType, targetId, reason, note);
        } catch (caught) {
          // Flagged before (another tab): as good as sent.
          if (userFacingError(caught, '') !== MESSAGES.alreadyFlagged) throw caught;
        }
        setSent(true);
        dialog.current?.close();
      },
      failureMessage: (caught) => userFacingError(caught, 'Failed to flag. Please try again.'),
      // The server's refusal of the note (core's rule: 'Note ...') goes beside it.
      fieldOf: (message) => (message.startsWith('Note ') ? 'note' : null),
      // Sent, the dialog closes but this control stays mounted: nothing is left pending.
      stays: true,
    });
  }

  // The thank-you lives in a status region present from the start (so it is announced),
  // and takes the focus the dialog gives back, as the button it replaces is gone.
  const status = (
    <span className="flag-sent muted" role="status" tabIndex={sent ? -1 : undefined} ref={statusRef}>
      {sent ? MESSAGES.flagSent : ''}
    </span>
  );
  return (
    <>
      {status}
      {sent ? null : (
        <button type="button" className="link-button flag-button" onClick={() => dialog.current?.showModal()}>
          Flag<span className="visually-hidden"> {what}</span>
        </button>
      )}
      <dialog ref={dialog} className="flag-dialog" aria-labelledby={titleId} onClose={form.reset}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <h2 id={titleId} className="flag-dialog__title">
            Flag {what}
          </h2>
          <fieldset
            className="flag-dialog__reasons"
            id={reasonsId}
            tabIndex={-1}
            aria-describedby={form.errorOf('reason') === null ? undefined : fieldErrorId(reasonsId)}
          >
            <legend>Why should a moderator look at it?</legend>
            {FLAG_REASONS.map((value) => (
              <label key={value} className="flag-dialog__reason">
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                />
                {REASON_LABELS[value]}
              </label>
            ))}
            <FieldError key={form.attempt} id={fieldErrorId(reasonsId)} message={form.errorOf('reason')} />
          </fieldset>
          <Field id={form.fieldId('note')} label="Note (optional)" error={form.errorOf('note')} attempt={form.attempt}>
            {(control) => (
              <textarea
                {...control}
                className="field__input"
                rows={3}
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            )}
          </Field>
          <FormError key={form.attempt} message={form.formError} />
          <div className="flag-dialog__actions">
            <button type="submit" className="button button--primary" disabled={form.pending}>
              Flag
            </button>
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
