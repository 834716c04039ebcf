import { Suspense, type ReactNode } from 'react';
import { Await, useAsyncError } from 'react-router';
import { arrivedValue } from '@/lib/deferred';

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
  const known = arrivedValue(data);
  return (
    <Suspense fallback={loading}>
      {/* A value that has arrived is handed over as a value, which Await draws without suspending. */}
      <Await resolve={known === undefined ? data : known.value} errorElement={<Failure render={failed} />}>
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
