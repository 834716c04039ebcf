import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LIMITS, MESSAGES, emailError, passwordError, usernameError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { paths } from '@/config/paths';
import { register } from '../api/register';
import { useSessionChange } from '../hooks/use-session-change';
import { PasswordField } from '@/components/password-field';

type Field = 'email' | 'username' | 'password';

/** The server's registration errors that point at one field, shown beside it. */
const SERVER_ERROR_FIELDS: Partial<Record<string, Field>> = {
  [MESSAGES.emailInUse]: 'email',
  [MESSAGES.emailInvalid]: 'email',
  [MESSAGES.emailRequired]: 'email',
  [MESSAGES.usernameInUse]: 'username',
  [MESSAGES.usernameFormat]: 'username',
  [MESSAGES.usernameRequired]: 'username',
  [MESSAGES.passwordTooShort]: 'password',
  [MESSAGES.passwordTooLong]: 'password',
  [MESSAGES.passwordRequired]: 'password',
};

/** The rules a user must meet, shown under their fields before any submit (docs/product.md section 5). */
export const USERNAME_HINT = `${LIMITS.usernameMin}-${LIMITS.usernameMax} characters: letters, digits, dot, dash or underscore`;
export const PASSWORD_HINT = `At least ${LIMITS.passwordMin} characters`;

export function RegisterForm() {
  const { signedIn } = useSessionChange();
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm<Field>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({
        email: emailError(email),
        username: usernameError(username),
        password: passwordError(password),
      }),
      send: async () => {
        const account = await register({ email: email.trim(), username, password });
        await signedIn(account.username, paths.accessibilitySettings());
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.registerFailed),
      fieldOf: (message) => SERVER_ERROR_FIELDS[message] ?? null,
    });
  }

  const fieldProps = (field: Field) => ({
    id: form.fieldId(field),
    error: form.errorOf(field),
    attempt: form.attempt,
  });

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <TextField
        label="Email"
        name="email"
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="email"
        required
        verbatim
        {...fieldProps('email')}
      />
      <TextField
        label="Username"
        name="username"
        value={username}
        onChange={setUsername}
        autoComplete="username"
        required
        verbatim
        hint={USERNAME_HINT}
        {...fieldProps('username')}
      />
      <PasswordField
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        {...fieldProps('password')}
      />
      <FormError key={form.attempt} message={form.formError} />
      <button type="submit" className="button button--primary button--block" aria-disabled={form.pending}>
        Sign Up
      </button>
      <p className="form__alternative">
        Already have an account? <Link to={paths.login()}>Sign In</Link>
      </p>
    </form>
  );
}
