import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { porpNameError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { storePorpName } from '../porp-name';

/** Asks for the name to chat under, then opens PorpChat (spec: / and /porp). */
export function PorpEntryForm() {
  const errorId = useId();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempt((count) => count + 1);
    const message = porpNameError(name);
    setError(message);
    if (message !== null) return;
    storePorpName(name);
    void navigate(paths.porpchat());
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <TextField
        label="Username"
        name="porpUsername"
        value={name}
        onChange={setName}
        autoComplete="nickname"
        required
        hint="Any name you like: PorpChat needs no account."
        invalid={error !== null}
        describedBy={errorId}
      />
      <FormError key={attempt} id={errorId} message={error} />
      <button type="submit" className="button button--primary button--block">
        Submit
      </button>
    </form>
  );
}
