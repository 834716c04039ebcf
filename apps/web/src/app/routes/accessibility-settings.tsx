import { ComingSoonPage } from '@/components/coming-soon-page';

export function AccessibilitySettingsRoute() {
  return <ComingSoonPage title="Accessibility Settings" />;
}
