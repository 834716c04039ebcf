import { Link, useLoaderData, useNavigation, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { MESSAGES, type Tag } from '@porpoise/core';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { getQuestions, type QuestionPage } from '@/features/questions/api/get-questions';
import { getTag } from '@/features/questions/api/get-tag';
import { QuestionList } from '@/features/questions/components/question-list';
import { useAccount } from '@/features/auth/hooks/use-account';
import {
  MyTagsFilter,
  QuestionOrderControls,
  QuestionSearch,
} from '@/features/questions/components/question-list-controls';
import { homeTitle, readHomeQuery } from '@/features/questions/home-query';
import { PAGE_SIZE } from '@/features/questions/hooks/use-question-list';

interface HomeData {
  page: QuestionPage | null;
  tag: Tag | null;
  error: string | null;
}

/** The first page for the URL's order, search and tag; runs again whenever they change. */
export async function homeLoader({ request }: LoaderFunctionArgs): Promise<HomeData> {
  const query = readHomeQuery(new URL(request.url).searchParams);
  const tagRequest = query.tag === '' ? Promise.resolve(null) : getTag(query.tag, request.signal);
  try {
    const [page, tag] = await Promise.all([getQuestions({ ...query, limit: PAGE_SIZE }, request.signal), tagRequest]);
    return { page, tag, error: null };
  } catch (error) {
    return { page: null, tag: await tagRequest, error: userFacingError(error, MESSAGES.unavailable) };
  }
}

export function HomeRoute() {
  const { page, tag, error } = useLoaderData<typeof homeLoader>();
  const navigation = useNavigation();
  // The router updates the location and the loader data together, so they always match.
  const [params] = useSearchParams();
  const query = readHomeQuery(params);
  const { followedTags } = useAccount();
  const key = `${query.order}\u0000${query.search}\u0000${query.tag}\u0000${String(query.myTags)}`;
  const title = homeTitle(query);
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.home();

  return (
    <div className="q-home" aria-busy={busy}>
      <DocumentTitle title={title} />
      <div className="q-page-head">
        <div className="q-page-head__text">
          <h1 className="q-page-title">{title}</h1>
          {tag === null ? null : <p className="q-page-lead">{tag.description}</p>}
        </div>
        <Link className="button button--primary" to={paths.newQuestion()}>
          Ask!
        </Link>
      </div>
      <div className="q-toolbar">
        <QuestionSearch key={key} query={query} />
        <MyTagsFilter query={query} />
        <QuestionOrderControls query={query} />
      </div>
      {query.myTags && followedTags.length === 0 ? (
        <div className="q-empty">
          <h2 className="q-empty__title">No tags followed yet</h2>
          <p>
            Follow tags on the <Link to={paths.tags()}>Tags page</Link> to fill this list.
          </p>
        </div>
      ) : page === null ? (
        <FormError message={error} />
      ) : (
        <QuestionList key={key} query={query} firstPage={page} followedTags={followedTags} />
      )}
    </div>
  );
}
