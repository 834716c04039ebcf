import { Outlet } from 'react-router';
import { MainContent } from './main-content';

/** The layout with only a content area (spec section 2): open screens such as sign-in and PorpChat. */
export function ContentLayout() {
  return (
    <MainContent className="content-only">
      <Outlet />
    </MainContent>
  );
}
