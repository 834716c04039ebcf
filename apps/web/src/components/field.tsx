import type { ReactNode } from 'react';
import { AlertIcon } from './icons';

/** What a field's control (input, textarea or select) needs to be labelled and described. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  /** The control's id; the hint and the error take theirs from it. */
  id: string;
  label: string;
  hint?: ReactNode;
  /** This field's error, shown right below it and tied to the control (docs/product.md section 5). */
  error: string | null;
  /** Bumped at each submit so that a repeated message is announced again. */
  attempt?: number;
  /** Ids of other elements that describe the control (a tip), read after the hint. */
  describedBy?: string[];
  /** Renders the control with the props that label and describe it. */
  children: (control: FieldControlProps) => ReactNode;
}

export const fieldErrorId = (controlId: string) => `${controlId}-error`;

/**
 * One form field: its label, its hint (shown before any submit), the control and the
 * field's own error beside it, announced (role="alert") and linked with aria-describedby.
 * Errors about no single field belong above the submit button (FormError).
 */
export function Field({ id, label, hint, error, attempt = 0, describedBy = [], children }: FieldProps) {
  const hintId = `${id}-hint`;
  const errorId = fieldErrorId(id);
  const described = [hint === undefined ? null : hintId, ...describedBy, error === null ? null : errorId]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint === undefined ? null : (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {children({
        id,
        'aria-invalid': error === null ? undefined : true,
        'aria-describedby': described === '' ? undefined : described,
      })}
      <FieldError key={attempt} id={errorId} message={error} />
    </div>
  );
}

/** A field's error line: an icon and a hidden 'Error:' prefix, so it does not rely on colour. */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null;
  return (
    <p className="field-error" id={id} role="alert">
      <AlertIcon className="field-error__icon" width="16" height="16" />
      <span>
        <span className="visually-hidden">Error: </span>
        {message}
      </span>
    </p>
  );
}
