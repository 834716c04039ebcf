import { AlertIcon } from '@/components/icons';

export interface FormFieldProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  name: string;
  error: string | null;
  multiline?: boolean;
  /** Bumped at each submit so that a repeated message is announced again. */
  attempt: number;
}

/** A labelled input or textarea with its hint, and its own error right below it (role="alert"). */
export function FormField({
  id,
  label,
  hint,
  value,
  onChange,
  name,
  error,
  multiline = false,
  attempt,
}: FormFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const control = {
    id,
    name,
    value,
    className: multiline ? 'field__input field__input--multiline' : 'field__input',
    'aria-invalid': error === null ? undefined : true,
    'aria-describedby': error === null ? hintId : `${hintId} ${errorId}`,
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <p className="field__hint" id={hintId}>
        {hint}
      </p>
      {multiline ? (
        <textarea {...control} rows={8} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...control} type="text" autoComplete="off" onChange={(event) => onChange(event.target.value)} />
      )}
      {error === null ? null : (
        <p key={attempt} className="field-error" id={errorId} role="alert">
          <AlertIcon className="field-error__icon" width="16" height="16" />
          <span>
            <span className="visually-hidden">Error: </span>
            {error}
          </span>
        </p>
      )}
    </div>
  );
}
