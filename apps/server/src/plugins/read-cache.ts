import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JsonBody } from '../lib/json-body.ts';
import { ReadCache } from '../lib/read-cache.ts';
import type { QuestionDetail } from '../presenters/question.ts';

/** A home-list page as sent: the JSON body, its X-Total-Count and X-Next-Cursor (null for the last page). */
export interface CachedList {
  body: JsonBody;
  total: number;
  nextCursor: string | null;
}

/** A question page: its rows, who has viewed it (checked on every read) and the JSON as sent. */
export interface CachedQuestion {
  detail: QuestionDetail;
  viewers: Set<string>;
  body: JsonBody;
}

/**
 * The hot reads (home list pages, question pages) answered from memory. Every command
 * that changes what they show (a question, answer, comment, vote or first view) is
 * followed by `changed()`, which clears them here and, through `app.signals`, on every
 * other process, before the route emits its event or answers: a write shows up at once
 * wherever it is read next.
 */
export interface ContentCache {
  lists: ReadCache<CachedList>;
  questions: ReadCache<CachedQuestion>;
  /** Call after a write commits, before its event is emitted. */
  changed(): Promise<void>;
}

const CHANNEL = 'porpoise_content';

export const readCachePlugin = fp(
  async (app: FastifyInstance) => {
    const usable = () => app.signals.listening;
    const { maxBytes, maxEntryBytes } = app.config.readCache;
    const lists = new ReadCache<CachedList>(1_000, usable, {
      maxBytes: Math.floor(maxBytes / 4),
      maxEntryBytes,
      sizeOf: (page) => page.body.bytes,
    });
    // A question page also keeps its rows, whose text is the JSON's again.
    const questions = new ReadCache<CachedQuestion>(5_000, usable, {
      maxBytes: maxBytes - Math.floor(maxBytes / 4),
      maxEntryBytes,
      sizeOf: (page) => page.body.bytes + page.body.textBytes,
    });
    app.signals.subscribe(CHANNEL, () => {
      lists.clear();
      questions.clear();
    });
    const cache: ContentCache = {
      lists,
      questions,
      changed: () => app.signals.publish(CHANNEL, ''),
    };
    app.decorate('contentCache', cache);
  },
  { name: 'read-cache', dependencies: ['signals'] },
);
