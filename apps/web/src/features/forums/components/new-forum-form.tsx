import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { forumDescriptionError, forumNameError, LIMITS, MESSAGES } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { addForum } from '../api/add-forum';

type Field = 'name' | 'description';

/** Creates a forum, then shows the forum list (spec: /new/forum). */
export function NewForumForm() {
  const errorId = useId();
  const descriptionId = useId();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<{ field: Field | null; message: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    const nameMessage = forumNameError(name);
    const descriptionMessage = forumDescriptionError(description);
    if (nameMessage !== null) return setError({ field: 'name', message: nameMessage });
    if (descriptionMessage !== null) return setError({ field: 'description', message: descriptionMessage });
    setError(null);
    setPending(true);
    try {
      await addForum(name, description);
    } catch (cause) {
      // The server's own reason ('Forum name already exists', a rule) when it gives one.
      setError({ field: null, message: userFacingError(cause, MESSAGES.threadFailed) });
      setPending(false);
      return;
    }
    await navigate(paths.forums());
  }

  const descriptionInvalid = error?.field === 'description';
  return (
    <form className="form card form-card" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <TextField
        label="Forum Name"
        name="forumName"
        value={name}
        onChange={setName}
        hint={`What the forum is about, up to ${LIMITS.forumNameMax} characters`}
        autoComplete="off"
        required
        invalid={error?.field === 'name'}
        describedBy={errorId}
      />
      <div className="field">
        <label className="field__label" htmlFor={descriptionId}>
          Forum Description
        </label>
        <textarea
          id={descriptionId}
          name="forumDescription"
          className="field__input field__textarea"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          rows={4}
          required
          aria-invalid={descriptionInvalid || undefined}
          aria-describedby={descriptionInvalid ? errorId : undefined}
        />
      </div>
      <FormError key={attempt} id={errorId} message={error?.message ?? null} />
      <div className="button-row">
        <button type="submit" className="button button--primary" aria-disabled={pending}>
          Create Forum
        </button>
      </div>
    </form>
  );
}
