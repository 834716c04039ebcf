import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { MESSAGES, type Account, type ColorBlindness } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { saveAccessibilitySettings } from '../api/save-accessibility-settings';

const COLOR_OPTIONS: { value: ColorBlindness; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'redgreen', label: 'Red-Green' },
  { value: 'blueyellow', label: 'Blue-Yellow' },
  { value: 'grayscale', label: 'Grayscale' },
];

const SAVED = 'Preferences saved successfully';
const SAVE_FAILED = 'Failed to save preferences';
const SAVE_ERROR = 'An error occurred while saving preferences';
const LOW_VISION_MISSING = 'Please choose whether you have low vision';
const COLOR_MISSING = 'Please choose a colour-blindness setting';

type Field = 'lowVision' | 'colorBlindness';

/**
 * The preferences screen (spec: /accessibility-settings). Both choices are required; they
 * start unset until the account has saved them once, and show the saved values from then on
 * (product.md section 12). After a save the account is loaded again, so the body's theme classes
 * follow at once, and the user goes on to /home.
 */
export function AccessibilitySettingsForm({ account }: { account: Account | null }) {
  const lowVisionId = useId();
  const colorId = useId();
  const errorId = useId();
  const tipId = useId();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const saved = account?.accessibilitySettingsSaved === true ? account.accessibilitySettings : null;
  const [lowVision, setLowVision] = useState(saved === null ? '' : saved.lowVision ? 'yes' : 'no');
  const [colorBlindness, setColorBlindness] = useState<string>(saved?.colorBlindness ?? '');
  const [error, setError] = useState<{ field: Field | null; message: string } | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    setStatus(null);
    if (account === null) return setError({ field: null, message: MESSAGES.accountContextNull });
    if (lowVision === '') return setError({ field: 'lowVision', message: LOW_VISION_MISSING });
    const chosen = COLOR_OPTIONS.find((option) => option.value === colorBlindness);
    if (chosen === undefined) return setError({ field: 'colorBlindness', message: COLOR_MISSING });
    setError(null);
    setPending(true);
    try {
      await saveAccessibilitySettings(account, { lowVision: lowVision === 'yes', colorBlindness: chosen.value });
    } catch (cause) {
      // A reply other than 200 is a refusal; no reply at all is an exception (spec section 8).
      const message = cause instanceof ApiError && cause.status !== 0 ? SAVE_FAILED : SAVE_ERROR;
      setError({ field: null, message });
      setPending(false);
      return;
    }
    setStatus(SAVED);
    await revalidate();
    await navigate(paths.home());
  }

  const describe = (field: Field, ...ids: string[]) =>
    [...ids, error?.field === field ? errorId : null].filter((id) => id !== null).join(' ') || undefined;

  return (
    <form className="form card form-card" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={lowVisionId}>
          Do you have low vision?
        </label>
        <p className="field__hint" id={`${lowVisionId}-hint`}>
          Yes makes the text larger, raises contrast and thickens focus outlines.
        </p>
        <select
          id={lowVisionId}
          className="field__input field__select"
          value={lowVision}
          onChange={(event) => setLowVision(event.target.value)}
          required
          aria-invalid={error?.field === 'lowVision' || undefined}
          aria-describedby={describe('lowVision', `${lowVisionId}-hint`, ...(lowVision === 'yes' ? [tipId] : []))}
        >
          <option value="" disabled>
            Select an option
          </option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
      </div>
      {lowVision === 'yes' ? (
        <aside className="tip" id={tipId} aria-label="VoiceOver tip">
          <p className="tip__title">Tip for macOS</p>
          <p className="tip__text">
            Turn on VoiceOver, the built-in screen reader, with{' '}
            <span className="nowrap">
              <kbd>Cmd</kbd>+<kbd>F5</kbd>,
            </span>{' '}
            or in System Settings &gt; Accessibility &gt; VoiceOver.
          </p>
        </aside>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={colorId}>
          Colour blindness
        </label>
        <p className="field__hint" id={`${colorId}-hint`}>
          Changes the palette so nothing depends on colours you may not tell apart.
        </p>
        <select
          id={colorId}
          className="field__input field__select"
          value={colorBlindness}
          onChange={(event) => setColorBlindness(event.target.value)}
          required
          aria-invalid={error?.field === 'colorBlindness' || undefined}
          aria-describedby={describe('colorBlindness', `${colorId}-hint`)}
        >
          <option value="" disabled>
            Select an option
          </option>
          {COLOR_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <FormError key={attempt} id={errorId} message={error?.message ?? null} />
      {status === null ? null : (
        <p className="form-status" role="status">
          {status}
        </p>
      )}
      <div className="button-row">
        <button type="submit" className="button button--primary" aria-disabled={pending}>
          Save Preferences
        </button>
        <Link to={paths.home()} className="button">
          Skip for Now
        </Link>
      </div>
    </form>
  );
}
