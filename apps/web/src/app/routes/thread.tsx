import { ComingSoonPage } from '@/components/coming-soon-page';

export function ThreadRoute() {
  return <ComingSoonPage title="Thread" />;
}
