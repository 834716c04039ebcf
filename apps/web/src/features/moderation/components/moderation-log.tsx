import { Link } from 'react-router';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import type { LogEntry } from '../api/moderation';
import { placeOf } from '../item-place';

const ACTION_LABELS: Record<LogEntry['action'], string> = {
  dismiss: 'dismissed the flags on',
  approve: 'approved',
  delete: 'deleted',
  undelete: 'undeleted',
  edit: 'edited',
  close: 'closed',
  reopen: 'reopened',
  suspend: 'suspended',
  unsuspend: 'lifted the suspension of',
  role: 'changed the role of',
  reputation: 'adjusted the reputation of',
};

const ITEM_NAMES: Record<LogEntry['targetType'], string> = {
  question: 'a question',
  answer: 'an answer',
  comment: 'a comment',
  message: 'a message',
  account: 'an account',
};

/** What an entry acted on, linked to where it is when it has a place. */
function Target({ entry }: { entry: LogEntry }) {
  if (entry.targetType === 'account') return <Link to={paths.userProfile(entry.subject ?? '')}>{entry.subject}</Link>;
  const what = `${ITEM_NAMES[entry.targetType]}${entry.subject === null ? '' : ` by ${entry.subject}`}`;
  if (entry.questionId === null && entry.threadId === null) return <>{what}</>;
  return <Link to={placeOf(entry)}>{what}</Link>;
}

/** The moderation log (docs/product.md section 10): who did what, on what, when and why, newest first. */
export function ModerationLog({ entries }: { entries: LogEntry[] }) {
  if (entries.length === 0) return <p className="muted">No moderator has acted yet.</p>;
  const oldest = entries.at(-1);
  return (
    <>
      <ol className="moderation-log">
        {entries.map((entry) => (
          <li key={entry._id} className="moderation-log__entry">
            <strong>{entry.moderator}</strong> {ACTION_LABELS[entry.action]} <Target entry={entry} />{' '}
            <RelativeTime date={entry.at} />
            {entry.reason === null ? null : <span className="moderation-log__reason">: {entry.reason}</span>}
          </li>
        ))}
      </ol>
      {entries.length < 50 || oldest === undefined ? null : (
        <Link className="button" to={paths.moderationLog(oldest._id)}>
          Older entries
        </Link>
      )}
    </>
  );
}
