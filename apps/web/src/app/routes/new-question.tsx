import { ComingSoonPage } from '@/components/coming-soon-page';

export function NewQuestionRoute() {
  return <ComingSoonPage title="Ask a Question" />;
}
