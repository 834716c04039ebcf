import { ComingSoonPage } from '@/components/coming-soon-page';

export function NewForumRoute() {
  return <ComingSoonPage title="Start a Forum" />;
}
