import { ComingSoonPage } from '@/components/coming-soon-page';

export function HomeRoute() {
  return <ComingSoonPage title="All Questions" />;
}
