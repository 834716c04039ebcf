import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  ANSWER_ORDERS,
  MESSAGES,
  type Answer,
  type AnswerOrder,
  type Comment,
  type Question,
  type Role,
} from '@porpoise/core';
import { RelativeTime } from '@/components/relative-time';
import { FormError } from '@/components/form-error';
import { RichText } from '@/components/rich-text';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { useLoadOnScroll } from '@/hooks/use-load-on-scroll';
import { acceptAnswer } from '../api/accept-answer';
import { voteAnswer, voteQuestion } from '../api/vote-question';
import { ANSWER_ORDER_LABELS, sortAnswers } from '../answer-order';
import { plural } from '../home-query';
import { useLiveQuestion } from '../hooks/use-live-question';
import { CommentSection } from './comment-section';
import { CheckIcon } from './question-icons';
import { TagChips } from './tag-chips';
import { VoteControl } from './vote-control';

/**
 * 'edited {time}' (with the editor's name when not the author), linking to the post's history,
 * and 'Edit question' / 'Edit answer' for whoever may edit (product.md section 9).
 */
function EditLine({
  post,
  author,
  editedAt,
  editedBy,
  editTo,
  historyTo,
  mayEdit,
}: {
  post: 'question' | 'answer';
  author: string;
  editedAt: string | null;
  editedBy: string | null;
  editTo: string;
  historyTo: string;
  mayEdit: boolean;
}) {
  if (editedAt === null && !mayEdit) return null;
  return (
    <p className="post__edited">
      {mayEdit ? <Link to={editTo}>Edit {post}</Link> : null}
      {mayEdit && editedAt !== null ? ' · ' : null}
      {editedAt === null ? null : (
        <Link to={historyTo}>
          <RelativeTime date={editedAt} prefix="edited " />
          {editedBy !== null && editedBy !== author ? ` by ${editedBy}` : ''}
        </Link>
      )}
    </p>
  );
}

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
  accepted,
  mayEdit,
  onAccept,
  onComment,
}: {
  answer: Answer;
  username: string;
  accepted: boolean;
  mayEdit: boolean;
  /** The asker's control; absent for everyone else. */
  onAccept: (() => Promise<string | null>) | null;
  onComment: (comment: Comment) => void;
}) {
  return (
    <li>
      <article
        className={accepted ? 'post post--answer post--accepted' : 'post post--answer'}
        aria-label={`Answer by ${answer.ansBy}`}
      >
        <VoteControl
          upVotes={answer.upVotes}
          downVotes={answer.downVotes}
          username={username}
          label="this answer"
          vote={(direction) => voteAnswer(direction, answer._id, username)}
        />
        <div className="post__body">
          {accepted ? (
            <p className="accepted-mark">
              <CheckIcon className="accepted-mark__icon" /> Accepted answer
            </p>
          ) : null}
          <RichText className="post__text" text={answer.text} />
          {onAccept === null ? null : <AcceptButton accepted={accepted} accept={onAccept} />}
          <Byline verb="answered" user={answer.ansBy} date={answer.ansDateTime} />
          <EditLine
            post="answer"
            author={answer.ansBy}
            editedAt={answer.editedAt}
            editedBy={answer.editedBy}
            editTo={paths.editAnswer(answer._id)}
            historyTo={paths.answerHistory(answer._id)}
            mayEdit={mayEdit}
          />
          <CommentSection
            comments={answer.comments}
            targetId={answer._id}
            type="answer"
            username={username}
            onAdded={onComment}
          />
        </div>
      </article>
    </li>
  );
}

/** The asker's 'Accept this answer' (pressed on the accepted one: 'Unaccept this answer'), busy while it is sent. */
function AcceptButton({ accepted, accept }: { accepted: boolean; accept: () => Promise<string | null> }) {
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function press() {
    if (busy) return;
    setBusy(true);
    setError(null);
    setError(await accept());
    setBusy(false);
  }
  return (
    <div className="accept">
      <button
        type="button"
        className="button accept__button"
        aria-pressed={accepted}
        aria-disabled={busy}
        aria-describedby={error === null ? undefined : errorId}
        onClick={() => void press()}
      >
        <CheckIcon /> {accepted ? 'Unaccept this answer' : 'Accept this answer'}
      </button>
      <FormError id={errorId} message={error} />
    </div>
  );
}

/** 'Score', 'Oldest', 'Newest' above the answers (product.md section 7). */
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

/**
 * The question page (spec section 2): votes, title, views, text, asker and asked time (once), the
 * question's comments, then the answers with theirs. Mount it with a key per question.
 */
export function QuestionView({ initial, username, role }: { initial: Question; username: string; role: Role }) {
  const { question, addLocalComment, setAccepted, moreAnswers, loadMoreAnswers, loadingAnswers, answersError } =
    useLiveQuestion(initial);
  const [order, setOrder] = useState<AnswerOrder>('score');
  // Pages come oldest first: newest first needs every answer before it can sort them. Score (the
  // default) sorts the answers loaded so far; later pages join it as the reader scrolls (README).
  const loadAll = order === 'newest' && moreAnswers && answersError === null;
  useEffect(() => {
    if (loadAll && !loadingAnswers) void loadMoreAnswers();
  }, [loadAll, loadingAnswers, loadMoreAnswers]);
  const sentinel = useLoadOnScroll(moreAnswers && answersError === null, () => void loadMoreAnswers());
  const titleId = useId();
  const answersId = useId();
  const isAsker = question.askedBy === username;
  // The author, or a moderator or admin (product.md section 9); the server checks again.
  const mayEdit = (author: string) => author === username || role !== 'member';

  async function accept(aid: string): Promise<string | null> {
    try {
      setAccepted((await acceptAnswer(question._id, aid)).acceptedAnswer);
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }

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
          <VoteControl
            upVotes={question.upVotes}
            downVotes={question.downVotes}
            username={username}
            vote={(direction) => voteQuestion(direction, question._id, username)}
          />
          <div className="post__body">
            <RichText className="post__text" text={question.text} />
            <TagChips tags={question.tags} className="post__tags" />
            <Byline verb="asked" user={question.askedBy} date={question.askDateTime} />
            <EditLine
              post="question"
              author={question.askedBy}
              editedAt={question.editedAt}
              editedBy={question.editedBy}
              editTo={paths.editQuestion(question._id)}
              historyTo={paths.questionHistory(question._id)}
              mayEdit={mayEdit(question.askedBy)}
            />
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
        {question.answers.length > 1 ? <AnswerOrderControl order={order} choose={setOrder} /> : null}
        {question.answers.length === 0 ? (
          <p className="q-empty q-empty--compact muted">No answers yet. Know the answer? Share it.</p>
        ) : (
          <ol className="answers__list">
            {sortAnswers(question.answers, order, question.acceptedAnswer).map((answer) => (
              <AnswerItem
                key={answer._id}
                answer={answer}
                username={username}
                accepted={answer._id === question.acceptedAnswer}
                mayEdit={mayEdit(answer.ansBy)}
                onAccept={isAsker ? () => accept(answer._id) : null}
                onComment={(comment) => addLocalComment('answer', answer._id, comment)}
              />
            ))}
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
    </>
  );
}
