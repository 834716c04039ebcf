import { ORDERS, type Order } from '@porpoise/core';
import { paths } from '@/config/paths';

/** What the home list shows, read from the URL (`/home?order=active&search=...&tag=...&myTags=true`). */
export interface HomeQuery {
  order: Order;
  search: string;
  tag: string;
  /** Only questions in the tags the member follows (docs/product.md section 11); never with a tag. */
  myTags: boolean;
}

export const DEFAULT_ORDER: Order = 'newest';

export const ORDER_LABELS: Record<Order, string> = {
  newest: 'Newest',
  unanswered: 'Unanswered',
  active: 'Active',
  mostViewed: 'Most Viewed',
};

export function isOrder(value: string | null): value is Order {
  return value !== null && (ORDERS as readonly string[]).includes(value);
}

export function readHomeQuery(params: URLSearchParams): HomeQuery {
  const order = params.get('order');
  const tag = params.get('tag')?.trim() ?? '';
  return {
    order: isOrder(order) ? order : DEFAULT_ORDER,
    search: params.get('search')?.trim() ?? '',
    tag,
    // A tag wins: the server takes one or the other.
    myTags: tag === '' && params.get('myTags') === 'true',
  };
}

/** The URL of `query` (the default order left out, as the links and the search box write it). */
export function homePath(query: HomeQuery): string {
  return paths.home({
    search: query.search,
    tag: query.tag,
    order: query.order === DEFAULT_ORDER ? undefined : query.order,
    myTags: query.myTags ? 'true' : undefined,
  });
}

/**
 * The list's heading (spec section 2): the tag name, else 'Search Results', else 'My Tags' for
 * the followed tags' questions, else 'All Questions'.
 */
export function homeTitle(query: HomeQuery): string {
  if (query.tag !== '') return query.tag;
  if (query.search !== '') return 'Search Results';
  if (query.myTags) return 'My Tags';
  return 'All Questions';
}

/** What the search box starts with: the search text, or the tag in square brackets. */
export function searchBoxText(query: HomeQuery): string {
  if (query.tag !== '') return `[${query.tag}]`;
  return query.search;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
