import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MESSAGES, safeRedirectPath } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { ApiError, userFacingError } from '@/lib/api-client';
import { REDIRECT_PARAM, paths } from '@/config/paths';
import { login } from '../api/login';
import { useSessionChange } from '../hooks/use-session-change';
import { PasswordField } from './password-field';

function loginErrorMessage(cause: unknown): string {
  // The server answers a wrong name or password with this same text; keep it if a reply lacks it.
  if (cause instanceof ApiError && cause.status === 401 && cause.serverMessage === null) return MESSAGES.invalidLogin;
  return userFacingError(cause, MESSAGES.unavailable);
}

export function LoginForm() {
  const errorId = useId();
  const [searchParams] = useSearchParams();
  const { signedIn } = useSessionChange();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setError(null);
    setAttempt((count) => count + 1);

    // Only presence is checked here: the server decides whether the pair is right.
    const missing =
      username.trim() === '' ? MESSAGES.usernameRequired : password === '' ? MESSAGES.passwordRequired : null;
    if (missing !== null) {
      setError(missing);
      return;
    }

    setPending(true);
    try {
      const account = await login({ username: username.trim(), password });
      const next = safeRedirectPath(searchParams.get(REDIRECT_PARAM)) ?? paths.home();
      await signedIn(account.username, next);
    } catch (cause) {
      setError(loginErrorMessage(cause));
      setPending(false);
    }
  }

  const invalid = error !== null;
  return (
    <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate aria-busy={pending}>
      <TextField
        label="Username"
        name="username"
        value={username}
        onChange={setUsername}
        autoComplete="username"
        required
        verbatim
        invalid={invalid}
        describedBy={errorId}
      />
      <PasswordField
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        invalid={invalid}
        describedBy={errorId}
      />
      <FormError key={attempt} id={errorId} message={error} />
      <button type="submit" className="button button--primary button--block" aria-disabled={pending}>
        Sign In
      </button>
      <p className="form__alternative">
        New to Porpoise? <Link to={paths.register()}>Create Your Account</Link>
      </p>
    </form>
  );
}
