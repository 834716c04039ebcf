import { formatMemberSince, type ProfileDetail } from '@porpoise/core';

/** When the member joined and how many of their questions and answers show (docs/product.md section 5). */
export function ProfileFacts({ profile }: { profile: ProfileDetail }) {
  return (
    <>
      <p className="profile-card__since">{formatMemberSince(profile.createdAt)}</p>
      <dl className="details profile-card__counts">
        <div>
          <dt>Questions</dt>
          <dd>{profile.questionCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Answers</dt>
          <dd>{profile.answerCount.toLocaleString('en-US')}</dd>
        </div>
      </dl>
    </>
  );
}
