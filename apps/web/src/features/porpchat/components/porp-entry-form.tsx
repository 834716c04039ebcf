import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { porpNameError } from '@porpoise/core';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { storePorpName } from '../porp-name';

/** Asks for the name to chat under, then opens PorpChat (spec: / and /porp). */
export function PorpEntryForm() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const form = useForm<'name'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ name: porpNameError(name) }),
      send: async () => {
        storePorpName(name);
        await navigate(paths.porpchat());
      },
      failureMessage: () => 'Could not open PorpChat',
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <TextField
        id={form.fieldId('name')}
        label="Username"
        name="porpUsername"
        value={name}
        onChange={setName}
        autoComplete="nickname"
        required
        hint="Any name you like: PorpChat needs no account."
        error={form.errorOf('name')}
        attempt={form.attempt}
      />
      <button type="submit" className="button button--primary button--block">
        Submit
      </button>
    </form>
  );
}
