import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, parseTagNames, questionTextError, tagNamesError, titleError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { addQuestion } from '../api/add-question';
import { FormField } from './form-field';

type Field = 'title' | 'text' | 'tags';
type Errors = Record<Field, string | null>;

const NO_ERRORS: Errors = { title: null, text: null, tags: null };

function validate(title: string, text: string, tags: string): Errors {
  return { title: titleError(title), text: questionTextError(text), tags: tagNamesError(parseTagNames(tags)) };
}

/** Which field a message of the server's (the same rules' texts) belongs to, if any. */
function fieldOf(message: string): Field | null {
  const errors = [
    [MESSAGES.titleEmpty, 'title'],
    [MESSAGES.titleTooLong, 'title'],
    [MESSAGES.questionTextEmpty, 'text'],
    [MESSAGES.invalidHyperlink, 'text'],
    [MESSAGES.tagsTooFew, 'tags'],
    [MESSAGES.tagsTooMany, 'tags'],
    [MESSAGES.tagTooLong, 'tags'],
  ] as const;
  return errors.find(([text]) => text === message)?.[1] ?? null;
}

/** The ask form (spec section 2): every field checked by core's rules, each message beside its field. */
export function AskQuestionForm({ username }: { username: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [tags, setTags] = useState('');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [formError, setFormError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    setFormError(null);
    const found = validate(title, text, tags);
    setErrors(found);
    const first = (['title', 'text', 'tags'] as const).find((field) => found[field] !== null);
    if (first !== undefined) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setPending(true);
    try {
      await addQuestion({ title: title.trim(), text, tagNames: parseTagNames(tags), askedBy: username });
      await navigate(paths.home());
    } catch (cause) {
      const message = userFacingError(cause, MESSAGES.unavailable);
      const field = fieldOf(message);
      if (field === null) setFormError(message);
      else setErrors({ ...NO_ERRORS, [field]: message });
      setPending(false);
    }
  }

  return (
    <form className="form q-form" onSubmit={(event) => void handleSubmit(event)} noValidate aria-busy={pending}>
      <FormField
        id={`${id}-title`}
        name="title"
        label="Question Title"
        hint="Limit title to 100 characters or less"
        value={title}
        onChange={setTitle}
        error={errors.title}
        attempt={attempt}
      />
      <FormField
        id={`${id}-text`}
        name="text"
        label="Question Text"
        hint="Add details"
        value={text}
        onChange={setText}
        error={errors.text}
        attempt={attempt}
        multiline
      />
      <FormField
        id={`${id}-tags`}
        name="tags"
        label="Tags"
        hint="Add keywords separated by whitespace"
        value={tags}
        onChange={setTags}
        error={errors.tags}
        attempt={attempt}
      />
      <FormError key={attempt} message={formError} />
      <div className="q-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={pending}>
          Post Question
        </button>
        <p className="q-form__note muted">Links are written as [text](https://…).</p>
      </div>
    </form>
  );
}
