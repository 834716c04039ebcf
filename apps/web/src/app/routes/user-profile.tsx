import { useParams } from 'react-router';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Another user's profile (spec: /profile/:username). */
export function UserProfileRoute() {
  const { username = '' } = useParams();
  return <ComingSoonPage title={`${username}'s Profile`} />;
}
