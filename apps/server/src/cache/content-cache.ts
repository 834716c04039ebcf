import { ENDPOINTS } from '@porpoise/core/contract';
import { LIMITS, type Order, type QuestionSummary } from '@porpoise/core';
import { JsonBody } from '../http/json-body.ts';
import type { ReadCache } from './read-cache.ts';
import { presentQuestion, type QuestionDetail } from '../presenters/question.ts';
import type { ViewCounts } from '../queries/views.ts';

/**
 * A home-list page as sent (its JSON, X-Total-Count and X-Next-Cursor), with its rows, so
 * that a view count can be brought up to date without a load.
 */
export class ListPage {
  readonly ids: Set<string>;
  /** The JSON of `rows`, made when next read after a change. */
  private rendered: Promise<JsonBody> | null;

  constructor(
    readonly order: Order,
    /** The tag filter (one tag, or 'My tags': the tags followed), lower case; null for the whole list. */
    readonly tags: readonly string[] | null,
    private rows: QuestionSummary[],
    readonly total: number,
    readonly nextCursor: string | null,
    readonly firstBody: JsonBody,
  ) {
    this.ids = new Set(rows.map((row) => row._id));
    this.rendered = Promise.resolve(firstBody);
  }

  static async of(
    order: Order,
    tags: readonly string[] | null,
    rows: QuestionSummary[],
    total: number,
    next: string | null,
  ) {
    return new ListPage(order, tags, rows, total, next, await JsonBody.of(ENDPOINTS.getQuestions.response, rows));
  }

  body(): Promise<JsonBody> {
    this.rendered ??= JsonBody.of(ENDPOINTS.getQuestions.response, this.rows);
    return this.rendered;
  }

  /**
   * Whether these new view counts can change this page of the mostViewed order: a question
   * on it moves (its count rose), or one from further down reaches its lowest count and
   * pushes in. Counts only rise, so nothing else can (a new question is an invalidation).
   */
  reorderedBy(counts: ReadonlyMap<number, ViewCounts>): boolean {
    const lowest = this.rows.reduce((least, row) => Math.min(least, row.viewCount), Infinity);
    for (const [id, { viewCount }] of counts) {
      if (this.ids.has(String(id)) || viewCount >= lowest) return true;
    }
    return false;
  }

  /** New view counts for some of its rows: the JSON is made again when the page is next read. */
  setViewCounts(counts: ReadonlyMap<number, ViewCounts>): void {
    let changed = false;
    this.rows = this.rows.map((row) => {
      const count = counts.get(Number(row._id))?.viewCount;
      if (count === undefined || count === row.viewCount) return row;
      changed = true;
      return { ...row, viewCount: count };
    });
    if (changed) this.rendered = null;
  }
}

/** A question page: its rows, its recent viewers (checked on every read) and the JSON as sent. */
export class QuestionPage {
  viewers: Set<string>;
  /** The JSON of `detail`, made when next read after a change. */
  private rendered: Promise<JsonBody> | null;

  constructor(
    public detail: QuestionDetail,
    readonly firstBody: JsonBody,
  ) {
    this.viewers = new Set(detail.views);
    this.rendered = Promise.resolve(firstBody);
  }

  static async of(detail: QuestionDetail) {
    return new QuestionPage(detail, await JsonBody.of(ENDPOINTS.getQuestionById.response, presentQuestion(detail)));
  }

  body(): Promise<JsonBody> {
    this.rendered ??= JsonBody.of(ENDPOINTS.getQuestionById.response, presentQuestion(this.detail));
    return this.rendered;
  }

  /** A first view made on this process: counted on this page at once (elsewhere within a second). */
  addViewer(username: string): void {
    this.detail = withViewerDetail(this.detail, username);
    this.viewers = new Set(this.detail.views);
    this.rendered = null;
  }

  setViews({ viewCount, recent }: ViewCounts): void {
    this.detail = {
      ...this.detail,
      question: { ...this.detail.question, viewCount },
      views: recent ?? this.detail.views,
    };
    this.viewers = new Set(this.detail.views);
    this.rendered = null;
  }
}

/**
 * A question's rows with `username` as its newest viewer (at most LIMITS.viewersShown
 * named) and its count moved by `added`: 1 for a first view, 0 for an earlier viewer.
 */
export function withViewerDetail(detail: QuestionDetail, username: string, added = 1): QuestionDetail {
  return {
    ...detail,
    question: { ...detail.question, viewCount: detail.question.viewCount + added },
    views: [...detail.views.filter((name) => name !== username), username].slice(-LIMITS.viewersShown),
  };
}

/**
 * What a write changed among the cached reads (events/invalidation.ts works it out from
 * the write's events). It crosses processes as JSON, so it holds ids and names only.
 */
export interface Touched {
  /** Question pages that changed. */
  questions: number[];
  /** Questions whose list row changed: every list page showing one goes. */
  rows: number[];
  /** Orders in which questions moved, joined or left: their pages go, for the whole list and these tags. */
  orders: Array<{ order: Order; tags: string[] }>;
  /** The tags page's counts (or its tags) changed. */
  tags: boolean;
}

/**
 * The hot reads (home list pages, question pages) answered from memory (docs/product.md section
 * 6). A write drops exactly the pages it changed, here and, through `app.signals`, on every
 * other process, before its event goes out or the write is answered: it shows up at once
 * wherever it is read next. A first view drops nothing: view counts are brought up to
 * date in place, at most a second late (events/view-counter.ts).
 */
export interface ContentCache {
  lists: ReadCache<ListPage>;
  questions: ReadCache<QuestionPage>;
  /** The tags page (every tag with its question count: a grouping over every question's tags). */
  tags: ReadCache<JsonBody>;
  /** Tag suggestions by prefix (docs/product.md section 5): the tags page's counts, so they go with it. */
  tagSuggestions: ReadCache<JsonBody>;
  /** Call after a write commits, before its event is emitted. */
  invalidate(touched: Touched): Promise<void>;
  /** Sets the view counts held here for these questions (mostViewed pages whose order they change go). */
  setViewCounts(counts: ReadonlyMap<number, ViewCounts>): void;
  /** Tells the other processes these questions' new view counts. */
  viewedElsewhere(counts: ReadonlyMap<number, ViewCounts>): Promise<void>;
}
