import { useRef, useState, type FormEvent } from 'react';
import { fieldErrorId } from '@/components/field';
import { useForm } from '@/hooks/use-form';
import { Link } from 'react-router';
import { MESSAGES, type Comment } from '@porpoise/core';
import { commentMarkdownError } from '@porpoise/core/markdown';
import { FormError } from '@/components/form-error';
import { RelativeTime } from '@/components/relative-time';
import { Markdown } from '@/components/markdown/markdown';
import { useMentionSuggestions } from '@/components/mention-suggestions';
import { paths } from '@/config/paths';
import { FlagControl } from '@/components/flag-control';
import { userFacingError } from '@/lib/api-client';
import type { CommentTarget } from '@porpoise/core';
import { addComment } from '../api/add-comment';
import { AsyncButton } from './async-button';

interface CommentSectionProps {
  comments: Comment[];
  /** The id of the question or answer commented on. */
  targetId: string;
  type: CommentTarget;
  username: string;
  /** Shows the comment the server accepted before its commentUpdate arrives. */
  onAdded: (comment: Comment) => void;
  /** Whether this reader may delete a comment by `author` (its author, moderators). */
  mayDelete: (author: string) => boolean;
  /** Deletes or undeletes a comment; resolves with the server's refusal, or null. */
  toggleDeleted: (id: string, deleted: boolean) => Promise<string | null>;
  /** A deleted post takes no comments: no field to add one. */
  closedToNew?: boolean;
}

/** A question's or answer's comments, then a field to add one (Enter or 'Add Comment'). */
export function CommentSection({
  comments,
  targetId,
  type,
  username,
  onAdded,
  mayDelete,
  toggleDeleted,
  closedToNew = false,
}: CommentSectionProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const mention = useMentionSuggestions({ control: input, enabled: !closedToNew, value: text, onChange: setText });
  const form = useForm<'comment'>();
  const inputId = form.fieldId('comment');
  const errorId = fieldErrorId(inputId);
  const error = form.errorOf('comment');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit({
      validate: () => ({ comment: commentMarkdownError(text) }),
      send: async () => {
        // Nothing is sent for a blank comment or without a username (spec section 5).
        if (username.trim() === '') return;
        onAdded(await addComment(targetId, type, text.trim(), username));
        setText('');
      },
      failureMessage: (cause) => userFacingError(cause, MESSAGES.unavailable),
      stays: true,
      fieldOf: () => 'comment',
    });
  }

  return (
    <div className="comments">
      {comments.length === 0 ? null : (
        <ul className="comments__list" aria-label="Comments">
          {comments.map((comment) => (
            <li key={comment._id} className={comment.deleted ? 'comment comment--deleted' : 'comment'}>
              {comment.deleted ? (
                <strong className="comment__deleted">
                  {comment.held === 'flags' ? 'Hidden by flags: ' : 'Deleted comment: '}
                </strong>
              ) : null}
              <Markdown className="comment__text" mode="inline" text={comment.text} />
              <span className="comment__meta">
                {' – '}
                <Link className="q-author" to={paths.userProfile(comment.commentBy)}>
                  {comment.commentBy}
                </Link>{' '}
                <RelativeTime date={comment.commentDateTime} />
              </span>
              {comment.deleted || comment.commentBy === username ? null : (
                <span className="comment__flag">
                  <FlagControl
                    targetType="comment"
                    targetId={comment._id}
                    what={`the comment by ${comment.commentBy}`}
                  />
                </span>
              )}
              {mayDelete(comment.commentBy) && comment.held === undefined ? (
                <AsyncButton
                  run={() => toggleDeleted(comment._id, comment.deleted !== true)}
                  className="link-button"
                  wrapperClassName="comment__delete"
                >
                  {comment.deleted ? 'Undelete' : 'Delete'}
                  <span className="visually-hidden"> the comment by {comment.commentBy}</span>
                </AsyncButton>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {closedToNew ? null : (
        <form className="comment-form" onSubmit={handleSubmit} noValidate aria-busy={form.pending}>
          <label className="visually-hidden" htmlFor={inputId}>
            Add a comment
          </label>
          {/* The list opens under the whole row (the form is its box): wide enough for a name on a phone. */}
          <div className="comment-form__field">
            <input
              id={inputId}
              {...mention.controlProps}
              ref={input}
              className="field__input comment-form__input"
              type="text"
              name="comment"
              placeholder="Add a comment…"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                mention.typed(event.target.value, event.target.selectionStart);
              }}
              onKeyDown={(event) => mention.handleKey(event)}
              aria-invalid={error === null ? undefined : true}
              aria-describedby={error === null ? undefined : errorId}
              autoComplete="off"
            />
            {mention.list}
          </div>
          <button type="submit" className="button comment-form__button" aria-disabled={form.pending}>
            Add Comment
          </button>
          <div className="comment-form__error">
            <FormError key={form.attempt} id={errorId} message={error} />
          </div>
        </form>
      )}
    </div>
  );
}
