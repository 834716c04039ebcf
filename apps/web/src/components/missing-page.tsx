import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { DocumentTitle } from './document-title';

/** A post that does not exist, or was deleted (or an address mistyped): says so, with the way back to the questions. */
export function MissingPage({ what }: { what: 'Question' | 'Answer' }) {
  return (
    <div className="q-empty q-empty--page">
      <DocumentTitle title={`${what} not found`} />
      <h1 className="q-page-title">{what} not found</h1>
      <p className="muted">This {what.toLowerCase()} does not exist, was deleted, or its address is mistyped.</p>
      <p>
        <Link className="button button--primary" to={paths.home()}>
          Go to Questions
        </Link>
      </p>
    </div>
  );
}
