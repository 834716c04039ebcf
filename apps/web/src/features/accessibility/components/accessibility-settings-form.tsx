import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import {
  MESSAGES,
  READING_COMFORT_DEFAULTS,
  type Account,
  type AccessibilitySettings,
  type ColorBlindness,
} from '@porpoise/core';
import { Field } from '@/components/field';
import { SaveButton } from '@/components/save-button';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
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

type SettingsField = 'lowVision' | 'colorBlindness';

/** Reading comfort's settings (docs/product.md section 12): each always has a value. */
type Comfort = Omit<AccessibilitySettings, 'lowVision' | 'colorBlindness'>;

const ON_OFF = [
  { value: true, label: 'On' },
  { value: false, label: 'Off' },
] as const;

/** Each reading comfort setting: its label, what it does, and its choices in order. */
const COMFORT_FIELDS: {
  [K in keyof Comfort]: { label: string; hint: string; options: readonly { value: Comfort[K]; label: string }[] };
} = {
  colorScheme: {
    label: 'Colour scheme',
    hint: "Follow the system matches your device's light or dark setting as it changes.",
    options: [
      { value: 'light', label: 'Light' },
      { value: 'dark', label: 'Dark' },
      { value: 'system', label: 'Follow the system' },
    ],
  },
  readingFont: {
    label: 'Reading font',
    hint: 'Dyslexia-friendly uses OpenDyslexic, with more space between letters and lines.',
    options: [
      { value: 'default', label: 'Default' },
      { value: 'dyslexia', label: 'Dyslexia-friendly' },
    ],
  },
  reducedMotion: {
    label: 'Reduced motion',
    hint: 'On stops animations, transitions and smooth scrolling.',
    options: ON_OFF,
  },
  liveAnnouncements: {
    label: 'Live announcements',
    hint: 'Screen readers hear new answers, messages and notifications as they arrive.',
    options: ON_OFF,
  },
  keyboardShortcuts: {
    label: 'Keyboard shortcuts',
    hint: 'Press ? on any page to list them.',
    options: ON_OFF,
  },
};

/** The account's reading comfort settings as stored (a new account's are the defaults). */
function comfortOf(account: Account | null): Comfort {
  if (account === null) return { ...READING_COMFORT_DEFAULTS };
  const { lowVision: _lowVision, colorBlindness: _colorBlindness, ...comfort } = account.accessibilitySettings;
  return comfort;
}

/**
 * The preferences screen (spec: /accessibility-settings). Both choices are required; they
 * start unset until the account has saved them once, and show the saved values from then on
 * (docs/product.md section 12). After a save the account is loaded again, so the body's theme classes
 * follow at once, and the user goes on to /home.
 */
export function AccessibilitySettingsForm({ account }: { account: Account | null }) {
  const tipId = useId();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const saved = account?.accessibilitySettingsSaved === true ? account.accessibilitySettings : null;
  const [lowVision, setLowVision] = useState(saved === null ? '' : saved.lowVision ? 'yes' : 'no');
  const [colorBlindness, setColorBlindness] = useState<string>(saved?.colorBlindness ?? '');
  const [comfort, setComfort] = useState<Comfort>(() => comfortOf(account));
  const [status, setStatus] = useState<string | null>(null);
  const form = useForm<SettingsField>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus(null);
    if (account === null) {
      form.setFormError(MESSAGES.accountContextNull);
      return;
    }
    const chosen = COLOR_OPTIONS.find((option) => option.value === colorBlindness);
    void form.submit({
      validate: () => ({
        lowVision: lowVision === '' ? LOW_VISION_MISSING : null,
        colorBlindness: chosen === undefined ? COLOR_MISSING : null,
      }),
      send: async () => {
        if (chosen === undefined) return;
        await saveAccessibilitySettings(account, {
          lowVision: lowVision === 'yes',
          colorBlindness: chosen.value,
          ...comfort,
        });
        setStatus(SAVED);
        await revalidate();
        await navigate(paths.home());
      },
      // A reply other than 200 is a refusal; no reply at all is an exception (spec section 8).
      failureMessage: (cause) => (cause instanceof ApiError && cause.status !== 0 ? SAVE_FAILED : SAVE_ERROR),
    });
  }

  return (
    <form className="form card form-card" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <Field
        id={form.fieldId('lowVision')}
        label="Do you have low vision?"
        hint="Yes makes the text larger, raises contrast and thickens focus outlines."
        describedBy={lowVision === 'yes' ? [tipId] : []}
        error={form.errorOf('lowVision')}
        attempt={form.attempt}
      >
        {(control) => (
          <select
            {...control}
            className="field__input field__select"
            value={lowVision}
            onChange={(event) => setLowVision(event.target.value)}
            required
          >
            <option value="" disabled>
              Select an option
            </option>
            <option value="yes">Yes</option>
            <option value="no">No</option>
          </select>
        )}
      </Field>
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
      <Field
        id={form.fieldId('colorBlindness')}
        label="Colour blindness"
        hint="Changes the palette so nothing depends on colours you may not tell apart."
        error={form.errorOf('colorBlindness')}
        attempt={form.attempt}
      >
        {(control) => (
          <select
            {...control}
            className="field__input field__select"
            value={colorBlindness}
            onChange={(event) => setColorBlindness(event.target.value)}
            required
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
        )}
      </Field>
      {(Object.keys(COMFORT_FIELDS) as (keyof Comfort)[]).map((key) => (
        <ComfortField
          key={key}
          name={key}
          value={comfort[key]}
          onChange={(value) => setComfort({ ...comfort, [key]: value })}
        />
      ))}
      <FormError key={form.attempt} message={form.formError} />
      {status === null ? null : (
        <p className="form-status" role="status">
          {status}
        </p>
      )}
      <div className="button-row">
        <SaveButton pending={form.pending}>Save Preferences</SaveButton>
        <Link to={paths.home()} className="button">
          Skip for Now
        </Link>
      </div>
    </form>
  );
}

/** One reading comfort setting: a select showing its current value. */
function ComfortField<K extends keyof Comfort>({
  name,
  value,
  onChange,
}: {
  name: K;
  value: Comfort[K];
  onChange: (value: Comfort[K]) => void;
}) {
  const { label, hint, options } = COMFORT_FIELDS[name];
  const id = useId();
  const index = options.findIndex((option) => option.value === value);
  return (
    <Field id={id} label={label} hint={hint} error={null}>
      {(control) => (
        <select
          {...control}
          className="field__input field__select"
          value={String(index)}
          onChange={(event) => onChange(options[Number(event.target.value)]!.value)}
        >
          {options.map((option, at) => (
            <option key={option.label} value={String(at)}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
