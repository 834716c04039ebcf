import { Link } from 'react-router';
import type { QuestionSummary } from '@porpoise/core';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { plural } from '../home-query';
import { CheckIcon } from './question-icons';
import { TagChips } from './tag-chips';

/**
 * One row of the home list. The title's link covers the whole row (so a click anywhere
 * opens the question) while the tag and author links sit above it and stay their own.
 */
export function QuestionRow({ question }: { question: QuestionSummary }) {
  const answered = question.answerCount > 0;
  // An accepted answer: a check mark and words, not colour alone (docs/product.md section 7).
  const accepted = question.acceptedAnswer !== null;
  let answerClass = 'q-stat';
  if (answered) answerClass += ' q-stat--answered';
  if (accepted) answerClass += ' q-stat--accepted';
  return (
    <li className="q-row">
      <div className="q-row__stats">
        <span className="q-stat">
          <span className="q-stat__number">{question.voteCount}</span> {question.voteCount === 1 ? 'vote' : 'votes'}
        </span>
        <span className={answerClass}>
          {accepted ? <CheckIcon className="q-stat__check" /> : null}
          <span className="q-stat__number">{question.answerCount}</span>{' '}
          {question.answerCount === 1 ? 'answer' : 'answers'}
          {accepted ? <span className="visually-hidden">, one accepted</span> : null}
        </span>
        <span className="q-stat">{plural(question.viewCount, 'view')}</span>
      </div>
      <div className="q-row__main">
        <h2 className="q-row__title">
          <Link className="q-row__link" to={paths.question(question._id)} data-shortcut-row="">
            {question.title}
          </Link>
        </h2>
        <div className="q-row__footer">
          <TagChips tags={question.tags} className="q-row__tags" />
          <p className="q-row__meta">
            <Link className="q-author" to={paths.userProfile(question.askedBy)}>
              {question.askedBy}
            </Link>{' '}
            <RelativeTime date={question.askDateTime} prefix="asked " />
          </p>
        </div>
      </div>
    </li>
  );
}
