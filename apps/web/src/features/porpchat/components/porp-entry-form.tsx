import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, porpNameError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { checkPorpName } from '../api/porpchat-api';
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
        // A member's name is refused here, beside the field, not after a first message (docs/product.md section 5).
        await checkPorpName(name.trim());
        storePorpName(name);
        await navigate(paths.porpchat());
      },
      failureMessage: (cause) => userFacingError(cause, 'Could not open PorpChat'),
      fieldOf: (message) => (message === MESSAGES.porpNameTaken || message === porpNameError(name) ? 'name' : null),
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
      <FormError key={form.attempt} message={form.formError} />
      <button type="submit" className="button button--primary button--block" aria-disabled={form.pending}>
        Submit
      </button>
    </form>
  );
}
