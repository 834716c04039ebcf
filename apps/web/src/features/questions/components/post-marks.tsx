import { Link } from 'react-router';
import { MESSAGES, type Closed, type HeldFor, type PostKind } from '@porpoise/core';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { AsyncButton } from './async-button';
import { CLOSE_REASON_LABELS } from './close-question-form';

/**
 * A deleted post's mark (words, not colour alone): only its author and moderators see one.
 * A post held from view says why (docs/product.md section 10): three flags, or (a new account's
 * post) the moderator it waits for, as 'Your post is waiting for a moderator' to its author.
 */
export function DeletedMark({ post, held, own }: { post: PostKind; held: HeldFor | undefined; own: boolean }) {
  if (held === 'approval') {
    return (
      <p className="deleted-mark" role="status">
        <strong>{own ? `${MESSAGES.waitingForModerator}.` : 'Waiting for approval.'}</strong> Only its author and
        moderators see this {post} until a moderator approves it.
      </p>
    );
  }
  if (held === 'flags') {
    return (
      <p className="deleted-mark">
        <strong>Hidden by flags.</strong> Only its author and moderators see this {post} until a moderator reviews it.
      </p>
    );
  }
  return (
    <p className="deleted-mark">
      <strong>Deleted.</strong> Only its author and moderators see this {post}.
    </p>
  );
}

/** Why the question is closed (with the original of a duplicate), by whom and when. */
export function ClosedBanner({
  closed,
  id,
  reopen,
  reopenVotes,
  voteToReopen,
}: {
  closed: Closed;
  id: string;
  reopen: (() => Promise<string | null>) | null;
  /** Members' votes to reopen it so far (docs/product.md section 13). */
  reopenVotes: number;
  /** A member with 'Vote to close' votes to reopen; null for anyone else. */
  voteToReopen: (() => Promise<string | null>) | null;
}) {
  return (
    <div className="closed-banner" id={id} role="note" aria-label="Closed">
      <p className="closed-banner__reason">
        <strong>Closed</strong>
        {closed.reason === 'duplicate' ? (
          closed.duplicateOf === null ? (
            ' as a duplicate.'
          ) : (
            <>
              {' as a duplicate of '}
              <Link to={paths.question(closed.duplicateOf._id)}>{closed.duplicateOf.title}</Link>.
            </>
          )
        ) : (
          `: ${CLOSE_REASON_LABELS[closed.reason].toLowerCase()}.`
        )}{' '}
        It takes no new answers.
      </p>
      <p className="closed-banner__by muted">
        Closed by {closed.closedBy} <RelativeTime date={closed.closedAt} />
      </p>
      {reopenVotes > 0 ? <p className="closed-banner__votes">Reopen votes: {reopenVotes}</p> : null}
      {reopen === null ? null : <AsyncButton run={reopen}>Reopen</AsyncButton>}
      {voteToReopen === null ? null : <AsyncButton run={voteToReopen}>Vote to reopen</AsyncButton>}
    </div>
  );
}
