import { redirect, useLoaderData } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { readPorpName } from '@/features/porpchat/porp-name';
import { PorpchatRoom } from '@/features/porpchat/components/porpchat-room';

/** PorpChat needs the name chosen on / first (spec section 2). */
export function porpchatLoader() {
  const name = readPorpName();
  if (name === null) return redirect(paths.landing());
  return name;
}

export function PorpchatRoute() {
  const name = useLoaderData<typeof porpchatLoader>();
  return (
    <>
      <DocumentTitle title="PorpChat" />
      <PorpchatRoom name={name} />
    </>
  );
}
