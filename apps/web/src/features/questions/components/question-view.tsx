import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ANSWER_ORDERS,
  MESSAGES,
  type Answer,
  type AnswerOrder,
  type Closed,
  type Comment,
  type HeldFor,
  type PostKind,
  type Question,
  type Role,
} from '@porpoise/core';
import { MissingPage } from '@/components/missing-page';
import { RelativeTime } from '@/components/relative-time';
import { FormError } from '@/components/form-error';
import { Markdown } from '@/components/markdown/markdown';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { useLoadOnScroll } from '@/hooks/use-load-on-scroll';
import { acceptAnswer } from '../api/accept-answer';
import { reopenQuestion, setPostDeleted } from '../api/moderate-post';
import { AsyncButton } from './async-button';
import { CLOSE_REASON_LABELS, CloseQuestionForm } from './close-question-form';
import { voteAnswer, voteQuestion } from '../api/vote-question';
import { ANSWER_ORDER_LABELS, sortAnswers } from '../answer-order';
import { plural } from '../home-query';
import { useLiveQuestion } from '../hooks/use-live-question';
import { CommentSection } from './comment-section';
import { CheckIcon } from './question-icons';
import { TagChips } from './tag-chips';
import { VoteControl } from './vote-control';
import { FlagControl } from '@/components/flag-control';

/** Deletes or undeletes a post: resolves with the server's refusal, or null. */
type ToggleDeleted = () => Promise<string | null>;

/**
 * 'edited {time}' (with the editor's name when not the author), linking to the post's history,
 * 'Edit question' / 'Edit answer' for whoever may edit, and 'Delete' (on a deleted post:
 * 'Undelete') for whoever may delete (docs/product.md section 9). A deleted post is not edited.
 */
function PostLine({
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

/**
 * A deleted post's mark (words, not colour alone): only its author and moderators see one.
 * A post held from view says why (docs/product.md section 10): three flags, or (a new account's
 * post) the moderator it waits for, as 'Your post is waiting for a moderator' to its author.
 */
function DeletedMark({ post, held, own }: { post: PostKind; held: HeldFor | undefined; own: boolean }) {
  if (held === 'approval') {
    return (
      <p className="deleted-mark" role="status">
        <strong>{own ? `${MESSAGES.waitingForModerator}.` : 'Waiting for approval.'}</strong> Only its author and
        moderators see this {post} until a moderator approves it.
      </p>
    );
  }
  if (held === 'flags') {
    return (
      <p className="deleted-mark">
        <strong>Hidden by flags.</strong> Only its author and moderators see this {post} until a moderator reviews it.
      </p>
    );
  }
  return (
    <p className="deleted-mark">
      <strong>Deleted.</strong> Only its author and moderators see this {post}.
    </p>
  );
}

/** Why the question is closed (with the original of a duplicate), by whom and when. */
function ClosedBanner({
  closed,
  id,
  reopen,
}: {
  closed: Closed;
  id: string;
  reopen: (() => Promise<string | null>) | null;
}) {
  return (
    <div className="closed-banner" id={id} role="note" aria-label="Closed">
      <p className="closed-banner__reason">
        <strong>Closed</strong>
        {closed.reason === 'duplicate' ? (
          closed.duplicateOf === null ? (
            ' as a duplicate.'
          ) : (
            <>
              {' as a duplicate of '}
              <Link to={paths.question(closed.duplicateOf._id)}>{closed.duplicateOf.title}</Link>.
            </>
          )
        ) : (
          `: ${CLOSE_REASON_LABELS[closed.reason].toLowerCase()}.`
        )}{' '}
        It takes no new answers.
      </p>
      <p className="closed-banner__by muted">
        Closed by {closed.closedBy} <RelativeTime date={closed.closedAt} />
      </p>
      {reopen === null ? null : <AsyncButton run={reopen}>Reopen</AsyncButton>}
    </div>
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
  toggleDeleted,
  comments,
}: {
  answer: Answer;
  username: string;
  accepted: boolean;
  mayEdit: boolean;
  /** The asker's control; absent for everyone else. */
  onAccept: (() => Promise<string | null>) | null;
  onComment: (comment: Comment) => void;
  toggleDeleted: ToggleDeleted | null;
  comments: CommentModeration;
}) {
  const deleted = answer.deleted === true;
  const className = ['post', 'post--answer', accepted ? 'post--accepted' : '', deleted ? 'post--deleted' : '']
    .filter((name) => name !== '')
    .join(' ');
  return (
    <li>
      <article className={className} aria-label={`${deleted ? 'Deleted answer' : 'Answer'} by ${answer.ansBy}`}>
        <VoteControl
          upVotes={answer.upVotes}
          downVotes={answer.downVotes}
          username={username}
          label="this answer"
          vote={(direction) => voteAnswer(direction, answer._id, username)}
          disabled={deleted}
        />
        <div className="post__body">
          {deleted ? <DeletedMark post="answer" held={answer.held} own={answer.ansBy === username} /> : null}
          {accepted ? (
            <p className="accepted-mark">
              <CheckIcon className="accepted-mark__icon" /> Accepted answer
            </p>
          ) : null}
          <Markdown className="post__text" text={answer.text} />
          {onAccept === null || deleted ? null : <AcceptButton accepted={accepted} accept={onAccept} />}
          <Byline verb="answered" user={answer.ansBy} date={answer.ansDateTime} />
          <PostLine
            post="answer"
            author={answer.ansBy}
            editedAt={answer.editedAt}
            editedBy={answer.editedBy}
            editTo={paths.editAnswer(answer._id)}
            historyTo={paths.answerHistory(answer._id)}
            mayEdit={mayEdit}
            deleted={deleted}
            toggleDeleted={toggleDeleted}
            flag={
              deleted || answer.ansBy === username ? null : (
                <FlagControl targetType="answer" targetId={answer._id} what={`the answer by ${answer.ansBy}`} />
              )
            }
          />
          <CommentSection
            comments={answer.comments}
            targetId={answer._id}
            type="answer"
            username={username}
            onAdded={onComment}
            closedToNew={deleted}
            {...comments}
          />
        </div>
      </article>
    </li>
  );
}

/** The asker's 'Accept this answer' (pressed on the accepted one: 'Unaccept this answer'), busy while it is sent. */
function AcceptButton({ accepted, accept }: { accepted: boolean; accept: () => Promise<string | null> }) {
  return (
    <AsyncButton run={accept} pressed={accepted} className="button accept__button" wrapperClassName="accept">
      <CheckIcon /> {accepted ? 'Unaccept this answer' : 'Accept this answer'}
    </AsyncButton>
  );
}

/** What the comment lists need to delete and undelete comments. */
interface CommentModeration {
  mayDelete: (author: string) => boolean;
  toggleDeleted: (id: string, deleted: boolean) => Promise<string | null>;
}

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

/**
 * The question page (spec section 2): votes, title, views, text, asker and asked time (once), the
 * question's comments, then the answers with theirs. Mount it with a key per question.
 */
export function QuestionView({ initial, username, role }: { initial: Question; username: string; role: Role }) {
  // The author, or a moderator or admin (docs/product.md section 9); the server checks again.
  const moderates = role !== 'member';
  const mayEdit = (author: string) => author === username || moderates;
  const {
    question,
    addLocalComment,
    setAccepted,
    setDeleted,
    setClosed,
    moreAnswers,
    loadMoreAnswers,
    loadingAnswers,
    answersError,
  } = useLiveQuestion(initial, mayEdit);
  const [closing, setClosing] = useState(false);
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
  const closedId = useId();
  const isAsker = question.askedBy === username;
  const questionDeleted = question.deleted === true;

  /** Deletes or undeletes a post, shown at once; resolves with the server's refusal, or null. */
  const toggleDeleted = (post: PostKind, id: string, deleted: boolean) => async (): Promise<string | null> => {
    try {
      const result = await setPostDeleted(post, id, deleted);
      setDeleted(post, id, result.deleted);
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  };
  const comments: CommentModeration = {
    mayDelete: mayEdit,
    toggleDeleted: (id, deleted) => toggleDeleted('comment', id, deleted)(),
  };
  async function reopen(): Promise<string | null> {
    try {
      setClosed((await reopenQuestion(question._id)).closed);
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }

  // Deleted while open here, for a reader who may not see deleted posts.
  if (questionDeleted && !mayEdit(question.askedBy)) {
    return <MissingPage what="Question" />;
  }
  // Its author deletes a question while it has no answers; moderators any time.
  const mayDeleteQuestion = moderates || (isAsker && (questionDeleted || question.answerCount === 0));

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
      {questionDeleted ? (
        <div className="deleted-banner" role="note">
          <DeletedMark post="question" held={question.held} own={isAsker} />
          {/* A held question is the moderators' to decide on. */}
          {question.held === undefined || moderates ? (
            <AsyncButton run={toggleDeleted('question', question._id, false)}>Undelete</AsyncButton>
          ) : null}
        </div>
      ) : null}
      <article className={questionDeleted ? 'question post--deleted' : 'question'} aria-labelledby={titleId}>
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
            disabled={questionDeleted}
          />
          <div className="post__body">
            <Markdown className="post__text" text={question.text} />
            <TagChips tags={question.tags} className="post__tags" />
            <Byline verb="asked" user={question.askedBy} date={question.askDateTime} />
            <PostLine
              post="question"
              author={question.askedBy}
              editedAt={question.editedAt}
              editedBy={question.editedBy}
              editTo={paths.editQuestion(question._id)}
              historyTo={paths.questionHistory(question._id)}
              mayEdit={mayEdit(question.askedBy)}
              deleted={questionDeleted}
              toggleDeleted={
                mayDeleteQuestion && !questionDeleted ? toggleDeleted('question', question._id, true) : null
              }
              flag={
                questionDeleted || isAsker ? null : (
                  <FlagControl targetType="question" targetId={question._id} what="this question" />
                )
              }
            />
            {moderates && !questionDeleted && question.closed === null ? (
              closing ? (
                <CloseQuestionForm
                  qid={question._id}
                  onClosed={(closed) => {
                    setClosed(closed);
                    setClosing(false);
                  }}
                  onCancel={() => setClosing(false)}
                />
              ) : (
                <button type="button" className="link-button post__close" onClick={() => setClosing(true)}>
                  Close question
                </button>
              )
            ) : null}
            <CommentSection
              comments={question.comments}
              targetId={question._id}
              type="question"
              username={username}
              onAdded={(comment) => addLocalComment('question', question._id, comment)}
              closedToNew={questionDeleted}
              {...comments}
            />
          </div>
        </div>
      </article>
      {question.closed === null ? null : (
        <ClosedBanner closed={question.closed} id={closedId} reopen={moderates ? reopen : null} />
      )}
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
            {sortAnswers(question.answers, order, question.acceptedAnswer).map((answer) => (
              <AnswerItem
                key={answer._id}
                answer={answer}
                username={username}
                accepted={answer._id === question.acceptedAnswer}
                mayEdit={mayEdit(answer.ansBy)}
                onAccept={isAsker && !questionDeleted ? () => accept(answer._id) : null}
                onComment={(comment) => addLocalComment('answer', answer._id, comment)}
                toggleDeleted={
                  mayEdit(answer.ansBy) && !questionDeleted && (answer.held === undefined || moderates)
                    ? toggleDeleted('answer', answer._id, answer.deleted !== true)
                    : null
                }
                comments={comments}
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
