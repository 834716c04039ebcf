import { useState } from 'react';
import { TextField } from '@/components/text-field';

export interface PasswordFieldProps {
  /** The input's id (the Show/Hide button controls it). */
  id: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'new-password' | 'current-password';
  /** 'Password' unless given ('Current password', 'New password'). */
  label?: string;
  name?: string;
  hint?: string;
  error?: string | null;
  attempt?: number;
}

/** The Password field with a Show/Hide toggle that reveals what was typed (spec: /register). */
export function PasswordField({
  id,
  value,
  onChange,
  autoComplete,
  label = 'Password',
  name = 'password',
  hint,
  error,
  attempt,
}: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <TextField
      id={id}
      label={label}
      name={name}
      type={shown ? 'text' : 'password'}
      value={value}
      onChange={onChange}
      autoComplete={autoComplete}
      required
      verbatim
      hint={hint}
      error={error}
      attempt={attempt}
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
