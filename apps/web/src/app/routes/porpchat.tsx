import { redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { deferred } from '@/lib/deferred';
import { getPorpchatThread } from '@/features/porpchat/api/porpchat-api';
import { readPorpName } from '@/features/porpchat/porp-name';
import { PorpchatRoom } from '@/features/porpchat/components/porpchat-room';
import { useOptionalAccount } from '@/features/auth/hooks/use-account';

/** PorpChat needs the name chosen on / first (spec section 2); its history is shown when it arrives. */
export function porpchatLoader({ request }: LoaderFunctionArgs) {
  const name = readPorpName();
  if (name === null) return redirect(paths.landing());
  return { name, history: deferred(getPorpchatThread(request.signal)) };
}

export function PorpchatRoute() {
  const { name, history } = useLoaderData<typeof porpchatLoader>();
  const account = useOptionalAccount();
  return (
    <>
      <DocumentTitle title="PorpChat" />
      <PorpchatRoom name={name} history={history} account={account} />
    </>
  );
}
