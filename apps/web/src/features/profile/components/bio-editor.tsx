import { useRef, useState, type FormEvent } from 'react';
import { useForm } from '@/hooks/use-form';
import { bioError, DEFAULT_OWN_BIO, LIMITS } from '@porpoise/core';
import { Field } from '@/components/field';
import { SaveButton } from '@/components/save-button';
import { updateBio } from '../api/update-bio';

/**
 * The own bio: view mode, then Edit Bio, then Save (the server's returned bio replaces
 * it) or Cancel (reverts) (spec section 4). A failed save is silently ignored (section 8):
 * the editor simply stays open with the text.
 */
export function BioEditor({ username, initialBio }: { username: string; initialBio: string }) {
  const [bio, setBio] = useState(initialBio);
  const [draft, setDraft] = useState(initialBio);
  const [editing, setEditing] = useState(false);
  const form = useForm<'bio'>();
  const textareaId = form.fieldId('bio');
  const editButton = useRef<HTMLButtonElement>(null);

  function startEditing() {
    setDraft(bio);
    form.reset();
    setEditing(true);
  }

  function stopEditing() {
    setEditing(false);
    form.reset();
    // Back to the button that opened the editor, so keyboard users keep their place.
    requestAnimationFrame(() => editButton.current?.focus());
  }

  function handleSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ bio: bioError(draft) }),
      send: async () => {
        try {
          setBio((await updateBio(username, draft)).bio);
          stopEditing();
        } catch {
          // Spec section 8: a failed bio save shows nothing; the editor stays open with the text.
        }
      },
      failureMessage: () => '',
      stays: true,
    });
  }

  return (
    <section className="card profile-section" aria-labelledby={`${textareaId}-heading`}>
      <h2 id={`${textareaId}-heading`} className="profile-section__title">
        Bio
      </h2>
      {editing ? (
        <form className="form" onSubmit={handleSave} noValidate>
          <Field id={textareaId} label="Edit your bio" error={form.errorOf('bio')} attempt={form.attempt}>
            {(control) => (
              <textarea
                {...control}
                className="field__input field__textarea"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                rows={4}
                maxLength={LIMITS.bioMax}
                // The editor was opened on purpose, so moving focus into it is expected.
                autoFocus
              />
            )}
          </Field>
          <div className="button-row">
            <SaveButton pending={form.pending}>Save</SaveButton>
            <button type="button" className="button" onClick={stopEditing}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="profile-bio">{bio === '' ? DEFAULT_OWN_BIO : bio}</p>
          <button type="button" className="button" ref={editButton} onClick={startEditing}>
            Edit Bio
          </button>
        </>
      )}
    </section>
  );
}
