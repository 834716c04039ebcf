import { Link } from 'react-router';
import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';

export function NotFoundRoute() {
  return (
    <CenteredCard>
      <DocumentTitle title="Page not found" />
      <h1 className="card__title">Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to={paths.home()}>Go to Questions</Link>
      </p>
    </CenteredCard>
  );
}
