import { LIMITS } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import type { ReviewItem, ReviewQueue as Queue } from '../api/moderation';
import { ReviewCard } from './review-card';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const sameItem = (item: ReviewItem, type: string, id: string) => item.targetType === type && item.targetId === id;

/** A reviewUpdate applied to the queue: the item as it now is (null: decided), and the count. */
function withReview(current: Queue, { targetType, targetId, item, open }: SocketPayloads['reviewUpdate']): Queue {
  const index = current.items.findIndex((row) => sameItem(row, targetType, targetId));
  if (item === null) return { items: current.items.filter((_, at) => at !== index), open };
  if (index >= 0) return { items: current.items.with(index, item), open };
  // A new item is the newest: it joins the end, within the page the queue shows.
  return { items: [...current.items, item].slice(0, LIMITS.queuePage), open };
}

/**
 * The queue's live feed, heard from the moment /moderation opens: an update that comes
 * while the queue is still loading waits and applies once it is there.
 */
export function useReviewFeed(): LiveFeed<Queue> {
  return useLiveFeed<Queue>({ reviewUpdate: withReview });
}

/**
 * The review queue (docs/product.md section 10): flagged and hidden items and posts waiting for
 * approval, oldest first, with their reasons and flag counts. Live: a new flag, a hidden
 * item or another moderator's decision changes the list as it happens.
 */
export function ReviewQueue({ initial, feed }: { initial: Queue; feed: LiveFeed<Queue> }) {
  const [queue, update] = useLiveData(initial, feed);
  // Its reviewUpdate may have come first (it is sent before the answer): counted once.
  const decided = (item: ReviewItem) =>
    update((current) => {
      const items = current.items.filter((row) => !sameItem(row, item.targetType, item.targetId));
      return items.length === current.items.length ? current : { items, open: Math.max(0, current.open - 1) };
    });

  return (
    <>
      <p className="muted" role="status">
        {queue.open === 0
          ? 'Nothing is waiting for a moderator.'
          : `${plural(queue.open, 'item')} waiting, oldest first.`}
      </p>
      {queue.items.length === 0 ? null : (
        <ol className="review-queue">
          {queue.items.map((item) => (
            <li key={`${item.targetType}:${item.targetId}`}>
              <ReviewCard item={item} onDecided={() => decided(item)} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
