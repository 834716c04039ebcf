import { useState } from 'react';
import type { Question } from '@porpoise/core';
import type { VoteDirection } from '@porpoise/core';
import { voteQuestion } from '../api/vote-question';
import { VoteArrow } from './question-icons';

/**
 * Upvote, the count (up minus down) and downvote. The buttons only send the request;
 * the lists, and so the count and the pressed state, change when voteUpdate arrives
 * (spec section 4). The user's vote shows as a filled arrow and a line of text, not colour alone.
 * Each vote toggles (product.md section 7), so while one is on its way both buttons are
 * busy: a second press would be taken as a second toggle. They stay focusable (aria-disabled).
 */
export function VoteControl({ question, username }: { question: Question; username: string }) {
  const up = question.upVotes.includes(username);
  const down = !up && question.downVotes.includes(username);
  const count = question.upVotes.length - question.downVotes.length;
  const [busy, setBusy] = useState(false);
  const send = (direction: VoteDirection) => {
    if (busy) return;
    setBusy(true);
    // voteQuestion never rejects: a failure is logged and the buttons are free again.
    void voteQuestion(direction, question._id, username).finally(() => setBusy(false));
  };

  return (
    <div className="vote" role="group" aria-label="Votes" aria-busy={busy}>
      <button
        type="button"
        className="vote__button"
        aria-pressed={up}
        aria-disabled={busy}
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
        aria-disabled={busy}
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
