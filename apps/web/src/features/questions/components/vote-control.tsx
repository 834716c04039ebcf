import type { Question } from '@porpoise/core';
import { voteQuestion, type VoteDirection } from '../api/vote-question';
import { VoteArrow } from './question-icons';

/**
 * Upvote, the count (up minus down) and downvote. The buttons only send the request;
 * the lists, and so the count and the pressed state, change when voteUpdate arrives
 * (spec section 4). The user's vote shows as a filled arrow and a line of text, not colour alone.
 */
export function VoteControl({ question, username }: { question: Question; username: string }) {
  const up = question.upVotes.includes(username);
  const down = !up && question.downVotes.includes(username);
  const count = question.upVotes.length - question.downVotes.length;
  const send = (direction: VoteDirection) => void voteQuestion(direction, question._id, username);

  return (
    <div className="vote" role="group" aria-label="Votes">
      <button
        type="button"
        className="vote__button"
        aria-pressed={up}
        aria-label="Upvote"
        title="Upvote"
        onClick={() => send('up')}
      >
        <VoteArrow direction="up" filled={up} />
      </button>
      <p className="vote__count" aria-live="polite">
        <span className="vote__number">{count}</span>
        <span className="visually-hidden">{count === 1 || count === -1 ? ' vote' : ' votes'}</span>
      </p>
      <button
        type="button"
        className="vote__button"
        aria-pressed={down}
        aria-label="Downvote"
        title="Downvote"
        onClick={() => send('down')}
      >
        <VoteArrow direction="down" filled={down} />
      </button>
      {up || down ? <p className="vote__mine">{up ? 'You upvoted' : 'You downvoted'}</p> : null}
    </div>
  );
}
