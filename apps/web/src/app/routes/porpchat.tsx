import { redirect, useLoaderData } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { readPorpName } from '@/features/porpchat/porp-name';

/** PorpChat needs the name chosen on / first (spec section 2). */
export function porpchatLoader() {
  const name = readPorpName();
  if (name === null) return redirect(paths.landing());
  return name;
}

export function PorpchatRoute() {
  const name = useLoaderData<typeof porpchatLoader>();
  return (
    <section className="card">
      <DocumentTitle title="PorpChat" />
      <h1 className="card__title">PorpChat</h1>
      <p>
        You are chatting as <strong>{name}</strong>.
      </p>
      <p className="muted">The chat is coming soon.</p>
    </section>
  );
}
