import { useEffect, useState } from 'react';
import { MESSAGES } from '@porpoise/core';
import { CheckIcon, PlusIcon } from '@/components/icons';
import { userFacingError } from '@/lib/api-client';
import { followsQuestion, toggleQuestionFollow } from '../api/follow';
import { AsyncButton } from './async-button';

/**
 * 'Follow' / 'Following' on the question page (docs/product.md section 11): a toggle
 * (aria-pressed) for hearing of every new answer. Shown once the server has said which it is.
 */
export function FollowQuestionButton({ qid }: { qid: string }) {
  const [following, setFollowing] = useState<boolean | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    followsQuestion(qid, controller.signal).then(setFollowing, () => {
      // Unknown: no button rather than a wrong one.
    });
    return () => controller.abort();
  }, [qid]);

  // Until the state is known (or if it cannot be), an unseen button of the same size keeps the
  // place, so the question's facts beside it do not move when it appears (issue 39).
  if (following === null) {
    return (
      <div className="question__follow follow-button--unknown" aria-hidden="true">
        <span className="button follow-button">
          <PlusIcon width="18" height="18" />
          Follow
        </span>
      </div>
    );
  }

  async function toggle(): Promise<string | null> {
    try {
      setFollowing(await toggleQuestionFollow(qid));
      return null;
    } catch (error) {
      return userFacingError(error, MESSAGES.unavailable);
    }
  }

  return (
    <AsyncButton run={toggle} pressed={following} className="button follow-button" wrapperClassName="question__follow">
      {following ? <CheckIcon width="18" height="18" /> : <PlusIcon width="18" height="18" />}
      {following ? 'Following' : 'Follow'}
    </AsyncButton>
  );
}
