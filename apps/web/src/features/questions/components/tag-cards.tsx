import { Link } from 'react-router';
import type { TagWithCount } from '@porpoise/core';
import { paths } from '@/config/paths';
import { plural } from '../home-query';

/** The /tags cards: name, description and question count, each a link to its questions. */
export function TagCards({ tags }: { tags: TagWithCount[] }) {
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
      {tags.map((tag) => (
        <li key={tag.name}>
          <Link className="tag-card" to={paths.home({ tag: tag.name })}>
            <span className="tag-card__name">{tag.name}</span>
            <span className="tag-card__description">{tag.description}</span>
            <span className="tag-card__count">{plural(tag.qcnt, 'question')}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
