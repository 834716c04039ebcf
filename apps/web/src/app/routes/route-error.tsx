import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { MainContent } from '../layouts/main-content';

/** The message under the heading: a thrown Response's status and text, or the error's own message. */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const status = `${error.status} ${error.statusText}`.trim();
    const detail = typeof error.data === 'string' ? error.data.trim() : '';
    return detail === '' || detail === error.statusText ? status : `${status}: ${detail}`;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** The routing fallback screen (spec section 2), replacing every layout. */
export function RouteError() {
  const error = useRouteError();
  return (
    <MainContent className="content-only">
      <CenteredCard>
        <DocumentTitle title="Error" />
        <h1 className="card__title">{MESSAGES.unexpectedError}</h1>
        <p className="error-detail">{describe(error)}</p>
        <p>
          <Link to={paths.landing()}>Go to the start page</Link>
        </p>
      </CenteredCard>
    </MainContent>
  );
}
