import type { ComponentType, SVGProps } from 'react';
import { Link, useLocation, useMatches } from 'react-router';
import { ChatIcon, FlagIcon, ForumsIcon, QuestionsIcon, TagsIcon, ThreadsIcon, UsersIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { administers, moderates } from '@/lib/roles';
import { useAccount } from '@/features/auth/hooks/use-account';

export type NavSection = 'questions' | 'tags' | 'threads' | 'forums' | 'porpchat' | 'moderation' | 'admin';

/**
 * A route's `handle` may name the section its page belongs to from its loader's data,
 * where the path alone cannot tell (a forum's discussion lives under /threads/:tid).
 */
export interface NavHandle {
  navSection: (data: unknown) => NavSection;
}

interface NavItem {
  id: NavSection;
  label: string;
  to: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Paths (and everything below them) that belong to this section. */
  section: string[];
}

const NAV_ITEMS: NavItem[] = [
  {
    id: 'questions',
    label: 'Questions',
    to: paths.home(),
    Icon: QuestionsIcon,
    section: ['/home', '/question', '/new/question', '/new/answer', '/edit', '/history'],
  },
  { id: 'tags', label: 'Tags', to: paths.tags(), Icon: TagsIcon, section: ['/tags'] },
  { id: 'threads', label: 'Threads', to: paths.threads(), Icon: ThreadsIcon, section: ['/threads', '/new/thread'] },
  { id: 'forums', label: 'Forums', to: paths.forums(), Icon: ForumsIcon, section: ['/forums', '/new/forum'] },
  // A member's way back to PorpChat (docs/product.md section 5): its entry on /, where a name is chosen.
  { id: 'porpchat', label: 'PorpChat', to: paths.landing(), Icon: ChatIcon, section: ['/porpchat'] },
];

/** Admins' own section (docs/product.md section 10): shown to them only; the server decides who may use it. */
const ADMIN_ITEM: NavItem = {
  id: 'admin',
  label: 'Users',
  to: paths.adminUsers(),
  Icon: UsersIcon,
  section: ['/admin'],
};

/** Moderators' and admins' section: the review queue and the log (docs/product.md section 10). */
const MODERATION_ITEM: NavItem = {
  id: 'moderation',
  label: 'Moderation',
  to: paths.moderation(),
  Icon: FlagIcon,
  section: ['/moderation'],
};

const inSection = (pathname: string, section: string[]) =>
  section.some((path) => pathname === path || pathname.startsWith(`${path}/`));

const isNavHandle = (handle: unknown): handle is NavHandle =>
  typeof handle === 'object' && handle !== null && 'navSection' in handle;

/** The section the deepest route with a NavHandle names, if any. */
function claimedSection(matches: ReturnType<typeof useMatches>): NavSection | null {
  for (const match of [...matches].reverse()) {
    if (isNavHandle(match.handle)) return match.handle.navSection(match.loaderData);
  }
  return null;
}

/**
 * The left menu. The current section (a question page belongs to Questions, a forum's
 * discussion to Forums) carries aria-current="page"; the styles show it with weight and a
 * bar as well as colour (docs/product.md section 5).
 */
export function MainNav() {
  const { pathname } = useLocation();
  const claimed = claimedSection(useMatches());
  const current = (item: NavItem) => (claimed === null ? inSection(pathname, item.section) : claimed === item.id);
  const account = useAccount();
  const items = [
    ...NAV_ITEMS,
    ...(moderates(account) ? [MODERATION_ITEM] : []),
    ...(administers(account) ? [ADMIN_ITEM] : []),
  ];
  return (
    <nav className="main-nav" aria-label="Main">
      <ul className="main-nav__list">
        {items.map((item) => {
          const { label, to, Icon } = item;
          return (
            <li key={to}>
              <Link to={to} className="main-nav__link" aria-current={current(item) ? 'page' : undefined}>
                <Icon className="main-nav__icon" />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
