import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, passwordError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { resetPassword } from '../api/password-reset';
import { PasswordField } from '@/components/password-field';

/** Where /login reads the line it shows above its form after a reset. */
export interface LoginNotice {
  notice?: string;
}

/**
 * /reset-password?token=... (docs/product.md section 10): a new password, checked by the
 * rules before it is sent (a refused one leaves the link working), then /login.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const form = useForm<'password'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ password: passwordError(password) }),
      send: async () => {
        await resetPassword(token, password);
        const state: LoginNotice = { notice: MESSAGES.passwordChanged };
        await navigate(paths.login(), { state });
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) => (message === MESSAGES.linkExpired || message === MESSAGES.unavailable ? null : 'password'),
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <PasswordField
        id={form.fieldId('password')}
        label="New password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint="At least 6 characters"
        error={form.errorOf('password')}
        attempt={form.attempt}
      />
      <FormError key={form.attempt} message={form.formError} />
      {form.formError === MESSAGES.linkExpired ? (
        <p className="form__alternative">
          <Link to={paths.forgotPassword()}>Send a new link</Link>
        </p>
      ) : null}
      <button type="submit" className="button button--primary button--block" aria-disabled={form.pending}>
        Set Password
      </button>
    </form>
  );
}
