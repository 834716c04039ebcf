import { useId, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { DIGEST_FREQUENCIES, MESSAGES, type DigestFrequency } from '@porpoise/core';
import { Field } from '@/components/field';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { setDigest } from '../api/set-digest';

const DIGEST_LABELS: Record<DigestFrequency, string> = { off: 'Off', daily: 'Daily', weekly: 'Weekly' };

const isDigest = (value: string): value is DigestFrequency => (DIGEST_FREQUENCIES as readonly string[]).includes(value);

const savedText = (digest: DigestFrequency) =>
  digest === 'off'
    ? 'Email digest saved: off. We will not mail you a digest.'
    : `Email digest saved: ${DIGEST_LABELS[digest].toLowerCase()}.`;

/**
 * /profile's 'Email digest' selector (docs/product.md section 11): the saved value, saved again
 * as soon as another is chosen, with a status line that says so. The account is loaded again
 * afterwards, so the profile shows the new value when the member comes back to it.
 */
export function DigestSetting({ saved }: { saved: DigestFrequency }) {
  const id = useId();
  const { revalidate } = useRevalidator();
  const [digest, setDigestChoice] = useState(saved);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Only the latest choice's answer speaks, when one is chosen while another is being saved.
  const latest = useRef(0);

  async function choose(value: DigestFrequency) {
    const previous = digest;
    setDigestChoice(value);
    setStatus('');
    setError(null);
    setAttempt((count) => count + 1);
    const request = ++latest.current;
    try {
      const account = await setDigest(value);
      if (request !== latest.current) return;
      setDigestChoice(account.digest);
      setStatus(savedText(account.digest));
      void revalidate();
    } catch (cause) {
      if (request !== latest.current) return;
      setDigestChoice(previous);
      setError(userFacingError(cause, MESSAGES.unavailable));
    }
  }

  return (
    <section className="card profile-section digest-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="profile-section__title">
        Notifications
      </h2>
      <p className="muted">
        Your <Link to={paths.notifications()}>notifications</Link> come to the bell at the top of every page. The email
        digest brings the unread ones and the top questions in the tags you follow.
      </p>
      <Field
        id={`${id}-digest`}
        label="Email digest"
        hint="How often we mail you a digest; it comes only when there is something new."
        error={error}
        attempt={attempt}
      >
        {(control) => (
          <select
            {...control}
            className="field__input field__select"
            name="digest"
            value={digest}
            onChange={(event) => {
              if (isDigest(event.target.value)) void choose(event.target.value);
            }}
          >
            {DIGEST_FREQUENCIES.map((value) => (
              <option key={value} value={value}>
                {DIGEST_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="form-notice digest-card__status" role="status">
        {status}
      </p>
    </section>
  );
}
