import { useId, type HTMLInputTypeAttribute, type ReactNode } from 'react';
import { Field } from './field';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name: string;
  type?: HTMLInputTypeAttribute;
  /** Defaults to a generated id; pass one when another control refers to the input (or focus moves to it). */
  id?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  /** This field's error, shown beside it. */
  error?: string | null;
  /** Bumped at each submit so that a repeated error is announced again. */
  attempt?: number;
  /** A control shown inside the field's right edge, such as a Show/Hide button. */
  action?: ReactNode;
  /** For names and passwords: no automatic capitals or spelling correction. */
  verbatim?: boolean;
  /** A text area of this many rows instead of one line (a question's or an answer's text). */
  rows?: number;
}

/**
 * The app's text field: a label above a full-width input (or, with `rows`, a text area),
 * with an optional hint below the label and its error below the control (Field).
 */
export function TextField({
  label,
  value,
  onChange,
  name,
  type = 'text',
  id,
  autoComplete,
  required = false,
  hint,
  error = null,
  attempt,
  action,
  verbatim = false,
  rows,
}: TextFieldProps) {
  const generatedId = useId();
  return (
    <Field id={id ?? generatedId} label={label} hint={hint} error={error} attempt={attempt}>
      {(control) =>
        rows !== undefined ? (
          <textarea
            {...control}
            className="field__input field__input--multiline"
            name={name}
            value={value}
            rows={rows}
            onChange={(event) => onChange(event.target.value)}
            required={required}
          />
        ) : (
          <div className={action === undefined ? 'field__control' : 'field__control field__control--with-action'}>
            <input
              {...control}
              className="field__input"
              name={name}
              type={type}
              value={value}
              onChange={(event) => onChange(event.target.value)}
              autoComplete={autoComplete}
              required={required}
              autoCapitalize={verbatim ? 'none' : undefined}
              spellCheck={verbatim ? false : undefined}
            />
            {action}
          </div>
        )
      }
    </Field>
  );
}
