import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FLAG_REASONS, MESSAGES, flagNoteError, type FlagReason, type FlagTarget } from '@porpoise/core';
import { FormError } from '@/components/form-error';
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
  const noteId = useId();
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ message: string; key: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const statusRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (sent) statusRef.current?.focus();
  }, [sent]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const refusal = reason === null ? 'Choose a reason' : flagNoteError(note);
    if (refusal !== null || reason === null) {
      setError({ message: refusal ?? 'Choose a reason', key: Date.now() });
      return;
    }
    setBusy(true);
    try {
      await flagItem(targetType, targetId, reason, note);
      setSent(true);
      dialog.current?.close();
    } catch (caught) {
      const message = userFacingError(caught, 'Failed to flag. Please try again.');
      // Flagged before (another tab): as good as sent.
      if (message === MESSAGES.alreadyFlagged) {
        setSent(true);
        dialog.current?.close();
      } else setError({ message, key: Date.now() });
    } finally {
      setBusy(false);
    }
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
      <dialog ref={dialog} className="flag-dialog" aria-labelledby={titleId} onClose={() => setError(null)}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <h2 id={titleId} className="flag-dialog__title">
            Flag {what}
          </h2>
          <fieldset className="flag-dialog__reasons">
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
          </fieldset>
          <label htmlFor={noteId} className="field__label">
            Note (optional)
          </label>
          <textarea
            id={noteId}
            className="field__input"
            rows={3}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          <FormError key={error?.key} message={error?.message ?? null} />
          <div className="flag-dialog__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
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
