import { useId, type HTMLInputTypeAttribute, type ReactNode } from 'react';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name: string;
  type?: HTMLInputTypeAttribute;
  /** Defaults to a generated id; pass one when another control refers to the input. */
  id?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  invalid?: boolean;
  /** Id of an element (such as the form's error) that describes the field. */
  describedBy?: string;
  /** A control shown inside the field's right edge, such as a Show/Hide button. */
  action?: ReactNode;
  /** For names and passwords: no automatic capitals or spelling correction. */
  verbatim?: boolean;
}

/** A label above a full-width input, with an optional hint below the label. */
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
  invalid = false,
  describedBy,
  action,
  verbatim = false,
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const described = [hint === undefined ? null : hintId, invalid ? (describedBy ?? null) : null]
    .filter((part) => part !== null)
    .join(' ');

  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {hint === undefined ? null : (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      <div className={action === undefined ? 'field__control' : 'field__control field__control--with-action'}>
        <input
          className="field__input"
          id={inputId}
          name={name}
          type={type}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={autoComplete}
          required={required}
          aria-invalid={invalid || undefined}
          aria-describedby={described === '' ? undefined : described}
          autoCapitalize={verbatim ? 'none' : undefined}
          spellCheck={verbatim ? false : undefined}
        />
        {action}
      </div>
    </div>
  );
}
