import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MESSAGES, emailError, passwordError, usernameError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { userFacingError } from '@/lib/api-client';
import { paths } from '@/config/paths';
import { register } from '../api/register';
import { useSessionChange } from '../hooks/use-session-change';
import { PasswordField } from './password-field';

type Field = 'email' | 'username' | 'password';

interface FieldError {
  message: string;
  field: Field | null;
}

/** The server's registration errors that point at one field, so that field is marked invalid. */
const SERVER_ERROR_FIELDS: Partial<Record<string, Field>> = {
  [MESSAGES.emailInUse]: 'email',
  [MESSAGES.emailInvalid]: 'email',
  [MESSAGES.usernameInUse]: 'username',
  [MESSAGES.usernameFormat]: 'username',
  [MESSAGES.passwordTooShort]: 'password',
  [MESSAGES.passwordTooLong]: 'password',
};

/** The first failing rule, in the order the fields appear on screen. */
function validate(email: string, username: string, password: string): FieldError | null {
  const checks: [Field, string | null][] = [
    ['email', emailError(email)],
    ['username', usernameError(username)],
    ['password', passwordError(password)],
  ];
  for (const [field, message] of checks) {
    if (message !== null) return { field, message };
  }
  return null;
}

export function RegisterForm() {
  const errorId = useId();
  const { signedIn } = useSessionChange();
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<FieldError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setError(null);
    setAttempt((count) => count + 1);

    const invalid = validate(email, username, password);
    if (invalid !== null) {
      setError(invalid);
      return;
    }

    setPending(true);
    try {
      const account = await register({ email: email.trim(), username, password });
      await signedIn(account.username, paths.accessibilitySettings());
    } catch (cause) {
      const message = userFacingError(cause, MESSAGES.registerFailed);
      setError({ message, field: SERVER_ERROR_FIELDS[message] ?? null });
      setPending(false);
    }
  }

  const fieldProps = (field: Field) => ({ invalid: error?.field === field, describedBy: errorId });

  return (
    <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate aria-busy={pending}>
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
        {...fieldProps('username')}
      />
      <PasswordField value={password} onChange={setPassword} autoComplete="new-password" {...fieldProps('password')} />
      <FormError key={attempt} id={errorId} message={error?.message ?? null} />
      <button type="submit" className="button button--primary button--block" aria-disabled={pending}>
        Sign Up
      </button>
      <p className="form__alternative">
        Already have an account? <Link to={paths.login()}>Sign In</Link>
      </p>
    </form>
  );
}
