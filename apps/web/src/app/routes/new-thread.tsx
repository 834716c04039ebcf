import { ComingSoonPage } from '@/components/coming-soon-page';

export function NewThreadRoute() {
  return <ComingSoonPage title="Start a Thread" />;
}
