import { ComingSoonPage } from '@/components/coming-soon-page';

export function TagsRoute() {
  return <ComingSoonPage title="All Tags" />;
}
