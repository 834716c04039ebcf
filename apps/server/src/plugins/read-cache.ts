import { ENDPOINTS } from '@porpoise/core/contract';
import { LIMITS, type Order, type QuestionSummary } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Batches } from '../lib/batches.ts';
import { JsonBody } from '../lib/json-body.ts';
import { ReadCache } from '../lib/read-cache.ts';
import { presentQuestion, type QuestionDetail } from '../presenters/question.ts';
import { forgetQuestionTags, getViewCounts, type ViewCounts } from '../queries/questions.ts';

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
    /** The tag filter, lower case; null for the whole list. */
    readonly tag: string | null,
    private rows: QuestionSummary[],
    readonly total: number,
    readonly nextCursor: string | null,
    readonly firstBody: JsonBody,
  ) {
    this.ids = new Set(rows.map((row) => row._id));
    this.rendered = Promise.resolve(firstBody);
  }

  static async of(order: Order, tag: string | null, rows: QuestionSummary[], total: number, next: string | null) {
    return new ListPage(order, tag, rows, total, next, await JsonBody.of(ENDPOINTS.getQuestions.response, rows));
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
 * What one process tells the others about the content (the signal's payload): what a
 * write changed, or the new view counts of questions viewed there (ids and counts, in pairs).
 */
type ContentSignal = { touched: Touched } | { viewed: number[]; counts: number[] };

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

const CHANNEL = 'porpoise_content';
/** Questions (an id and a count each) per `viewed` signal: PostgreSQL's NOTIFY payload stops at 8,000 bytes. */
const IDS_PER_SIGNAL = 250;
/** A signal longer than this tells the others to drop everything instead. */
const SIGNAL_BYTES_MAX = 7_500;

/** Several writes' changes as one (the writes that share a NOTIFY). */
function merge(all: Touched[]): Touched {
  const orders = new Map<Order, Set<string>>();
  for (const touched of all) {
    for (const { order, tags } of touched.orders) {
      const set = orders.get(order) ?? new Set<string>();
      for (const tag of tags) set.add(tag);
      orders.set(order, set);
    }
  }
  return {
    questions: [...new Set(all.flatMap((touched) => touched.questions))],
    rows: [...new Set(all.flatMap((touched) => touched.rows))],
    orders: [...orders].map(([order, tags]) => ({ order, tags: [...tags] })),
    tags: all.some((touched) => touched.tags),
  };
}

/** True when a list page shows what `touched` changed. */
function listTouched(touched: Touched, page: ListPage): boolean {
  if (touched.rows.some((id) => page.ids.has(String(id)))) return true;
  return touched.orders.some(
    ({ order, tags }) => order === page.order && (page.tag === null || tags.includes(page.tag)),
  );
}

export const readCachePlugin = fp(
  async (app: FastifyInstance) => {
    const usable = () => app.signals.listening;
    const { maxBytes, maxEntryBytes } = app.config.readCache;
    const lists = new ReadCache<ListPage>(1_000, usable, {
      maxBytes: Math.floor(maxBytes / 4),
      maxEntryBytes,
      sizeOf: (page) => page.firstBody.bytes,
    });
    // A question page also keeps its rows, whose text is the JSON's again.
    const questions = new ReadCache<QuestionPage>(5_000, usable, {
      maxBytes: maxBytes - Math.floor(maxBytes / 4),
      maxEntryBytes,
      sizeOf: (page) => page.firstBody.bytes + page.firstBody.textBytes,
    });

    const tags = new ReadCache<JsonBody>(1, usable);
    // Prefixes people type: a short list each (ten names), the most recently read kept.
    const tagSuggestions = new ReadCache<JsonBody>(2_000, usable);
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });

    const dropLocally = (touched: Touched) => {
      if (touched.tags) {
        tags.invalidate(() => true);
        tagSuggestions.invalidate(() => true);
        // A question whose tags changed (an edit): its kept tags are read again.
        forgetQuestionTags(app.db, touched.rows);
      }
      if (touched.questions.length > 0) {
        const keys = new Set(touched.questions.map(String));
        questions.invalidate((key) => keys.has(key));
      }
      if (touched.rows.length > 0 || touched.orders.length > 0)
        lists.invalidate((_key, page) => listTouched(touched, page));
    };

    const setViewCounts: ContentCache['setViewCounts'] = (counts) => {
      if (counts.size === 0) return;
      for (const [id, count] of counts) questions.peek(String(id))?.setViews(count);
      // A mostViewed page whose order the counts change goes; every other page's rows take them.
      lists.invalidate((_key, page) => page.order === 'mostViewed' && page.reorderedBy(counts));
      for (const [, page] of lists.values()) page.setViewCounts(counts);
    };

    // Writes made while a NOTIFY is on its way share the next one.
    const tellOthers = (signal: ContentSignal) => app.signals.tellOthers(CHANNEL, JSON.stringify(signal));
    const touchedBatches = new Batches<Touched>(async (all) => {
      const payload = JSON.stringify({ touched: merge(all) });
      await app.signals.tellOthers(CHANNEL, payload.length > SIGNAL_BYTES_MAX ? '' : payload);
      return [];
    });
    app.signals.subscribe(CHANNEL, (payload) => {
      if (payload === null || payload === '') {
        lists.clear();
        questions.clear();
        tags.clear();
        tagSuggestions.clear();
        return;
      }
      const signal = JSON.parse(payload) as ContentSignal;
      if ('touched' in signal) return dropLocally(signal.touched);
      // Another process recorded views: its counts go into the lists here at once; a cached
      // question page also names its recent viewers, read for it (not once the app is
      // closing: the pool is going).
      const counts = new Map<number, ViewCounts>(
        signal.viewed.map((id, i) => [id, { viewCount: signal.counts[i] ?? 0 }]),
      );
      setViewCounts(counts);
      const pages = signal.viewed.filter((id) => questions.peek(String(id)) !== undefined);
      if (pages.length === 0 || closing) return;
      getViewCounts(app.db, pages, new Set(pages))
        .then(setViewCounts)
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not read view counts'));
    });

    const cache: ContentCache = {
      lists,
      questions,
      tags,
      tagSuggestions,
      async invalidate(touched) {
        dropLocally(touched);
        await touchedBatches.add(touched);
      },
      setViewCounts,
      async viewedElsewhere(counts) {
        const all = [...counts];
        for (let start = 0; start < all.length; start += IDS_PER_SIGNAL) {
          const chunk = all.slice(start, start + IDS_PER_SIGNAL);
          await tellOthers({ viewed: chunk.map(([id]) => id), counts: chunk.map(([, count]) => count.viewCount) });
        }
      },
    };
    app.decorate('contentCache', cache);
  },
  { name: 'read-cache', dependencies: ['signals', 'database'] },
);
