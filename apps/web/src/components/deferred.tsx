import { Suspense, type ReactNode } from 'react';
import { Await, useAsyncError } from 'react-router';

function Failure({ render }: { render: (error: unknown) => ReactNode }) {
  return render(useAsyncError());
}

/**
 * What a route loader hands over without waiting (a deferred promise): `loading` until it
 * settles, then `children` with its value, or `failed` with its error. The screen around
 * it (title, header, menu) shows at once.
 */
export function Deferred<T>({
  data,
  loading,
  failed,
  children,
}: {
  data: Promise<T>;
  loading: ReactNode;
  failed: (error: unknown) => ReactNode;
  children: (value: T) => ReactNode;
}) {
  return (
    <Suspense fallback={loading}>
      <Await resolve={data} errorElement={<Failure render={failed} />}>
        {children}
      </Await>
    </Suspense>
  );
}

/** The loading text of a deferred part (spec texts such as 'Loading user profile...'). */
export function LoadingText({ children }: { children: ReactNode }) {
  return (
    <p className="muted" role="status">
      {children}
    </p>
  );
}
