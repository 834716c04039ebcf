import { ORDERS, type Order } from '@porpoise/core';

/** What the home list shows, read from the URL (`/home?order=active&search=...&tag=...`). */
export interface HomeQuery {
  order: Order;
  search: string;
  tag: string;
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
  return {
    order: isOrder(order) ? order : DEFAULT_ORDER,
    search: params.get('search')?.trim() ?? '',
    tag: params.get('tag')?.trim() ?? '',
  };
}

/** The list's heading (spec section 2): the tag name, else 'Search Results', else 'All Questions'. */
export function homeTitle(query: HomeQuery): string {
  if (query.tag !== '') return query.tag;
  if (query.search !== '') return 'Search Results';
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
