import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { MissingPage } from '@/components/missing-page';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getQuestion } from '@/features/questions/api/get-question';
import { getAnswer } from '@/features/questions/api/edit-post';
import { AnswerForm } from '@/features/questions/components/answer-form';
import { AskQuestionForm, type QuestionDraft } from '@/features/questions/components/ask-question-form';

/** A missing post (or a malformed id) is null: the screen says so. */
async function orNull<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** The question as it stands, to fill the ask form. */
export async function editQuestionLoader({ params, request }: LoaderFunctionArgs): Promise<QuestionDraft | null> {
  const question = await orNull(getQuestion(params.qid ?? '', request.signal));
  return question === null
    ? null
    : {
        qid: question._id,
        title: question.title,
        text: question.text,
        tagNames: question.tags.map((tag) => tag.name),
        images: question.images ?? [],
      };
}

/** /edit/question/:qid: the ask form, filled, with a reason (docs/product.md section 9). The server decides who may save. */
export function EditQuestionRoute() {
  const draft = useLoaderData<typeof editQuestionLoader>();
  const account = useAccount();
  if (draft === null) return <MissingPage what="Question" />;
  return (
    <div className="q-narrow">
      <DocumentTitle title="Edit Question" />
      <h1 className="q-page-title">Edit Question</h1>
      <p className="q-back">
        <Link to={paths.question(draft.qid)}>← Back to the question</Link>
      </p>
      <div className="q-panel">
        <AskQuestionForm key={draft.qid} username={account.username} editing={draft} />
      </div>
    </div>
  );
}

export async function editAnswerLoader({ params, request }: LoaderFunctionArgs) {
  return orNull(getAnswer(params.aid ?? '', request.signal));
}

/** /edit/answer/:aid: the answer form, filled, with a reason. */
export function EditAnswerRoute() {
  const answer = useLoaderData<typeof editAnswerLoader>();
  const account = useAccount();
  if (answer === null) return <MissingPage what="Answer" />;
  return (
    <div className="q-narrow">
      <DocumentTitle title="Edit Answer" />
      <h1 className="q-page-title">Edit Answer</h1>
      <p className="q-back">
        <Link to={paths.question(answer.qid)}>← Back to {answer.questionTitle}</Link>
      </p>
      <div className="q-panel">
        <AnswerForm
          key={answer._id}
          qid={answer.qid}
          username={account.username}
          editing={{ aid: answer._id, text: answer.text, images: answer.images ?? [] }}
        />
      </div>
    </div>
  );
}
