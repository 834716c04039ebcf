import type { ComponentType, SVGProps } from 'react';
import { Link, useLocation } from 'react-router';
import { ForumsIcon, QuestionsIcon, TagsIcon, ThreadsIcon } from '@/components/icons';
import { paths } from '@/config/paths';

interface NavItem {
  label: string;
  to: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Paths (and everything below them) that belong to this section. */
  section: string[];
}

const NAV_ITEMS: NavItem[] = [
  {
    label: 'Questions',
    to: paths.home(),
    Icon: QuestionsIcon,
    section: ['/home', '/question', '/new/question', '/new/answer'],
  },
  { label: 'Tags', to: paths.tags(), Icon: TagsIcon, section: ['/tags'] },
  { label: 'Threads', to: paths.threads(), Icon: ThreadsIcon, section: ['/threads', '/new/thread'] },
  { label: 'Forums', to: paths.forums(), Icon: ForumsIcon, section: ['/forums', '/new/forum'] },
];

const inSection = (pathname: string, section: string[]) =>
  section.some((path) => pathname === path || pathname.startsWith(`${path}/`));

/**
 * The left menu. The current section (a question page belongs to Questions) carries
 * aria-current="page"; the styles show it with weight and a bar as well as colour
 * (product.md section 5).
 */
export function MainNav() {
  const { pathname } = useLocation();
  return (
    <nav className="main-nav" aria-label="Main">
      <ul className="main-nav__list">
        {NAV_ITEMS.map(({ label, to, Icon, section }) => (
          <li key={to}>
            <Link to={to} className="main-nav__link" aria-current={inSection(pathname, section) ? 'page' : undefined}>
              <Icon className="main-nav__icon" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
