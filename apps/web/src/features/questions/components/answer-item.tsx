import type { Answer, Comment } from '@porpoise/core';
import { Markdown } from '@/components/markdown/markdown';
import { FlagControl } from '@/components/flag-control';
import { paths } from '@/config/paths';
import { voteAnswer } from '../api/vote-question';
import { AsyncButton } from './async-button';
import { CommentSection } from './comment-section';
import { Byline, PostLine, type ToggleDeleted } from './post-line';
import { DeletedMark } from './post-marks';
import { CheckIcon } from './question-icons';
import { VoteControl } from './vote-control';

/** What the comment lists need to delete and undelete comments. */
export interface CommentModeration {
  mayDelete: (author: string) => boolean;
  toggleDeleted: (id: string, deleted: boolean) => Promise<string | null>;
}

/** One answer: its votes, marks, text, byline, controls and comments. */
export function AnswerItem({
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
          <Markdown className="post__text" text={answer.text} images={answer.images} />
          {onAccept === null || deleted ? null : <AcceptButton accepted={accepted} accept={onAccept} />}
          <Byline verb="answered" user={answer.ansBy} date={answer.ansDateTime} reputation={answer.ansByReputation} />
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
