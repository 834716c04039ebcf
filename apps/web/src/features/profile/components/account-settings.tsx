import { useState, type FormEvent } from 'react';
import { MESSAGES, emailError, passwordError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { PasswordField } from '@/components/password-field';
import { SaveButton } from '@/components/save-button';
import { TextField } from '@/components/text-field';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { useSocket } from '@/lib/socket';
import { changeEmail, changePassword } from '../api/account-settings';

const PASSWORD_CHANGED = 'Your password was changed. Your other sessions were signed out.';

function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const form = useForm<'current' | 'next'>();
  const socket = useSocket();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    void form.submit({
      validate: () => ({
        current: current === '' ? MESSAGES.passwordRequired : null,
        next: passwordError(next),
      }),
      send: async () => {
        await changePassword(current, next);
        // The change replaced this session (its socket was closed): reconnect with the new cookie.
        socket.reconnect();
        setCurrent('');
        setNext('');
        setDone(true);
      },
      stays: true,
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) => {
        if (message === MESSAGES.currentPasswordIncorrect) return 'current';
        return message === MESSAGES.passwordTooShort || message === MESSAGES.passwordTooLong ? 'next' : null;
      },
    });
  }

  return (
    <form
      className="form"
      onSubmit={handleSubmit}
      noValidate
      aria-busy={form.pending}
      aria-labelledby="change-password"
    >
      <h3 id="change-password" className="profile-section__subtitle">
        Change password
      </h3>
      <PasswordField
        id={form.fieldId('current')}
        label="Current password"
        name="currentPassword"
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
        error={form.errorOf('current')}
        attempt={form.attempt}
      />
      <PasswordField
        id={form.fieldId('next')}
        label="New password"
        name="newPassword"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
        hint="At least 6 characters"
        error={form.errorOf('next')}
        attempt={form.attempt}
      />
      {/* One row: the columns' headings and fields line up above it (styles: .account-settings). */}
      <div className="account-settings__submit">
        <FormError key={form.attempt} message={form.formError} />
        <p className="form-notice" role="status">
          {done ? PASSWORD_CHANGED : ''}
        </p>
        <SaveButton pending={form.pending}>Change Password</SaveButton>
      </div>
    </form>
  );
}

function ChangeEmailForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const form = useForm<'email' | 'password'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    void form.submit({
      validate: () => ({
        email: emailError(email),
        password: password === '' ? MESSAGES.passwordRequired : null,
      }),
      send: async () => {
        await changeEmail(email.trim(), password);
        setPassword('');
        setDone(true);
      },
      stays: true,
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) => {
        if (message === MESSAGES.currentPasswordIncorrect) return 'password';
        const aboutEmail: string[] = [MESSAGES.emailInUse, MESSAGES.emailUnchanged, MESSAGES.emailInvalid];
        return aboutEmail.includes(message) ? 'email' : null;
      },
    });
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending} aria-labelledby="change-email">
      <h3 id="change-email" className="profile-section__subtitle">
        Change email
      </h3>
      <TextField
        id={form.fieldId('email')}
        label="New email"
        name="newEmail"
        type="email"
        hint="We send a link to it; your email changes when you open the link and confirm."
        value={email}
        onChange={setEmail}
        autoComplete="email"
        verbatim
        error={form.errorOf('email')}
        attempt={form.attempt}
      />
      <PasswordField
        id={form.fieldId('password')}
        label="Current password"
        name="currentPassword"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        error={form.errorOf('password')}
        attempt={form.attempt}
      />
      {/* One row: the columns' headings and fields line up above it (styles: .account-settings). */}
      <div className="account-settings__submit">
        <FormError key={form.attempt} message={form.formError} />
        <p className="form-notice" role="status">
          {done ? MESSAGES.confirmEmailSent : ''}
        </p>
        <SaveButton pending={form.pending}>Change Email</SaveButton>
      </div>
    </form>
  );
}

/** The account's settings on /profile (docs/product.md section 10): its password and its email. */
export function AccountSettings() {
  return (
    <section className="card profile-section account-settings-card" aria-labelledby="account-settings">
      <h2 id="account-settings" className="profile-section__title">
        Account settings
      </h2>
      <div className="account-settings">
        <ChangePasswordForm />
        <ChangeEmailForm />
      </div>
    </section>
  );
}
