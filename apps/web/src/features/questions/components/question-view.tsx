import { useId, useState } from 'react';
import { MESSAGES, type PostKind, type Question } from '@porpoise/core';
import { MissingPage } from '@/components/missing-page';
import { Markdown } from '@/components/markdown/markdown';
import { FlagControl } from '@/components/flag-control';
import { paths } from '@/config/paths';
import { usePrivileges } from '@/hooks/use-privileges';
import { userFacingError } from '@/lib/api-client';
import { acceptAnswer } from '../api/accept-answer';
import { reopenQuestion, reopenVote, setPostDeleted } from '../api/moderate-post';
import { voteQuestion } from '../api/vote-question';
import { plural } from '../home-query';
import { useLiveQuestion } from '../hooks/use-live-question';
import { AnswerItem, type CommentModeration } from './answer-item';
import { AnswerSection } from './answer-section';
import { AsyncButton } from './async-button';
import { CloseQuestionForm } from './close-question-form';
import { CommentSection } from './comment-section';
import { FollowQuestionButton } from './follow-question-button';
import { Byline, PostLine } from './post-line';
import { ClosedBanner, DeletedMark } from './post-marks';
import { TagChips } from './tag-chips';
import { VoteControl } from './vote-control';

/**
 * The question page (spec section 2): votes, title, views, text, asker and asked time (once), the
 * question's comments, then the answers with theirs. Mount it with a key per question.
 */
export function QuestionView({
  initial,
  username,
  moderates,
}: {
  initial: Question;
  username: string;
  /** A moderator or admin (lib/roles.ts). */
  moderates: boolean;
}) {
  // The author, or a moderator or admin (docs/product.md section 9); the server checks again.
  const mayEdit = (author: string) => author === username || moderates;
  // Privileges earned by reputation (section 13): editing others' posts, close and reopen votes.
  const privileges = usePrivileges();
  const mayEditPost = (author: string) => mayEdit(author) || privileges.has('editAny');
  const votesToClose = !moderates && privileges.has('closeVote');
  const { question, addLocalComment, setAccepted, setDeleted, setClosed, ...answerPages } = useLiveQuestion(
    initial,
    mayEdit,
    username,
  );
  const [closing, setClosing] = useState(false);
  const titleId = useId();
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
  async function voteToReopen(): Promise<string | null> {
    try {
      const result = await reopenVote(question._id);
      setClosed(result.closed, result.closeVotes);
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
          <div className="question__meta">
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
            {questionDeleted ? null : <FollowQuestionButton qid={question._id} />}
          </div>
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
            <Markdown className="post__text" text={question.text} images={question.images} />
            <TagChips tags={question.tags} className="post__tags" />
            <Byline
              verb="asked"
              user={question.askedBy}
              date={question.askDateTime}
              reputation={question.askedByReputation}
            />
            <PostLine
              post="question"
              author={question.askedBy}
              editedAt={question.editedAt}
              editedBy={question.editedBy}
              editTo={paths.editQuestion(question._id)}
              historyTo={paths.questionHistory(question._id)}
              mayEdit={mayEditPost(question.askedBy)}
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
            {!questionDeleted && question.closed === null && question.closeVotes > 0 ? (
              <p className="post__close-votes">Close votes: {question.closeVotes}</p>
            ) : null}
            {(moderates || votesToClose) && !questionDeleted && question.closed === null ? (
              closing ? (
                <CloseQuestionForm
                  qid={question._id}
                  vote={!moderates}
                  onClosed={(closed, closeVotes) => {
                    setClosed(closed, closeVotes);
                    setClosing(false);
                  }}
                  onCancel={() => setClosing(false)}
                />
              ) : (
                <button type="button" className="link-button post__close" onClick={() => setClosing(true)}>
                  {moderates ? 'Close question' : 'Vote to close'}
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
        <ClosedBanner
          closed={question.closed}
          id={closedId}
          reopen={moderates ? reopen : null}
          reopenVotes={question.closeVotes}
          voteToReopen={votesToClose && !questionDeleted ? voteToReopen : null}
        />
      )}
      <AnswerSection
        question={question}
        closedId={closedId}
        pages={answerPages}
        renderAnswer={(answer) => (
          <AnswerItem
            key={answer._id}
            answer={answer}
            username={username}
            accepted={answer._id === question.acceptedAnswer}
            mayEdit={mayEditPost(answer.ansBy)}
            onAccept={isAsker && !questionDeleted ? () => accept(answer._id) : null}
            onComment={(comment) => addLocalComment('answer', answer._id, comment)}
            toggleDeleted={
              mayEdit(answer.ansBy) && !questionDeleted && (answer.held === undefined || moderates)
                ? toggleDeleted('answer', answer._id, answer.deleted !== true)
                : null
            }
            comments={comments}
          />
        )}
      />
    </>
  );
}
