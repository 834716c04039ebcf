import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MESSAGES, emailError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { requestPasswordReset } from '../api/password-reset';

/**
 * /forgot-password (docs/product.md section 10): an email and 'Send Reset Link'. The answer is
 * the same whether or not an account uses the address, so the page says only that much.
 */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useForm<'email'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ email: emailError(email) }),
      send: async () => {
        await requestPasswordReset(email.trim());
        setSent(true);
      },
      stays: true,
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) => (message === MESSAGES.emailInvalid || message === MESSAGES.emailRequired ? 'email' : null),
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <TextField
        id={form.fieldId('email')}
        label="Email"
        name="email"
        type="email"
        hint="The email of your account: we send it a link to choose a new password."
        value={email}
        onChange={(value) => {
          setEmail(value);
          setSent(false);
        }}
        autoComplete="email"
        required
        verbatim
        error={form.errorOf('email')}
        attempt={form.attempt}
      />
      <FormError key={form.attempt} message={form.formError} />
      <p className="form-notice" role="status">
        {sent ? MESSAGES.resetLinkSent : ''}
      </p>
      <button type="submit" className="button button--primary button--block" aria-disabled={form.pending}>
        Send Reset Link
      </button>
      <p className="form__alternative">
        Remembered it? <Link to={paths.login()}>Sign In</Link>
      </p>
    </form>
  );
}
