import type { ReactNode } from 'react';
import { Logo } from './logo';

/** The narrow card, under the logo, that open screens (PorpChat entry, sign in, sign up) sit in. */
export function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <div className="centered">
      <Logo className="logo logo--large" />
      <section className="card card--narrow">{children}</section>
    </div>
  );
}
