import { useCallback, useId, useState } from 'react';
import { revealField } from '@/lib/reveal-field';

export type FieldErrors<F extends string> = Partial<Record<F, string | null>>;

export interface SubmitOptions<F extends string> {
  /** Each field's error or null, in the order the fields appear; checked before anything is sent. */
  validate?: () => FieldErrors<F>;
  /** Sends the form (and moves on, e.g. navigates, or clears it); a throw is shown as an error. */
  send: () => Promise<void>;
  /** The text shown for a failure of send. */
  failureMessage: (cause: unknown) => string;
  /** The field a failure's text is about, if any (a server rule's message); otherwise it concerns the form. */
  fieldOf?: (message: string) => F | null;
  /**
   * The form stays on screen after a send (a comment, a message, the bio), so it takes the
   * next one at once. Otherwise it stays pending until it is gone: a form that navigates
   * away shows no enabled button that a second click could send twice.
   */
  stays?: boolean;
}

/**
 * One form's state (the web half of the write path, docs/style.md): pending, each field's
 * error beside it, an error about no field above the submit button, all cleared at each
 * submit, and an attempt count that makes a repeated message be announced again. When a
 * submit fails on a field, focus moves to that field with its label in view below the
 * sticky header (docs/product.md section 5).
 */
export function useForm<F extends string>() {
  const baseId = useId();
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  const fieldId = useCallback((field: F) => `${baseId}-${field}`, [baseId]);
  const focusField = useCallback((field: F) => revealField(document.getElementById(`${baseId}-${field}`)), [baseId]);

  const fail = useCallback(
    (found: FieldErrors<F>) => {
      setErrors(found);
      const first = (Object.keys(found) as F[]).find((field) => found[field] != null);
      if (first !== undefined) focusField(first);
    },
    [focusField],
  );

  async function submit({ validate, send, failureMessage, fieldOf, stays = false }: SubmitOptions<F>): Promise<void> {
    if (pending) return;
    setAttempt((count) => count + 1);
    setFormError(null);
    const found = validate?.() ?? {};
    if (Object.values(found).some((message) => message != null)) {
      fail(found);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await send();
      if (stays) setPending(false);
    } catch (cause) {
      const message = failureMessage(cause);
      const field = fieldOf?.(message) ?? null;
      if (field === null) setFormError(message);
      else fail({ [field]: message } as FieldErrors<F>);
      setPending(false);
    }
  }

  /** Forgets every error (a form opened again). */
  const reset = useCallback(() => {
    setErrors({});
    setFormError(null);
  }, []);

  return {
    /** The control id of a field (its hint and error ids derive from it). */
    fieldId,
    /** A field's current error, or null. */
    errorOf: (field: F): string | null => errors[field] ?? null,
    formError,
    /** Shows an error about no field (above the submit button). */
    setFormError,
    attempt,
    pending,
    submit,
    reset,
  };
}
