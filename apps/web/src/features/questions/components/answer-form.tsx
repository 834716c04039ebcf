import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, answerTextError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { addAnswer } from '../api/add-answer';
import { FormField } from './form-field';

/** The answer form (spec section 2); success returns to the question. */
export function AnswerForm({ qid, username }: { qid: string; username: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAttempt((count) => count + 1);
    setFormError(null);
    const invalid = answerTextError(text);
    setError(invalid);
    if (invalid !== null) {
      document.getElementById(id)?.focus();
      return;
    }
    setPending(true);
    try {
      await addAnswer(qid, text, username);
      await navigate(paths.question(qid));
    } catch (cause) {
      const message = userFacingError(cause, MESSAGES.unavailable);
      if (message === MESSAGES.answerTextEmpty || message === MESSAGES.invalidHyperlink) setError(message);
      else setFormError(message);
      setPending(false);
    }
  }

  return (
    <form className="form q-form" onSubmit={(event) => void handleSubmit(event)} noValidate aria-busy={pending}>
      <FormField
        id={id}
        name="text"
        label="Answer Text"
        hint="Add details"
        value={text}
        onChange={setText}
        error={error}
        attempt={attempt}
        multiline
      />
      <FormError key={attempt} message={formError} />
      <div className="q-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={pending}>
          Post Answer
        </button>
        <p className="q-form__note muted">Links are written as [text](https://…).</p>
      </div>
    </form>
  );
}
