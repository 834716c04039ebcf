import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  FLAG_REASONS,
  LIMITS,
  MESSAGES,
  PORPCHAT_THREAD_ID,
  parseSuspensionDays,
  suspensionReasonError,
} from '@porpoise/core';
import { Field } from '@/components/field';
import { FormError } from '@/components/form-error';
import { TextField } from '@/components/text-field';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import type { SocketPayloads } from '@porpoise/core/contract';
import { useForm } from '@/hooks/use-form';
import { userFacingError } from '@/lib/api-client';
import { decideReview, suspendAuthor, type ReviewItem, type ReviewQueue as Queue } from '../api/moderation';

const KIND_LABELS: Record<ReviewItem['targetType'], string> = {
  question: 'Question',
  answer: 'Answer',
  comment: 'Comment',
  message: 'Message',
};

/** The server's refusals about 'Days', shown beside that field. */
const DAYS_MESSAGES = new Set<string>([
  MESSAGES.suspensionDays,
  MESSAGES.suspensionDaysRequired,
  MESSAGES.suspensionDaysAndForever,
]);

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
 * The review queue (docs/product.md section 10): flagged and hidden items and posts waiting for
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
        <DeleteButton item={item} what={what} busy={busy} onConfirm={() => void decide('delete')} />
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
      <FormError key={error?.key} message={error?.message ?? null} />
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

/**
 * 'Delete' asks first (docs/product.md section 5): a native modal dialog 'Delete this post?' that
 * keeps focus inside, starts on 'Cancel', closes on Escape and gives focus back to the button.
 */
function DeleteButton({
  item,
  what,
  busy,
  onConfirm,
}: {
  item: ReviewItem;
  what: string;
  busy: boolean;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  function open() {
    if (busy) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  }
  return (
    <>
      <button type="button" className="button" aria-haspopup="dialog" onClick={open} aria-disabled={busy}>
        Delete<span className="visually-hidden"> {what}</span>
      </button>
      <dialog
        ref={dialog}
        className="flag-dialog review-card__delete-dialog"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <h2 id={titleId} className="flag-dialog__title">
          Delete this post?
        </h2>
        <p id={textId}>
          {KIND_LABELS[item.targetType]} by {item.author}: it leaves every list and page at once.
        </p>
        <div className="flag-dialog__actions">
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            Delete
          </button>
          <button type="button" className="button" ref={cancel} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}

/**
 * Suspends an item's author: a reason, and days or 'Suspend for good'. Named as the item shows
 * them: a PorpChat message's typed name, never its account (docs/product.md section 10).
 */
function SuspendForm({ item, onDone }: { item: ReviewItem; onDone: (text: string) => void }) {
  const username = item.author;
  const form = useForm<'reason' | 'days'>();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const [forever, setForever] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    // Days are required unless 'Suspend for good' is checked (docs/product.md section 5).
    const parsed = forever ? { days: null } : parseSuspensionDays(days);
    void form.submit({
      validate: () => ({ reason: suspensionReasonError(reason), days: 'error' in parsed ? parsed.error : null }),
      send: async () => {
        if ('error' in parsed) return;
        const result = await suspendAuthor(item.targetType, item.targetId, reason.trim(), parsed.days);
        onDone(
          result.suspendedUntil === null
            ? `${username} is suspended for good.`
            : `${username} is suspended until ${new Date(result.suspendedUntil).toLocaleString()}.`,
        );
      },
      failureMessage: (caught) => userFacingError(caught, 'Failed to suspend. Please try again.'),
      fieldOf: (message) => (DAYS_MESSAGES.has(message) ? 'days' : message.startsWith('Reason ') ? 'reason' : null),
    });
  }

  return (
    <form className="suspend-form" onSubmit={submit} noValidate aria-label={`Suspend ${username}`}>
      <TextField
        id={form.fieldId('reason')}
        label="Reason"
        name="reason"
        value={reason}
        onChange={setReason}
        error={form.errorOf('reason')}
        attempt={form.attempt}
      />
      <Field
        id={form.fieldId('days')}
        label="Days"
        hint="Required unless 'Suspend for good' is checked."
        error={form.errorOf('days')}
        attempt={form.attempt}
      >
        {(control) => (
          <input
            {...control}
            className="field__input suspend-form__days"
            name="days"
            inputMode="numeric"
            value={days}
            disabled={forever}
            onChange={(event) => setDays(event.target.value)}
          />
        )}
      </Field>
      <label className="suspend-form__forever">
        <input type="checkbox" checked={forever} onChange={(event) => setForever(event.target.checked)} />
        Suspend for good
      </label>
      <FormError key={form.attempt} message={form.formError} />
      <button type="submit" className="button" aria-disabled={form.pending}>
        Suspend
      </button>
    </form>
  );
}
