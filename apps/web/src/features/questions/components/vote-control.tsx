import { useState } from 'react';
import type { VoteDirection } from '@porpoise/core';
import { VoteArrow } from './question-icons';

/**
 * Upvote, the score (up minus down) and downvote, for a question or an answer. The buttons
 * only send the request; the score and the pressed state change when the vote's event
 * arrives (spec section 4). The user's vote shows as a filled arrow and a line of text, not
 * colour alone. Each vote toggles (docs/product.md section 7), so while one is on its way both
 * buttons are busy: a second press would be taken as a second toggle. They stay focusable
 * (aria-disabled). `label` names what is voted on ('' for the question, the page's subject).
 * A deleted post takes no votes: `disabled` shows its score with the buttons off.
 */
export function VoteControl({
  upVotes,
  downVotes,
  username,
  vote,
  label = '',
  disabled = false,
}: {
  upVotes: string[];
  downVotes: string[];
  username: string;
  /** Sends the vote; never rejects (a failure is logged and the buttons are free again). */
  vote: (direction: VoteDirection) => Promise<void>;
  label?: string;
  disabled?: boolean;
}) {
  const up = upVotes.includes(username);
  const down = !up && downVotes.includes(username);
  const count = upVotes.length - downVotes.length;
  const [busy, setBusy] = useState(false);
  const send = (direction: VoteDirection) => {
    if (busy) return;
    setBusy(true);
    void vote(direction).finally(() => setBusy(false));
  };
  const on = label === '' ? '' : ` ${label}`;

  return (
    <div className="vote" role="group" aria-label={`Votes${on}`} aria-busy={busy}>
      <button
        type="button"
        className="vote__button"
        aria-pressed={up}
        aria-disabled={busy}
        disabled={disabled}
        aria-label={`Upvote${on}`}
        title={`Upvote${on}`}
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
        disabled={disabled}
        aria-label={`Downvote${on}`}
        title={`Downvote${on}`}
        onClick={() => send('down')}
      >
        <VoteArrow direction="down" filled={down} />
      </button>
      {up || down ? <p className="vote__mine">{up ? 'You upvoted' : 'You downvoted'}</p> : null}
    </div>
  );
}
