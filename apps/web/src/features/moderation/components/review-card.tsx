import { useId, useState } from 'react';
import { Link } from 'react-router';
import { FLAG_REASONS } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { RelativeTime } from '@/components/relative-time';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { decideReview, type ReviewItem } from '../api/moderation';
import { placeOf } from '../item-place';
import { DeleteButton } from './delete-button';
import { SuspendForm } from './suspend-form';

const KIND_LABELS: Record<ReviewItem['targetType'], string> = {
  question: 'Question',
  answer: 'Answer',
  comment: 'Comment',
  message: 'Message',
};

/**
 * One item of the queue: what it is and where, its flags, and the decisions on it
 * (docs/product.md section 10): dismiss (or approve), delete after a confirmation, suspend its author.
 */
export function ReviewCard({ item, onDecided }: { item: ReviewItem; onDecided: () => void }) {
  const headingId = useId();
  // The decisions are buttons, not fields: the form hook's pending and error, cleared at each one.
  const decision = useForm<never>();
  const busy = decision.pending;
  const [suspending, setSuspending] = useState(false);
  const [suspended, setSuspended] = useState<string | null>(null);
  const approval = item.heldFor === 'approval';
  const what = `the ${item.targetType} by ${item.author}`;

  function decide(choice: 'dismiss' | 'delete') {
    // Pending until the card is gone (not `stays`): no second click decides twice.
    void decision.submit({
      send: async () => {
        await decideReview(choice, item.targetType, item.targetId);
        onDecided();
      },
      failureMessage: (caught) => userFacingError(caught, 'Failed to save the decision. Please try again.'),
    });
  }

  const counts = FLAG_REASONS.flatMap((reason) => {
    const count = item.flagCounts[reason] ?? 0;
    return count > 0 ? [`${count} ${reason}`] : [];
  });
  return (
    <article className="review-card" aria-labelledby={headingId}>
      <h2 className="review-card__title" id={headingId}>
        {KIND_LABELS[item.targetType]} by {item.author}
        {item.authorSuspended ? <span className="review-card__badge"> (suspended)</span> : null}
      </h2>
      <p className="review-card__state">
        {approval ? (
          <strong>Waiting for approval</strong>
        ) : item.heldFor === 'flags' ? (
          <strong>Hidden by flags</strong>
        ) : null}
        {approval || item.heldFor === 'flags' ? ' · ' : null}
        {counts.length === 0 ? 'No flags' : `Flags: ${counts.join(', ')}`}
        {' · since '}
        <RelativeTime date={item.since} />
      </p>
      <p className="review-card__context">
        In <Link to={placeOf(item)}>{item.context}</Link>
      </p>
      <blockquote className="review-card__text">
        {item.text.length > 600 ? `${item.text.slice(0, 600)}…` : item.text}
      </blockquote>
      {item.flags.length === 0 ? null : (
        <ul className="review-card__flags" aria-label="Flags">
          {item.flags.map((flag) => (
            <li key={`${flag.by}:${flag.at}`}>
              <strong>{flag.reason}</strong> from {flag.by}
              {flag.note === null ? null : <>: “{flag.note}”</>}
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={() => void decide('dismiss')} aria-disabled={busy}>
          {approval ? 'Approve' : 'Dismiss'}
          <span className="visually-hidden"> {what}</span>
        </button>
        <DeleteButton
          post={`${KIND_LABELS[item.targetType]} by ${item.author}`}
          what={what}
          busy={busy}
          onConfirm={() => void decide('delete')}
        />
        {!item.suspendable || suspended !== null ? null : (
          <button
            type="button"
            className="button"
            aria-expanded={suspending}
            onClick={() => setSuspending(!suspending)}
          >
            Suspend<span className="visually-hidden"> {item.author}</span>
          </button>
        )}
      </div>
      <FormError key={decision.attempt} message={decision.formError} />
      {suspended === null ? null : (
        <p className="review-card__done" role="status">
          {suspended}
        </p>
      )}
      {suspending && item.suspendable ? (
        <SuspendForm
          item={item}
          onDone={(text) => {
            setSuspended(text);
            setSuspending(false);
          }}
        />
      ) : null}
    </article>
  );
}
