import { useId } from 'react';
import { Link } from 'react-router';
import type { ReputationEvent, UserReputation } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { formatChange, formatCount } from '@/lib/numbers';
import { reputationEventText } from '../reputation-text';

/**
 * The profile card's '{N} reputation', linking to what it unlocks (/help/privileges, docs/product.md
 * section 13). Nothing shows until it arrives, or if it cannot be loaded (the history says why).
 */
export function ReputationTotal({ reputation }: { reputation: Promise<UserReputation> }) {
  return (
    <Deferred data={reputation} loading={null} failed={() => null}>
      {({ reputation: total }) => (
        <p className="profile-card__reputation">
          <Link to={paths.privileges()}>
            {formatCount(total)} reputation<span className="visually-hidden">: see what it unlocks</span>
          </Link>
        </p>
      )}
    </Deferred>
  );
}

/** One event: its signed change and what happened, linking to its question (an adjustment has none), and when. */
function ReputationRow({ event, own }: { event: ReputationEvent; own: boolean }) {
  const what = (
    <>
      <span className="rep-event__delta">{formatChange(event.delta)}</span>{' '}
      <span className="rep-event__what">{reputationEventText(event, own)}</span>
    </>
  );
  return (
    <li className="rep-event">
      {event.qid === null ? (
        <span className="rep-event__main">{what}</span>
      ) : (
        <Link className="rep-event__main" to={paths.question(event.qid)}>
          {what}
        </Link>
      )}
      <span className="rep-event__time">
        <RelativeTime date={event.createdAt} />
      </span>
    </li>
  );
}

/**
 * A profile's 'Reputation' section (docs/product.md section 13): the newest events, newest first,
 * each with its signed change. `own`: worded for the member themself ('Your question was upvoted').
 */
export function ReputationHistory({ reputation, own }: { reputation: Promise<UserReputation>; own: boolean }) {
  const headingId = useId();
  return (
    <section className="card profile-section reputation-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="profile-section__title">
        Reputation
      </h2>
      <Deferred
        data={reputation}
        loading={<LoadingText>Loading reputation…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load reputation')}</p>}
      >
        {({ history }) =>
          history.length === 0 ? (
            <p className="muted">No reputation events yet.</p>
          ) : (
            <ul className="rep-list" aria-labelledby={headingId}>
              {history.map((event, index) => (
                <ReputationRow key={`${event.createdAt}-${index}`} event={event} own={own} />
              ))}
            </ul>
          )
        }
      </Deferred>
    </section>
  );
}
