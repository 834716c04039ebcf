import { useCallback } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { useSocket } from '@/lib/socket';
import { paths } from '@/config/paths';
import { clearStoredUser, storeUser } from '../stored-user';

/**
 * What has to happen in the browser once the server has signed someone in or out:
 * the stored user entry, a socket authenticated by the new cookie, fresh loader data
 * (the account, and with it the theme) and the next screen.
 */
export function useSessionChange() {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const socket = useSocket();

  const signedIn = useCallback(
    async (username: string, next: string) => {
      storeUser({ username });
      socket.reconnect();
      await revalidate();
      await navigate(next, { replace: true });
    },
    [navigate, revalidate, socket],
  );

  const signedOut = useCallback(async () => {
    clearStoredUser();
    socket.reconnect();
    // Leave the signed-in screens first: revalidating there would bounce through their guard.
    await navigate(paths.landing());
    await revalidate();
  }, [navigate, revalidate, socket]);

  return { signedIn, signedOut };
}
