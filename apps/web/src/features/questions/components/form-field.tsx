import { Field } from '@/components/field';

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

/** A labelled input or textarea of the question forms, with its hint and its own error below it. */
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
  return (
    <Field id={id} label={label} hint={hint} error={error} attempt={attempt}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            name={name}
            value={value}
            className="field__input field__input--multiline"
            rows={8}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...control}
            name={name}
            value={value}
            className="field__input"
            type="text"
            autoComplete="off"
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}
