import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { forumDescriptionError, forumNameError, LIMITS, MESSAGES, tooLongMessage } from '@porpoise/core';
import { Field } from '@/components/field';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { addForum } from '../api/add-forum';

type FormField = 'name' | 'description';

/** The server's messages that concern one field; any other failure concerns the form. */
const SERVER_ERROR_FIELDS: Partial<Record<string, FormField>> = {
  [MESSAGES.forumNameEmpty]: 'name',
  [MESSAGES.forumNameTaken]: 'name',
  [tooLongMessage('Name', LIMITS.forumNameMax)]: 'name',
  [MESSAGES.forumDescriptionEmpty]: 'description',
  [tooLongMessage('Description', LIMITS.forumDescriptionMax)]: 'description',
};

/** Creates a forum, then shows the forum list (spec: /new/forum). */
export function NewForumForm() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const form = useForm<FormField>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ name: forumNameError(name), description: forumDescriptionError(description) }),
      send: async () => {
        await addForum(name, description);
        await navigate(paths.forums());
      },
      // The server's own reason ('Forum name already exists', a rule) when it gives one.
      failureMessage: (cause) => userFacingError(cause, MESSAGES.threadFailed),
      fieldOf: (message) => SERVER_ERROR_FIELDS[message] ?? null,
    });
  }

  return (
    <form className="form card form-card" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <TextField
        id={form.fieldId('name')}
        label="Forum Name"
        name="forumName"
        value={name}
        onChange={setName}
        hint={`What the forum is about, up to ${LIMITS.forumNameMax} characters`}
        autoComplete="off"
        required
        error={form.errorOf('name')}
        attempt={form.attempt}
      />
      <Field
        id={form.fieldId('description')}
        label="Forum Description"
        error={form.errorOf('description')}
        attempt={form.attempt}
      >
        {(control) => (
          <textarea
            {...control}
            name="forumDescription"
            className="field__input field__textarea"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            rows={4}
            required
          />
        )}
      </Field>
      <FormError key={form.attempt} message={form.formError} />
      <div className="button-row">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          Create Forum
        </button>
      </div>
    </form>
  );
}
