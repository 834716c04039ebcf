import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, safeRedirectPath } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { useForm } from '@/hooks/use-form';
import { ApiError, userFacingError } from '@/lib/api-client';
import { REDIRECT_PARAM, paths } from '@/config/paths';
import { login } from '../api/login';
import { useSessionChange } from '../hooks/use-session-change';
import { PasswordField } from '@/components/password-field';
import type { LoginNotice } from './reset-password-form';

function loginErrorMessage(cause: unknown): string {
  // The server answers a wrong name or password with this same text; keep it if a reply lacks it.
  if (cause instanceof ApiError && cause.status === 401 && cause.serverMessage === null) return MESSAGES.invalidLogin;
  return userFacingError(cause, MESSAGES.unavailable);
}

export function LoginForm() {
  const [searchParams] = useSearchParams();
  // A line sent by the page before (a password just reset), shown once: taken out of the
  // history entry so a reload does not show it again, and put into a status line that is
  // on the page from the start, so screen readers read it.
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState('');
  useEffect(() => {
    const sent = (location.state as LoginNotice | null)?.notice;
    if (sent === undefined) return;
    // Filled a frame after the empty line is drawn, so it is announced as news (not
    // cancelled when the history entry below changes the location and runs this again).
    requestAnimationFrame(() => setNotice(sent));
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location, navigate]);
  const { signedIn } = useSessionChange();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm<'username' | 'password'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      // Only presence is checked here: the server decides whether the pair is right.
      validate: () => ({
        username: username.trim() === '' ? MESSAGES.usernameRequired : null,
        password: password === '' ? MESSAGES.passwordRequired : null,
      }),
      send: async () => {
        const account = await login({ username: username.trim(), password });
        const next = safeRedirectPath(searchParams.get(REDIRECT_PARAM)) ?? paths.home();
        await signedIn(account.username, next);
      },
      // 'Invalid username or password' is about the pair, not one field: it stays above the button.
      failureMessage: loginErrorMessage,
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <p className="form-notice" role="status">
        {notice}
      </p>
      <TextField
        id={form.fieldId('username')}
        label="Username"
        name="username"
        value={username}
        onChange={setUsername}
        autoComplete="username"
        required
        verbatim
        error={form.errorOf('username')}
        attempt={form.attempt}
      />
      <PasswordField
        id={form.fieldId('password')}
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        error={form.errorOf('password')}
        attempt={form.attempt}
      />
      <p className="form__forgot">
        <Link to={paths.forgotPassword()}>Forgot password?</Link>
      </p>
      <FormError key={form.attempt} message={form.formError} />
      <button type="submit" className="button button--primary button--block" aria-disabled={form.pending}>
        Sign In
      </button>
      <p className="form__alternative">
        New to Porpoise? <Link to={paths.register()}>Create Your Account</Link>
      </p>
    </form>
  );
}
