import { useEffect, useId, useState, type FormEvent } from 'react';
import { CLOSE_REASONS, MESSAGES, type Closed, type CloseReason, type QuestionSummary } from '@porpoise/core';
import { FieldError, fieldErrorId } from '@/components/field';
import { FormError } from '@/components/form-error';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { getQuestions } from '../api/get-questions';
import { closeQuestion, closeVote } from '../api/moderate-post';

export const CLOSE_REASON_LABELS: Record<CloseReason, string> = {
  duplicate: 'Duplicate',
  'off-topic': 'Off-topic',
  'needs details': 'Needs details',
};

/** Questions whose titles match, to choose the original of a duplicate from (at most this many). */
const ORIGINALS_SHOWN = 8;
/** Typing pauses this long before the titles are searched. */
const SEARCH_DELAY_MS = 250;

/**
 * A moderator's form to close a question (docs/product.md section 9): a reason and, for a
 * duplicate, the original, found by searching titles as one types. With `vote`, a member's
 * vote to close (section 13): the same choices, counted until the third closes it.
 */
export function CloseQuestionForm({
  qid,
  vote = false,
  onClosed,
  onCancel,
}: {
  qid: string;
  vote?: boolean;
  /** The question's state after, and the votes then waiting to change it. */
  onClosed: (closed: Closed | null, closeVotes: number) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState<CloseReason | null>(null);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<QuestionSummary[] | null>(null);
  const [original, setOriginal] = useState<string | null>(null);
  const form = useForm<'reason' | 'original'>();
  const reasonId = form.fieldId('reason');
  const originalId = form.fieldId('original');
  const searchId = useId();
  const statusId = useId();

  const wanted = reason === 'duplicate' ? search.trim() : '';
  useEffect(() => {
    if (wanted.length < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getQuestions({ order: 'newest', search: wanted, limit: ORIGINALS_SHOWN + 1 }, controller.signal).then(
        (page) => setFound(page.questions.filter((question) => question._id !== qid).slice(0, ORIGINALS_SHOWN)),
        () => setFound(null),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [wanted, qid]);
  const matches = wanted.length < 2 ? null : found;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({
        reason: reason === null ? 'Choose a reason' : null,
        original: reason === 'duplicate' && original === null ? MESSAGES.duplicateNeeded : null,
      }),
      send: async () => {
        if (reason === null) return;
        const duplicateOf = reason === 'duplicate' ? original : null;
        if (vote) {
          const result = await closeVote(qid, reason, duplicateOf);
          onClosed(result.closed, result.closeVotes);
        } else {
          onClosed((await closeQuestion(qid, reason, duplicateOf)).closed, 0);
        }
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      fieldOf: (message) =>
        message === MESSAGES.duplicateNeeded ||
        message === MESSAGES.duplicateNotFound ||
        message === MESSAGES.duplicateOfItself
          ? 'original'
          : null,
      stays: true,
    });
  }

  const reasonError = form.errorOf('reason');
  const originalError = form.errorOf('original');
  return (
    <form className="close-form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
      <fieldset
        className="close-form__reasons"
        id={reasonId}
        tabIndex={-1}
        aria-describedby={reasonError === null ? undefined : fieldErrorId(reasonId)}
      >
        <legend className="field__label">
          {vote ? 'Why should this question close?' : 'Why close this question?'}
        </legend>
        {CLOSE_REASONS.map((option) => (
          <label key={option} className="close-form__option">
            <input
              type="radio"
              name="reason"
              value={option}
              checked={reason === option}
              onChange={() => setReason(option)}
            />{' '}
            {CLOSE_REASON_LABELS[option]}
          </label>
        ))}
        <FieldError key={form.attempt} id={fieldErrorId(reasonId)} message={reasonError} />
      </fieldset>
      {reason === 'duplicate' ? (
        <div className="close-form__original">
          <label className="field__label" htmlFor={searchId}>
            Find the original by its title
          </label>
          <input
            id={searchId}
            className="field__input"
            type="search"
            value={search}
            onChange={(event) => {
              // A new search: the last one's matches, and the choice among them, go.
              setSearch(event.target.value);
              setFound(null);
              setOriginal(null);
            }}
            aria-describedby={statusId}
            autoComplete="off"
          />
          <p className="field__hint" id={statusId} role="status">
            {wanted.length < 2
              ? 'Type at least two letters of its title.'
              : matches === null
                ? 'Searching…'
                : matches.length === 0
                  ? 'No question matches.'
                  : `${matches.length} ${matches.length === 1 ? 'question matches' : 'questions match'}.`}
          </p>
          <fieldset
            className="close-form__matches"
            id={originalId}
            tabIndex={-1}
            aria-describedby={originalError === null ? undefined : fieldErrorId(originalId)}
          >
            <legend className="visually-hidden">Original question</legend>
            {(matches ?? []).map((question) => (
              <label key={question._id} className="close-form__option">
                <input
                  type="radio"
                  name="original"
                  value={question._id}
                  checked={original === question._id}
                  onChange={() => setOriginal(question._id)}
                />{' '}
                {question.title}
              </label>
            ))}
            <FieldError key={form.attempt} id={fieldErrorId(originalId)} message={originalError} />
          </fieldset>
        </div>
      ) : null}
      <FormError key={form.attempt} message={form.formError} />
      <div className="close-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={form.pending}>
          {vote ? 'Vote to close' : 'Close Question'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
