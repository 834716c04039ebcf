import { Link, useLoaderData, useRevalidator } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/auth/hooks/use-account';
import { TagCards, useTagFollowing } from '@/features/questions/components/tag-cards';
import type { tagsLoader } from './tags-loader';

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
