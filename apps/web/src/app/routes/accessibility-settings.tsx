import { DocumentTitle } from '@/components/document-title';
import { AccessibilitySettingsForm } from '@/features/accessibility/components/accessibility-settings-form';
import { useOptionalAccount } from '@/features/auth/hooks/use-account';

/** Accessibility preferences, shown after sign-up and reachable later (spec: /accessibility-settings). */
export function AccessibilitySettingsRoute() {
  const account = useOptionalAccount();
  return (
    <>
      <DocumentTitle title="Accessibility Settings" />
      <h1 className="page-title">Accessibility Settings</h1>
      <p className="page-lead muted">Choose how Porpoise looks for you. You can change this later.</p>
      <AccessibilitySettingsForm account={account} />
    </>
  );
}
