import { ComingSoonPage } from '@/components/coming-soon-page';

export function NewAnswerRoute() {
  return <ComingSoonPage title="Answer the Question" />;
}
