import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { deferred } from '@/lib/deferred';
import { getNotifications } from '@/features/notifications/api/get-notifications';
import { NotificationInbox } from '@/features/notifications/components/notification-inbox';

/** The first page of the inbox, shown when it arrives (the heading does not wait). */
export function notificationsLoader({ request }: LoaderFunctionArgs) {
  return { notifications: deferred(getNotifications(null, request.signal)) };
}

/** The member's notifications (docs/product.md section 11). */
export function NotificationsRoute() {
  const { notifications } = useLoaderData<typeof notificationsLoader>();
  return (
    <>
      <DocumentTitle title="Notifications" />
      <div className="page-header">
        <h1 className="page-title">Notifications</h1>
      </div>
      <NotificationInbox notifications={notifications} />
    </>
  );
}
