import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { QuestionSummary } from '@porpoise/core';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { useRemoteData, type RemoteData } from '@/hooks/use-remote-data';
import { getUserAnswers, getUserQuestions, type UserAnswer } from '../api/get-user-posts';

function PostList<T>({
  title,
  data,
  failure,
  empty,
  render,
}: {
  title: string;
  data: RemoteData<T[]>;
  failure: string;
  empty: string;
  render: (item: T) => { key: string; node: ReactNode };
}) {
  let body: ReactNode;
  if (data.status === 'loading') {
    body = (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  } else if (data.status === 'error') {
    body = <p className="inline-error">{userFacingError(data.error, failure)}</p>;
  } else if (data.data.length === 0) {
    body = <p className="muted">{empty}</p>;
  } else {
    body = (
      <ul className="post-list">
        {data.data.map((item) => {
          const { key, node } = render(item);
          return <li key={key}>{node}</li>;
        })}
      </ul>
    );
  }
  return (
    <section className="card profile-section" aria-label={title}>
      <h2 className="profile-section__title">{title}</h2>
      {body}
    </section>
  );
}

/** A user's questions (titles) and answers (texts), each opening its question (spec: /profile). */
export function UserPosts({ username }: { username: string }) {
  const [questions] = useRemoteData(`questions:${username}`, (signal) => getUserQuestions(username, signal));
  const [answers] = useRemoteData(`answers:${username}`, (signal) => getUserAnswers(username, signal));
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
                {answer.text}
              </Link>
              <span className="post-list__meta">on {answer.questionTitle}</span>
            </>
          ),
        })}
      />
    </div>
  );
}
