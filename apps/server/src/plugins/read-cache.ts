import type { Order } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Batches } from '../db/batches.ts';
import type { JsonBody } from '../http/json-body.ts';
import { ReadCache } from '../cache/read-cache.ts';
import type { ContentCache, ListPage, QuestionPage, Touched } from '../cache/content-cache.ts';
import { forgetEveryQuestionsTags, forgetQuestionTags } from '../cache/question-tags.ts';
import { forgetTagIds } from '../queries/question-search.ts';
import { getViewCounts, type ViewCounts } from '../queries/views.ts';

/**
 * What one process tells the others about the content (the signal's payload): what a
 * write changed, or the new view counts of questions viewed there (ids and counts, in pairs).
 */
type ContentSignal = { touched: Touched } | { viewed: number[]; counts: number[] };

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
    ({ order, tags }) => order === page.order && (page.tags === null || page.tags.some((tag) => tags.includes(tag))),
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
      if (payload === null) {
        // Signals may have been missed, or the embedded database lost commits that were read.
        forgetEveryQuestionsTags(app.db);
        forgetTagIds(app.db);
      }
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
