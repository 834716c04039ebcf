import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { QuestionSummary } from '@porpoise/core';
import { markdownPlainText } from '@porpoise/core/markdown';
import { paths } from '@/config/paths';
import { Deferred, LoadingText } from '@/components/deferred';
import { userFacingError } from '@/lib/api-client';
import type { UserAnswer } from '../api/get-user-posts';
import type { ProfileData } from '../api/profile-data';

function PostList<T>({
  title,
  data,
  failure,
  empty,
  render,
}: {
  title: string;
  data: Promise<T[]>;
  failure: string;
  empty: string;
  render: (item: T) => { key: string; node: ReactNode };
}) {
  return (
    <section className="card profile-section" aria-label={title}>
      <h2 className="profile-section__title">{title}</h2>
      <Deferred
        data={data}
        loading={<LoadingText>Loading…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, failure)}</p>}
      >
        {(items) =>
          items.length === 0 ? (
            <p className="muted">{empty}</p>
          ) : (
            <ul className="post-list">
              {items.map((item) => {
                const { key, node } = render(item);
                return <li key={key}>{node}</li>;
              })}
            </ul>
          )
        }
      </Deferred>
    </section>
  );
}

/** A user's questions (titles) and answers (texts), each opening its question (spec: /profile). */
export function UserPosts({ questions, answers }: Pick<ProfileData, 'questions' | 'answers'>) {
  return (
    <div className="profile-posts">
      <PostList<QuestionSummary>
        title="Questions"
        data={questions}
        failure="Failed to fetch questions"
        empty="No questions found."
        render={(question) => ({
          key: question._id,
          node: (
            <Link className="post-list__link" to={paths.question(question._id)}>
              {question.title}
            </Link>
          ),
        })}
      />
      <PostList<UserAnswer>
        title="Answers"
        data={answers}
        failure="Failed to fetch answers"
        empty="No answers found."
        render={(answer) => ({
          key: answer._id,
          node: (
            <>
              <Link className="post-list__link post-list__link--clamped" to={paths.question(answer.qid)}>
                {markdownPlainText(answer.text)}
              </Link>
              <span className="post-list__meta">on {answer.questionTitle}</span>
            </>
          ),
        })}
      />
    </div>
  );
}
