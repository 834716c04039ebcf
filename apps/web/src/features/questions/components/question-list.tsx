import { LIMITS } from '@porpoise/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { announce } from '@/lib/announcer';
import { paths } from '@/config/paths';
import { LoadMore } from '@/components/load-more';
import type { QuestionPage } from '../api/get-questions';
import { plural, type HomeQuery } from '../home-query';
import { useQuestionList } from '../hooks/use-question-list';
import { QuestionRow } from './question-row';

/**
 * The question count and rows, live. Give it a key per query: a new URL starts again
 * from that URL's first page.
 */
export function QuestionList({
  query,
  firstPage,
  followedTags = [],
}: {
  query: HomeQuery;
  firstPage: QuestionPage;
  /** The member's followed tags, for 'My tags' (live questions in them join the list). */
  followedTags?: readonly string[];
}) {
  const { questions, total, hasMore, loadMore, loadingMore, loadError } = useQuestionList(
    query,
    firstPage,
    followedTags,
  );
  const filtered = query.search !== '' || query.tag !== '';
  const count =
    query.search !== '' && total >= LIMITS.searchCountCap
      ? `${LIMITS.searchCountCap}+ questions`
      : plural(total, 'question');
  // A search's or a filter's count is read out as its list opens (mounted once per query),
  // through the one live region; questions joining live later are not announced.
  const [opened] = useState(count);
  useEffect(() => {
    if (filtered || query.myTags) announce('status', opened);
  }, [filtered, query.myTags, opened]);

  return (
    <>
      <p className="q-count">{count}</p>
      {questions.length === 0 ? (
        <div className="q-empty">
          <h2 className="q-empty__title">No Questions Found</h2>
          <p className="muted">
            {filtered
              ? 'Try other words or another tag, or ask it yourself.'
              : query.myTags
                ? 'No questions in the tags you follow yet.'
                : 'Be the first to ask something.'}
          </p>
          <p>
            {filtered || query.myTags ? (
              <Link to={paths.home()}>Show all questions</Link>
            ) : (
              <Link to={paths.newQuestion()}>Ask a question</Link>
            )}
          </p>
        </div>
      ) : (
        <ol className="q-list">
          {questions.map((question) => (
            <QuestionRow key={question._id} question={question} />
          ))}
        </ol>
      )}
      <LoadMore
        hasMore={hasMore}
        loadMore={loadMore}
        loadingMore={loadingMore}
        loadError={loadError}
        errorId="q-more-error"
      />
    </>
  );
}
