import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  LIMITS,
  MESSAGES,
  editReasonError,
  parseTagNames,
  tagNamesError,
  titleError,
  type ImageSize,
} from '@porpoise/core';
import { questionTextError } from '@porpoise/core/markdown';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { addQuestion } from '../api/add-question';
import { editQuestion } from '../api/edit-post';
import { TextField } from '@/components/text-field';
import { MarkdownField } from '@/components/markdown/markdown-field';
import { MarkdownNote } from '@/components/markdown/markdown-note';
import { SuggestField, type Suggestion } from '@/components/suggest-field';
import { suggestTags } from '../api/suggest-tags';

/** Existing tags for the word being typed, each with its question count (docs/product.md section 5). */
async function tagSuggestions(prefix: string, signal: AbortSignal): Promise<Suggestion[]> {
  return (await suggestTags(prefix, signal)).map(({ name, count }) => ({
    value: name,
    label: (
      <>
        <span>{name}</span>
        <span className="suggest__count">{count === 1 ? '1 question' : `${count} questions`}</span>
      </>
    ),
  }));
}

type Field = 'title' | 'text' | 'tags' | 'reason';

/** Which field a message of the server's (the same rules' texts) belongs to, if any. */
function fieldOf(message: string): Field | null {
  const errors = [
    [MESSAGES.titleEmpty, 'title'],
    [MESSAGES.titleTooLong, 'title'],
    [MESSAGES.questionTextEmpty, 'text'],
    [MESSAGES.invalidHyperlink, 'text'],
    [MESSAGES.imageDescription, 'text'],
    [MESSAGES.imageGone, 'text'],
    [MESSAGES.tagsTooFew, 'tags'],
    [MESSAGES.tagsTooMany, 'tags'],
    [MESSAGES.tagTooLong, 'tags'],
    [MESSAGES.reasonTooLong, 'reason'],
  ] as const;
  return errors.find(([text]) => text === message)?.[1] ?? null;
}

/** A question being edited: its id and what it says now. */
export interface QuestionDraft {
  qid: string;
  title: string;
  text: string;
  tagNames: string[];
  /** The uploaded images its text embeds, with their sizes (for the preview). */
  images: ImageSize[];
}

/**
 * The ask form (spec section 2): every field checked by core's rules, each message beside its
 * field. Given a question to edit (docs/product.md section 9), it starts filled, adds 'Reason for
 * edit' and saves with 'Save Edits', returning to the question.
 */
export function AskQuestionForm({ username, editing }: { username: string; editing?: QuestionDraft }) {
  const navigate = useNavigate();
  const [title, setTitle] = useState(editing?.title ?? '');
  const [text, setText] = useState(editing?.text ?? '');
  const [tags, setTags] = useState(editing?.tagNames.join(' ') ?? '');
  const [reason, setReason] = useState('');
  // 'Add image', and the preview's sizes of the images the question already has.
  const [images] = useState(() => ({ known: editing?.images ?? [] }));
  const form = useForm<Field>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({
        title: titleError(title),
        text: questionTextError(text),
        tags: tagNamesError(parseTagNames(tags)),
        reason: editing === undefined ? null : editReasonError(reason),
      }),
      send: async () => {
        if (editing === undefined) {
          await addQuestion({ title: title.trim(), text, tagNames: parseTagNames(tags), askedBy: username });
          await navigate(paths.home());
          return;
        }
        await editQuestion(editing.qid, {
          title: title.trim(),
          text,
          tagNames: parseTagNames(tags),
          reason: reason.trim(),
        });
        await navigate(paths.question(editing.qid));
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf,
    });
  }

  const fieldProps = (field: Field) => ({
    id: form.fieldId(field),
    name: field,
    error: form.errorOf(field),
    attempt: form.attempt,
    autoComplete: 'off',
  });

  return (
    <form className="form q-form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <TextField
        {...fieldProps('title')}
        label="Question Title"
        hint="Limit title to 100 characters or less"
        value={title}
        onChange={setTitle}
      />
      <MarkdownField
        id={form.fieldId('text')}
        name="text"
        label="Question Text"
        hint="Add details"
        value={text}
        onChange={setText}
        error={form.errorOf('text')}
        attempt={form.attempt}
        mentions
        images={images}
      />
      <SuggestField
        id={form.fieldId('tags')}
        name="tags"
        error={form.errorOf('tags')}
        attempt={form.attempt}
        label="Tags"
        hint="Add keywords separated by whitespace"
        value={tags}
        onChange={setTags}
        mode="word"
        maxLength={LIMITS.tagNameMax}
        suggest={tagSuggestions}
      />
      {editing === undefined ? null : (
        <TextField
          {...fieldProps('reason')}
          label="Reason for edit"
          hint="Optional: what you changed and why"
          value={reason}
          onChange={setReason}
        />
      )}
      <FormError key={form.attempt} message={form.formError} />
      <div className="q-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          {editing === undefined ? 'Post Question' : 'Save Edits'}
        </button>
        <MarkdownNote />
      </div>
    </form>
  );
}
