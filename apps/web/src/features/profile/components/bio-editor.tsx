import { useId, useRef, useState, type FormEvent } from 'react';
import { bioError, DEFAULT_OWN_BIO, LIMITS } from '@porpoise/core';
import { Field } from '@/components/field';
import { updateBio } from '../api/update-bio';

/**
 * The own bio: view mode, then Edit Bio, then Save (the server's returned bio replaces
 * it) or Cancel (reverts) (spec section 4). A failed save is silently ignored (section 8):
 * the editor simply stays open with the text.
 */
export function BioEditor({ username, initialBio }: { username: string; initialBio: string }) {
  const textareaId = useId();
  const [bio, setBio] = useState(initialBio);
  const [draft, setDraft] = useState(initialBio);
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const editButton = useRef<HTMLButtonElement>(null);

  function startEditing() {
    setDraft(bio);
    setError(null);
    setEditing(true);
  }

  function stopEditing() {
    setEditing(false);
    setError(null);
    // Back to the button that opened the editor, so keyboard users keep their place.
    requestAnimationFrame(() => editButton.current?.focus());
  }

  async function handleSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    const message = bioError(draft);
    setError(message);
    if (message !== null) return;
    setPending(true);
    try {
      const saved = await updateBio(username, draft);
      setBio(saved.bio);
      stopEditing();
    } catch {
      // Spec section 8: a failed bio save shows nothing.
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card profile-section" aria-labelledby={`${textareaId}-heading`}>
      <h2 id={`${textareaId}-heading`} className="profile-section__title">
        Bio
      </h2>
      {editing ? (
        <form className="form" onSubmit={(event) => void handleSave(event)} noValidate>
          <Field id={textareaId} label="Edit your bio" error={error} attempt={attempt}>
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
            <button type="submit" className="button button--primary" aria-disabled={pending}>
              Save
            </button>
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
