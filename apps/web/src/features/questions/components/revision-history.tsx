import { diffWords } from 'diff';
import { RelativeTime } from '@/components/relative-time';
import type { Revision } from '../api/edit-post';

/**
 * What changed from `before` to `after`, word by word (jsdiff's diffWords): removed words
 * struck through, added words underlined, each also said in words for screen readers (not
 * shown by colour or line alone).
 */
function WordDiff({ before, after }: { before: string; after: string }) {
  return (
    <>
      {diffWords(before, after).map((part, index) => {
        if (part.added) {
          return (
            <ins key={index} className="diff__added">
              <span className="visually-hidden">[added: </span>
              {part.value}
              <span className="visually-hidden">]</span>
            </ins>
          );
        }
        if (part.removed) {
          return (
            <del key={index} className="diff__removed">
              <span className="visually-hidden">[removed: </span>
              {part.value}
              <span className="visually-hidden">]</span>
            </del>
          );
        }
        return <span key={index}>{part.value}</span>;
      })}
    </>
  );
}

const tagLine = (revision: Revision) => (revision.tags ?? []).map((tag) => tag.name).join(' ');

/**
 * A post's revisions, newest first (docs/product.md section 9), each with what changed since the
 * one before: title, text and tags for a question, text for an answer. Revision 1 is the
 * original, shown whole.
 */
export function RevisionHistory({ revisions }: { revisions: Revision[] }) {
  return (
    <ol className="revisions">
      {revisions.map((revision, index) => {
        const previous = revisions[index + 1];
        const headingId = `revision-${revision.revision}`;
        return (
          <li key={revision.revision} className="revision card" aria-labelledby={headingId}>
            <h2 className="revision__title" id={headingId}>
              Revision {revision.revision}
              {revision.revision === 1 ? ' (original)' : ''}
            </h2>
            <p className="revision__meta muted">
              <RelativeTime date={revision.editedAt} prefix={revision.revision === 1 ? 'posted ' : 'edited '} /> by{' '}
              {revision.editedBy}
              {revision.reason === null ? null : <>: {revision.reason}</>}
            </p>
            {revision.title === undefined ? null : (
              <p className="revision__field">
                <span className="revision__label">Title: </span>
                <WordDiff before={previous?.title ?? revision.title} after={revision.title} />
              </p>
            )}
            <div className="revision__text">
              <WordDiff before={previous?.text ?? revision.text} after={revision.text} />
            </div>
            {revision.tags === undefined ? null : (
              <p className="revision__field">
                <span className="revision__label">Tags: </span>
                <WordDiff
                  before={previous === undefined ? tagLine(revision) : tagLine(previous)}
                  after={tagLine(revision)}
                />
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
