import { useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, type TagWithCount } from '@porpoise/core';
import { CheckIcon, PlusIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { toggleTagFollow } from '../api/follow';
import { plural } from '../home-query';
import { AsyncButton } from './async-button';

/** Whether the member follows each tag, and how to follow it or stop (docs/product.md section 11). */
export interface TagFollowing {
  followed: ReadonlySet<string>;
  /** Resolves with the server's refusal, or null. */
  toggle: (name: string) => Promise<string | null>;
}

/** The tags the member follows, starting from the account's list; each toggle takes the server's answer. */
export function useTagFollowing(initial: readonly string[], onChange: () => void): TagFollowing {
  const [followed, setFollowed] = useState<ReadonlySet<string>>(
    () => new Set(initial.map((name) => name.toLowerCase())),
  );
  async function toggle(name: string): Promise<string | null> {
    try {
      const following = await toggleTagFollow(name);
      setFollowed((current) => {
        const next = new Set(current);
        if (following) next.add(name.toLowerCase());
        else next.delete(name.toLowerCase());
        return next;
      });
      onChange();
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }
  return { followed, toggle };
}

/**
 * The /tags cards: name, description and question count, each a link to its questions, and a
 * follow toggle; a followed tag carries a 'Following' mark (docs/product.md section 11).
 */
export function TagCards({ tags, following }: { tags: TagWithCount[]; following: TagFollowing }) {
  if (tags.length === 0) {
    return (
      <div className="q-empty">
        <h2 className="q-empty__title">No tags yet</h2>
        <p className="muted">Tags appear here as soon as someone asks a question with them.</p>
        <p>
          <Link to={paths.newQuestion()}>Ask a question</Link>
        </p>
      </div>
    );
  }
  return (
    <ul className="tag-cards">
      {tags.map((tag) => {
        const followed = following.followed.has(tag.name.toLowerCase());
        return (
          <li key={tag.name} className={followed ? 'tag-card tag-card--followed' : 'tag-card'}>
            <Link className="tag-card__link" to={paths.home({ tag: tag.name })}>
              <span className="tag-card__head">
                <span className="tag-card__name">{tag.name}</span>
                {followed ? (
                  <span className="tag-card__following">
                    <CheckIcon width="14" height="14" />
                    Following
                  </span>
                ) : null}
              </span>
              <span className="tag-card__description">{tag.description}</span>
              <span className="tag-card__count">{plural(tag.qcnt, 'question')}</span>
            </Link>
            <AsyncButton
              run={() => following.toggle(tag.name)}
              pressed={followed}
              className="button follow-button tag-card__follow"
              wrapperClassName="tag-card__actions"
            >
              {followed ? <CheckIcon width="16" height="16" /> : <PlusIcon width="16" height="16" />}
              Follow<span className="visually-hidden"> tag {tag.name}</span>
            </AsyncButton>
          </li>
        );
      })}
    </ul>
  );
}
