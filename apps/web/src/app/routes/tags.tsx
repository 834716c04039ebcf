import { Link, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import { MESSAGES, type TagWithCount } from '@porpoise/core';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { getTagsWithCounts } from '@/features/questions/api/get-tags';
import { useAccount } from '@/features/auth/hooks/use-account';
import { TagCards, useTagFollowing } from '@/features/questions/components/tag-cards';

interface TagsData {
  tags: TagWithCount[];
  error: string | null;
}

export async function tagsLoader({ request }: LoaderFunctionArgs): Promise<TagsData> {
  try {
    return { tags: await getTagsWithCounts(request.signal), error: null };
  } catch (error) {
    return { tags: [], error: userFacingError(error, MESSAGES.unavailable) };
  }
}

export function TagsRoute() {
  const { tags, error } = useLoaderData<typeof tagsLoader>();
  const account = useAccount();
  const { revalidate } = useRevalidator();
  // The account is loaded again after each toggle, so /home's 'My tags' knows the new list.
  const following = useTagFollowing(account.followedTags, () => void revalidate());
  const title = `All ${tags.length} Wonderful Tags`;
  return (
    <>
      <DocumentTitle title="Tags" />
      <div className="q-page-head">
        <div className="q-page-head__text">
          <h1 className="q-page-title">{title}</h1>
          <p className="q-page-lead">
            A tag groups questions on one subject. Open one to see its questions; follow it to find them under &lsquo;My
            tags&rsquo;.
          </p>
        </div>
        <Link className="button button--primary" to={paths.newQuestion()}>
          Ask!
        </Link>
      </div>
      <FormError message={error} />
      <TagCards tags={tags} following={following} />
    </>
  );
}
