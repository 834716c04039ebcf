import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A mailed link's token (`?token=...`), kept in the page's state and taken out of the
 * address bar and the history entry at once: it opens the account, so it should not stay
 * where a glance, a shared screen or the history can pick it up.
 */
export function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  useEffect(() => {
    if (!new URLSearchParams(location.search).has('token')) return;
    void navigate(location.pathname, { replace: true });
  }, [location, navigate]);
  return token;
}
