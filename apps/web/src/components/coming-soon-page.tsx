import { DocumentTitle } from './document-title';

/** A screen whose content is built by a later issue: its heading, and a line saying so. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <DocumentTitle title={title} />
      <h1 className="page-title">{title}</h1>
      <p className="muted">Coming soon.</p>
    </>
  );
}
