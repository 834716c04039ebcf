import { Link } from 'react-router';
import type { Tag } from '@porpoise/core';
import { paths } from '@/config/paths';

/** A question's tags as links to the list filtered by each (spec section 2). */
export function TagChips({ tags, className }: { tags: Tag[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={className === undefined ? 'tag-chips' : `tag-chips ${className}`} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.name}>
          <Link className="tag-chip" to={paths.home({ tag: tag.name })} title={tag.description || undefined}>
            {tag.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
