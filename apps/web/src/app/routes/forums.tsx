import { ComingSoonPage } from '@/components/coming-soon-page';

export function ForumsRoute() {
  return <ComingSoonPage title="Forums" />;
}
