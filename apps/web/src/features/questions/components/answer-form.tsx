import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, editReasonError, type ImageSize } from '@porpoise/core';
import { answerTextError } from '@porpoise/core/markdown';
import { FormError } from '@/components/form-error';
import { MarkdownField } from '@/components/markdown/markdown-field';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { addAnswer } from '../api/add-answer';
import { editAnswer } from '../api/edit-post';
import { TextField } from '@/components/text-field';
import { MarkdownNote } from '@/components/markdown/markdown-note';

/** The server's messages that are about the answer's text. */
const TEXT_ERRORS = new Set<string>([
  MESSAGES.answerTextEmpty,
  MESSAGES.invalidHyperlink,
  MESSAGES.imageDescription,
  MESSAGES.imageGone,
]);

/**
 * The answer form (spec section 2); success returns to the question. Given an answer to edit
 * (docs/product.md section 9), it starts filled, adds 'Reason for edit' and saves with 'Save Edits'.
 */
export function AnswerForm({
  qid,
  username,
  editing,
}: {
  qid: string;
  username: string;
  editing?: { aid: string; text: string; images: ImageSize[] };
}) {
  const navigate = useNavigate();
  const [text, setText] = useState(editing?.text ?? '');
  const [reason, setReason] = useState('');
  // 'Add image', and the preview's sizes of the images the answer already has.
  const [images] = useState(() => ({ known: editing?.images ?? [] }));
  const form = useForm<'text' | 'reason'>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({
        text: answerTextError(text),
        reason: editing === undefined ? null : editReasonError(reason),
      }),
      send: async () => {
        if (editing === undefined) await addAnswer(qid, text, username);
        else await editAnswer(editing.aid, text, reason.trim());
        await navigate(paths.question(qid));
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) => {
        if (message === MESSAGES.reasonTooLong) return 'reason';
        return TEXT_ERRORS.has(message) ? 'text' : null;
      },
    });
  }

  return (
    <form className="form q-form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <MarkdownField
        id={form.fieldId('text')}
        name="text"
        label="Answer Text"
        hint="Add details"
        value={text}
        onChange={setText}
        error={form.errorOf('text')}
        attempt={form.attempt}
        mentions
        images={images}
      />
      {editing === undefined ? null : (
        <TextField
          id={form.fieldId('reason')}
          name="reason"
          label="Reason for edit"
          hint="Optional: what you changed and why"
          value={reason}
          onChange={setReason}
          error={form.errorOf('reason')}
          attempt={form.attempt}
          autoComplete="off"
        />
      )}
      <FormError key={form.attempt} message={form.formError} />
      <div className="q-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          {editing === undefined ? 'Post Answer' : 'Save Edits'}
        </button>
        <MarkdownNote />
      </div>
    </form>
  );
}
