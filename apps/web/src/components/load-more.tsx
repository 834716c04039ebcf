import { FormError } from '@/components/form-error';
import { useLoadOnScroll } from '@/hooks/use-load-on-scroll';

/**
 * A paged list's end: the next page loads when it scrolls into view, or with its 'Load more'
 * button (where the browser cannot watch scrolling, the only way); a failed load says why
 * beside the button and stops loading on scroll.
 */
export function LoadMore({
  hasMore,
  loadMore,
  loadingMore,
  loadError,
  errorId,
}: {
  hasMore: boolean;
  loadMore: () => Promise<void>;
  loadingMore: boolean;
  loadError: string | null;
  errorId: string;
}) {
  const sentinel = useLoadOnScroll(hasMore && loadError === null, () => void loadMore());
  if (!hasMore) return null;
  return (
    <div className="q-more" ref={sentinel}>
      <button
        type="button"
        className="button"
        onClick={() => void loadMore()}
        aria-disabled={loadingMore}
        aria-describedby={loadError === null ? undefined : errorId}
      >
        {loadingMore ? 'Loading…' : 'Load more'}
      </button>
      <FormError id={errorId} message={loadError} />
    </div>
  );
}
