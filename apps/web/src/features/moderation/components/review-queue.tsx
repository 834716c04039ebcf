import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FLAG_REASONS, LIMITS, PORPCHAT_THREAD_ID, parseSuspensionDays, suspensionReasonError } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import type { SocketPayloads } from '@porpoise/core/contract';
import { userFacingError } from '@/lib/api-client';
import { decideReview, suspendAccount, type ReviewItem, type ReviewQueue as Queue } from '../api/moderation';

const KIND_LABELS: Record<ReviewItem['targetType'], string> = {
  question: 'Question',
  answer: 'Answer',
  comment: 'Comment',
  message: 'Message',
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Where an item is: its question's page, PorpChat, or its forum's thread. */
export const placeOf = (item: { questionId: string | null; threadId: string | null }) => {
  if (item.questionId !== null) return paths.question(item.questionId);
  return item.threadId === PORPCHAT_THREAD_ID ? paths.porpchat() : paths.thread(item.threadId ?? '');
};

const sameItem = (item: ReviewItem, type: string, id: string) => item.targetType === type && item.targetId === id;

/** A reviewUpdate applied to the queue: the item as it now is (null: decided), and the count. */
function withReview(current: Queue, { targetType, targetId, item, open }: SocketPayloads['reviewUpdate']): Queue {
  const index = current.items.findIndex((row) => sameItem(row, targetType, targetId));
  if (item === null) return { items: current.items.filter((_, at) => at !== index), open };
  if (index >= 0) return { items: current.items.with(index, item), open };
  // A new item is the newest: it joins the end, within the page the queue shows.
  return { items: [...current.items, item].slice(0, LIMITS.queuePage), open };
}

/**
 * The queue's live feed, heard from the moment /moderation opens: an update that comes
 * while the queue is still loading waits and applies once it is there.
 */
export function useReviewFeed(): LiveFeed<Queue> {
  return useLiveFeed<Queue>({ reviewUpdate: withReview });
}

/**
 * The review queue (product.md section 10): flagged and hidden items and posts waiting for
 * approval, oldest first, with their reasons and flag counts. Live: a new flag, a hidden
 * item or another moderator's decision changes the list as it happens.
 */
export function ReviewQueue({ initial, feed }: { initial: Queue; feed: LiveFeed<Queue> }) {
  const [queue, update] = useLiveData(initial, feed);
  // Its reviewUpdate may have come first (it is sent before the answer): counted once.
  const decided = (item: ReviewItem) =>
    update((current) => {
      const items = current.items.filter((row) => !sameItem(row, item.targetType, item.targetId));
      return items.length === current.items.length ? current : { items, open: Math.max(0, current.open - 1) };
    });

  return (
    <>
      <p className="muted" role="status">
        {queue.open === 0
          ? 'Nothing is waiting for a moderator.'
          : `${plural(queue.open, 'item')} waiting, oldest first.`}
      </p>
      {queue.items.length === 0 ? null : (
        <ol className="review-queue">
          {queue.items.map((item) => (
            <li key={`${item.targetType}:${item.targetId}`}>
              <ReviewCard item={item} onDecided={() => decided(item)} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function ReviewCard({ item, onDecided }: { item: ReviewItem; onDecided: () => void }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; key: number } | null>(null);
  const [suspending, setSuspending] = useState(false);
  const [suspended, setSuspended] = useState<string | null>(null);
  const approval = item.heldFor === 'approval';
  const what = `the ${item.targetType} by ${item.author}`;

  async function decide(decision: 'dismiss' | 'delete') {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await decideReview(decision, item.targetType, item.targetId);
      onDecided();
    } catch (caught) {
      setError({ message: userFacingError(caught, 'Failed to save the decision. Please try again.'), key: Date.now() });
      setBusy(false);
    }
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
        <button type="button" className="button" onClick={() => void decide('delete')} aria-disabled={busy}>
          Delete<span className="visually-hidden"> {what}</span>
        </button>
        {item.authorAccount === null || suspended !== null ? null : (
          <button
            type="button"
            className="button"
            aria-expanded={suspending}
            onClick={() => setSuspending(!suspending)}
          >
            Suspend<span className="visually-hidden"> {item.authorAccount}</span>
          </button>
        )}
      </div>
      <FormError key={error?.key} message={error?.message ?? null} />
      {suspended === null ? null : (
        <p className="review-card__done" role="status">
          {suspended}
        </p>
      )}
      {suspending && item.authorAccount !== null ? (
        <SuspendForm
          username={item.authorAccount}
          onDone={(text) => {
            setSuspended(text);
            setSuspending(false);
          }}
        />
      ) : null}
    </article>
  );
}

/** Suspends an item's author: a reason, and days (empty: for good). */
function SuspendForm({ username, onDone }: { username: string; onDone: (text: string) => void }) {
  const reasonId = useId();
  const daysId = useId();
  const hintId = useId();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; key: number } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = parseSuspensionDays(days);
    const refusal = suspensionReasonError(reason) ?? ('error' in parsed ? parsed.error : null);
    if (refusal !== null || 'error' in parsed) {
      setError({ message: refusal ?? '', key: Date.now() });
      return;
    }
    setBusy(true);
    try {
      const result = await suspendAccount(username, reason.trim(), parsed.days);
      onDone(
        result.suspendedUntil === null
          ? `${username} is suspended for good.`
          : `${username} is suspended until ${new Date(result.suspendedUntil).toLocaleString()}.`,
      );
    } catch (caught) {
      setError({ message: userFacingError(caught, 'Failed to suspend. Please try again.'), key: Date.now() });
      setBusy(false);
    }
  }

  return (
    <form
      className="suspend-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={`Suspend ${username}`}
    >
      <label htmlFor={reasonId} className="field__label">
        Reason
      </label>
      <input
        id={reasonId}
        className="field__input"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <label htmlFor={daysId} className="field__label">
        Days
      </label>
      <input
        id={daysId}
        className="field__input suspend-form__days"
        inputMode="numeric"
        value={days}
        aria-describedby={hintId}
        onChange={(event) => setDays(event.target.value)}
      />
      <p id={hintId} className="field__hint muted">
        Leave empty to suspend for good.
      </p>
      <FormError key={error?.key} message={error?.message ?? null} />
      <button type="submit" className="button" aria-disabled={busy}>
        Suspend
      </button>
    </form>
  );
}
