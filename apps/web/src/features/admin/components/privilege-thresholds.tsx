import { useState, type FormEvent } from 'react';
import { MESSAGES, type Privilege, type PrivilegeKey } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { SaveButton } from '@/components/save-button';
import { TextField } from '@/components/text-field';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { setPrivilegeThresholds } from '../api/privileges';

const SAVED = 'Privilege thresholds saved.';

type Drafts = Record<PrivilegeKey, string>;

const draftsOf = (privileges: Privilege[]) =>
  Object.fromEntries(privileges.map(({ key, threshold }) => [key, String(threshold)])) as Drafts;

/**
 * A field's text as the number sent: the server alone rules on it (a whole number from 1 to
 * 1,000,000) and its message is shown, so an empty or odd entry goes as it is (NaN is sent as null).
 */
const asNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * The admin's 'Privileges' form (docs/product.md section 13): each privilege's reputation threshold,
 * saved together; the saved values come back from the server, and its refusal is shown as it says it.
 */
export function PrivilegeThresholds({ privileges }: { privileges: Privilege[] }) {
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(privileges));
  const [done, setDone] = useState(false);
  const form = useForm<PrivilegeKey>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    void form.submit({
      send: async () => {
        const thresholds = Object.fromEntries(privileges.map(({ key }) => [key, asNumber(drafts[key])])) as Record<
          PrivilegeKey,
          number
        >;
        setDrafts(draftsOf(await setPrivilegeThresholds(thresholds)));
        setDone(true);
      },
      stays: true,
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
    });
  }

  return (
    <section className="card profile-section privilege-thresholds" aria-labelledby="privilege-thresholds">
      <h2 id="privilege-thresholds" className="profile-section__title">
        Privileges
      </h2>
      <p className="muted privilege-thresholds__lead">
        The reputation a member needs for each privilege. Moderators and admins have every privilege.
      </p>
      <form className="form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
        <div className="privilege-thresholds__fields">
          {privileges.map(({ key, name }) => (
            <TextField
              key={key}
              id={form.fieldId(key)}
              label={name}
              name={key}
              type="number"
              value={drafts[key]}
              onChange={(value) => setDrafts((current) => ({ ...current, [key]: value }))}
              error={form.errorOf(key)}
              attempt={form.attempt}
            />
          ))}
        </div>
        <FormError key={form.attempt} message={form.formError} />
        <p className="form-notice" role="status">
          {done ? SAVED : ''}
        </p>
        <div className="button-row">
          <SaveButton pending={form.pending}>Save</SaveButton>
        </div>
      </form>
    </section>
  );
}
