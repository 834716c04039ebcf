import type { ReactNode } from 'react';

/** The id the skip link and focus management point at. */
export const MAIN_CONTENT_ID = 'main-content';

/** The page's one <main>; focusable from script so focus can move to it after navigation. */
export function MainContent({ className, children }: { className: string; children: ReactNode }) {
  return (
    <main id={MAIN_CONTENT_ID} className={className} tabIndex={-1}>
      {children}
    </main>
  );
}
