import { Link, useNavigate } from 'react-router';
import { Logo } from '@/components/logo';
import { ProfileIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { NotificationBell } from '@/features/notifications/components/notification-bell';

/**
 * The signed-in header: the logo, the notification bell (docs/product.md section 11), and the
 * user's name opening their profile (spec section 2).
 */
export function AppHeader({ username }: { username: string }) {
  const navigate = useNavigate();
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to={paths.home()} className="app-header__brand">
          <Logo />
        </Link>
        <div className="app-header__actions">
          <NotificationBell />
          <button
            type="button"
            className="app-header__user"
            aria-label={`Go to ${username}'s profile`}
            onClick={() => void navigate(paths.profile())}
          >
            <ProfileIcon className="app-header__avatar" width="24" height="24" />
            <span className="app-header__username">{username}</span>
          </button>
        </div>
      </div>
    </header>
  );
}
