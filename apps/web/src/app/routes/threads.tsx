import { ComingSoonPage } from '@/components/coming-soon-page';

export function ThreadsRoute() {
  return <ComingSoonPage title="Threads" />;
}
