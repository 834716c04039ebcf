import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ANSWER_ORDERS, type Answer, type AnswerOrder, type Question } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useLoadOnScroll } from '@/hooks/use-load-on-scroll';
import { ANSWER_ORDER_LABELS, sortAnswers } from '../answer-order';
import { plural } from '../home-query';

/** 'Score', 'Oldest', 'Newest' above the answers (docs/product.md section 7). */
function AnswerOrderControl({ order, choose }: { order: AnswerOrder; choose: (order: AnswerOrder) => void }) {
  return (
    <div className="q-sort answers__order" role="group" aria-label="Sort answers">
      {ANSWER_ORDERS.map((option) => (
        <button
          key={option}
          type="button"
          className="q-sort__button"
          aria-pressed={order === option}
          onClick={() => choose(option)}
        >
          {ANSWER_ORDER_LABELS[option]}
        </button>
      ))}
    </div>
  );
}

/** The answers' later pages, as useLiveQuestion loads them. */
export interface AnswerPages {
  moreAnswers: boolean;
  loadMoreAnswers: () => Promise<void>;
  loadingAnswers: boolean;
  answersError: string | null;
}

/**
 * The question page's answers: their count, 'Answer Question' (disabled on a closed or deleted
 * question), the order chosen, the answers in it, and the next page as the reader scrolls.
 */
export function AnswerSection({
  question,
  closedId,
  pages: { moreAnswers, loadMoreAnswers, loadingAnswers, answersError },
  renderAnswer,
}: {
  question: Question;
  /** The closed banner's id, which describes the disabled 'Answer Question'. */
  closedId: string;
  pages: AnswerPages;
  renderAnswer: (answer: Answer) => ReactNode;
}) {
  const answersId = useId();
  const [order, setOrder] = useState<AnswerOrder>('score');
  // Pages come oldest first: newest first needs every answer before it can sort them. Score (the
  // default) sorts the answers loaded so far; later pages join it as the reader scrolls (README).
  const loadAll = order === 'newest' && moreAnswers && answersError === null;
  useEffect(() => {
    if (loadAll && !loadingAnswers) void loadMoreAnswers();
  }, [loadAll, loadingAnswers, loadMoreAnswers]);
  const sentinel = useLoadOnScroll(moreAnswers && answersError === null, () => void loadMoreAnswers());
  const questionDeleted = question.deleted === true;

  return (
    <section className="answers" aria-labelledby={answersId}>
      <div className="answers__head">
        <h2 id={answersId}>{plural(question.answerCount, 'Answer')}</h2>
        {question.closed === null && !questionDeleted ? (
          <Link className="button button--primary" to={paths.newAnswer(question._id)}>
            Answer Question
          </Link>
        ) : (
          // A closed question takes no new answers: the banner above says why.
          <button
            type="button"
            className="button button--primary"
            disabled
            aria-describedby={question.closed === null ? undefined : closedId}
          >
            Answer Question
          </button>
        )}
      </div>
      {question.answers.length > 1 ? <AnswerOrderControl order={order} choose={setOrder} /> : null}
      {question.answers.length === 0 ? (
        <p className="q-empty q-empty--compact muted">No answers yet. Know the answer? Share it.</p>
      ) : (
        <ol className="answers__list">
          {sortAnswers(question.answers, order, question.acceptedAnswer).map(renderAnswer)}
        </ol>
      )}
      {moreAnswers && !loadAll ? (
        <div className="q-more" ref={sentinel}>
          <button
            type="button"
            className="button"
            onClick={() => void loadMoreAnswers()}
            aria-disabled={loadingAnswers}
            aria-describedby={answersError === null ? undefined : 'answers-more-error'}
          >
            {loadingAnswers ? 'Loading…' : 'Load more answers'}
          </button>
          <FormError id="answers-more-error" message={answersError} />
        </div>
      ) : null}
    </section>
  );
}
