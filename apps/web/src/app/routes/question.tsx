import { redirect, type LoaderFunctionArgs } from 'react-router';
import { ComingSoonPage } from '@/components/coming-soon-page';
import { paths } from '@/config/paths';

/** A question address without an id goes to the list (spec section 2). */
export function questionLoader({ params }: LoaderFunctionArgs) {
  if (params.qid === undefined || params.qid === '') return redirect(paths.home());
  return null;
}

export function QuestionRoute() {
  return <ComingSoonPage title="Question" />;
}
