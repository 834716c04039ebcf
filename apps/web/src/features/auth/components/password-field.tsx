import { useId, useState } from 'react';
import { TextField } from '@/components/text-field';

export interface PasswordFieldProps {
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'new-password' | 'current-password';
  invalid?: boolean;
  describedBy?: string;
}

/** The Password field with a Show/Hide toggle that reveals what was typed (spec: /register). */
export function PasswordField({ value, onChange, autoComplete, invalid, describedBy }: PasswordFieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      id={id}
      label="Password"
      name="password"
      type={shown ? 'text' : 'password'}
      value={value}
      onChange={onChange}
      autoComplete={autoComplete}
      required
      verbatim
      invalid={invalid}
      describedBy={describedBy}
      action={
        <button
          type="button"
          className="field__action"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((current) => !current)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}
