import type { ComponentType, SVGProps } from 'react';
import { NavLink } from 'react-router';
import { ForumsIcon, QuestionsIcon, TagsIcon, ThreadsIcon } from '@/components/icons';
import { paths } from '@/config/paths';

interface NavItem {
  label: string;
  to: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const NAV_ITEMS: NavItem[] = [
  { label: 'Questions', to: paths.home(), Icon: QuestionsIcon },
  { label: 'Tags', to: paths.tags(), Icon: TagsIcon },
  { label: 'Threads', to: paths.threads(), Icon: ThreadsIcon },
  { label: 'Forums', to: paths.forums(), Icon: ForumsIcon },
];

/**
 * The left menu. NavLink marks the current section with aria-current="page"; the
 * styles show it with weight and a bar as well as colour (product.md section 5).
 */
export function MainNav() {
  return (
    <nav className="main-nav" aria-label="Main">
      <ul className="main-nav__list">
        {NAV_ITEMS.map(({ label, to, Icon }) => (
          <li key={to}>
            <NavLink to={to} className="main-nav__link">
              <Icon className="main-nav__icon" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
