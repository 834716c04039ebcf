import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, answerTextError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { addAnswer } from '../api/add-answer';
import { TextField } from '@/components/text-field';

/** The answer form (spec section 2); success returns to the question. */
export function AnswerForm({ qid, username }: { qid: string; username: string }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const form = useForm<'text'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ text: answerTextError(text) }),
      send: async () => {
        await addAnswer(qid, text, username);
        await navigate(paths.question(qid));
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) =>
        message === MESSAGES.answerTextEmpty || message === MESSAGES.invalidHyperlink ? 'text' : null,
    });
  }

  return (
    <form className="form q-form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <TextField
        id={form.fieldId('text')}
        name="text"
        label="Answer Text"
        hint="Add details"
        value={text}
        onChange={setText}
        error={form.errorOf('text')}
        attempt={form.attempt}
        rows={8}
      />
      <FormError key={form.attempt} message={form.formError} />
      <div className="q-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          Post Answer
        </button>
        <p className="q-form__note muted">Links are written as [text](https://…).</p>
      </div>
    </form>
  );
}
