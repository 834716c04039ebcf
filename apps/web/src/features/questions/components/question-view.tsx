import { useId } from 'react';
import { Link } from 'react-router';
import type { Answer, Comment, Question } from '@porpoise/core';
import { RelativeTime } from '@/components/relative-time';
import { FormError } from '@/components/form-error';
import { RichText } from '@/components/rich-text';
import { paths } from '@/config/paths';
import { useLoadOnScroll } from '@/hooks/use-load-on-scroll';
import { plural } from '../home-query';
import { useLiveQuestion } from '../hooks/use-live-question';
import { CommentSection } from './comment-section';
import { TagChips } from './tag-chips';
import { VoteControl } from './vote-control';

function Byline({ verb, user, date }: { verb: string; user: string; date: string }) {
  return (
    <p className="byline">
      <RelativeTime date={date} prefix={`${verb} `} /> by{' '}
      <Link className="q-author" to={paths.userProfile(user)}>
        {user}
      </Link>
    </p>
  );
}

function AnswerItem({
  answer,
  username,
  onComment,
}: {
  answer: Answer;
  username: string;
  onComment: (comment: Comment) => void;
}) {
  return (
    <li className="post post--answer">
      <article aria-label={`Answer by ${answer.ansBy}`}>
        <RichText className="post__text" text={answer.text} />
        <Byline verb="answered" user={answer.ansBy} date={answer.ansDateTime} />
        <CommentSection
          comments={answer.comments}
          targetId={answer._id}
          type="answer"
          username={username}
          onAdded={onComment}
        />
      </article>
    </li>
  );
}

/**
 * The question page (spec section 2): votes, title, views, text, asker and asked time (once), the
 * question's comments, then the answers with theirs. Mount it with a key per question.
 */
export function QuestionView({ initial, username }: { initial: Question; username: string }) {
  const { question, addLocalComment, moreAnswers, loadMoreAnswers, loadingAnswers, answersError } =
    useLiveQuestion(initial);
  const sentinel = useLoadOnScroll(moreAnswers && answersError === null, () => void loadMoreAnswers());
  const titleId = useId();
  const answersId = useId();

  return (
    <>
      <article className="question" aria-labelledby={titleId}>
        <header className="question__head">
          <h1 className="q-page-title question__title" id={titleId}>
            {question.title}
          </h1>
          {/* The asked time is in the byline beside the asker (spec: asker, asked time), not repeated here. */}
          <dl className="question__facts">
            <div>
              <dt className="visually-hidden">Views</dt>
              <dd>{plural(question.viewCount, 'view')}</dd>
            </div>
            <div>
              <dt className="visually-hidden">Answers</dt>
              <dd>{plural(question.answerCount, 'answer')}</dd>
            </div>
          </dl>
        </header>
        <div className="post post--question">
          <VoteControl question={question} username={username} />
          <div className="post__body">
            <RichText className="post__text" text={question.text} />
            <TagChips tags={question.tags} className="post__tags" />
            <Byline verb="asked" user={question.askedBy} date={question.askDateTime} />
            <CommentSection
              comments={question.comments}
              targetId={question._id}
              type="question"
              username={username}
              onAdded={(comment) => addLocalComment('question', question._id, comment)}
            />
          </div>
        </div>
      </article>
      <section className="answers" aria-labelledby={answersId}>
        <div className="answers__head">
          <h2 id={answersId}>{plural(question.answerCount, 'Answer')}</h2>
          <Link className="button button--primary" to={paths.newAnswer(question._id)}>
            Answer Question
          </Link>
        </div>
        {question.answers.length === 0 ? (
          <p className="q-empty q-empty--compact muted">No answers yet. Know the answer? Share it.</p>
        ) : (
          <ol className="answers__list">
            {question.answers.map((answer) => (
              <AnswerItem
                key={answer._id}
                answer={answer}
                username={username}
                onComment={(comment) => addLocalComment('answer', answer._id, comment)}
              />
            ))}
          </ol>
        )}
        {moreAnswers ? (
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
    </>
  );
}
