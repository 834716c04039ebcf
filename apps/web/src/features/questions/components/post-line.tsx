import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { AsyncButton } from './async-button';
import { formatCount } from '@/lib/numbers';

/** Deletes or undeletes a post: resolves with the server's refusal, or null. */
export type ToggleDeleted = () => Promise<string | null>;

/**
 * 'edited {time}' (with the editor's name when not the author), linking to the post's history,
 * 'Edit question' / 'Edit answer' for whoever may edit, and 'Delete' (on a deleted post:
 * 'Undelete') for whoever may delete (docs/product.md section 9). A deleted post is not edited.
 */
export function PostLine({
  post,
  author,
  editedAt,
  editedBy,
  editTo,
  historyTo,
  mayEdit,
  deleted,
  toggleDeleted,
  flag,
}: {
  post: 'question' | 'answer';
  author: string;
  editedAt: string | null;
  editedBy: string | null;
  editTo: string;
  historyTo: string;
  mayEdit: boolean;
  deleted: boolean;
  /** Null for whoever may not delete it. */
  toggleDeleted: ToggleDeleted | null;
  /** The 'Flag' control, for members who may flag it (docs/product.md section 10); null otherwise. */
  flag: ReactNode;
}) {
  const edits = mayEdit && !deleted;
  const parts: ReactNode[] = [];
  if (edits) parts.push(<Link to={editTo}>Edit {post}</Link>);
  if (editedAt !== null) {
    parts.push(
      <Link to={historyTo}>
        <RelativeTime date={editedAt} prefix="edited " />
        {editedBy !== null && editedBy !== author ? ` by ${editedBy}` : ''}
      </Link>,
    );
  }
  if (parts.length === 0 && toggleDeleted === null && flag === null) return null;
  return (
    <div className="post__edited">
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 ? ' · ' : null}
          {part}
        </span>
      ))}
      {toggleDeleted === null ? null : (
        <AsyncButton run={toggleDeleted} className="link-button" wrapperClassName="post__delete">
          {deleted ? 'Undelete' : 'Delete'}
          <span className="visually-hidden"> {post === 'question' ? 'this question' : `the answer by ${author}`}</span>
        </AsyncButton>
      )}
      {flag}
    </div>
  );
}

/** 'asked' or 'answered' {time} by {user}, linking to their profile. */
export function Byline({
  verb,
  user,
  date,
  reputation,
}: {
  verb: string;
  user: string;
  date: string;
  /** The author's reputation, beside their name (docs/product.md section 13). */
  reputation: number;
}) {
  return (
    <p className="byline">
      <RelativeTime date={date} prefix={`${verb} `} /> by{' '}
      <Link className="q-author" to={paths.userProfile(user)}>
        {user}
      </Link>{' '}
      <span className="byline__reputation">
        {formatCount(reputation)}
        <span className="visually-hidden"> reputation</span>
      </span>
    </p>
  );
}
