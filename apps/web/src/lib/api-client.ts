import { MESSAGES, type EndpointAt, type EndpointRoute } from '@porpoise/core';
import type { BodyOf, EndpointName, ParamsOf, QueryOf, ResponseOf } from '@porpoise/core/contract';

/** Where the server mounts its API (docs/product.md section 1): same origin, prefix /api. */
const API_PREFIX = '/api';

/** A failed API call: the HTTP status (0 when no response arrived) and the server's `{error}` text, if any. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The `error` field of the server's JSON reply, which is meant to be shown to the user. */
  readonly serverMessage: string | null;

  constructor(status: number, serverMessage: string | null, message: string) {
    super(message);
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal | undefined;
  /**
   * Statuses that are an ordinary answer rather than a fault (401 from /account/me just
   * means "signed out"): still logged and rejected, but at debug level.
   */
  expectedStatuses?: readonly number[];
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_PREFIX}${path}${search === '' ? '' : `?${search}`}`;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorText(body: unknown): string | null {
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') {
    return body.error;
  }
  return null;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Sends one request and resolves with the parsed JSON reply (unknown: the caller knows its
 * shape from the contract) and the response headers. Any failure (no response, or a status
 * other than 2xx) is logged and then rejected as an ApiError (spec section 7).
 */
async function send(url: string, options: RequestOptions): Promise<{ data: unknown; headers: Headers }> {
  const { method = 'GET', body, signal, expectedStatuses = [] } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    // A cancelled request (the user navigated away) is not a failure worth logging.
    if (isAbort(cause)) throw cause;
    console.error(`${method} ${url} failed:`, cause);
    throw new ApiError(0, null, MESSAGES.unavailable);
  }

  const text = await response.text().catch(() => '');
  const data = parseJson(text);
  if (!response.ok) {
    const serverMessage = errorText(data);
    const error = new ApiError(
      response.status,
      serverMessage,
      serverMessage ?? `${method} ${url} failed with status ${response.status}`,
    );
    const log = expectedStatuses.includes(response.status) ? console.debug : console.error;
    log(`${method} ${url} failed with status ${response.status}:`, serverMessage ?? text);
    throw error;
  }
  return { data, headers: response.headers };
}

/** A call of the contract's endpoint N: its path parameters, query and body, typed from the contract. */
export interface Call<N extends EndpointName> {
  params?: ParamsOf<N>;
  query?: QueryOf<N>;
  body?: BodyOf<N>;
  signal?: AbortSignal | undefined;
  /** Statuses that are an ordinary answer rather than a fault (see RequestOptions). */
  expectedStatuses?: readonly number[];
}

/** The endpoint's path with its `:name` parameters filled in, each encoded. */
function fillPath(path: string, params: unknown): string {
  const values = new Map(
    Object.entries(typeof params === 'object' && params !== null ? params : {}).map(([name, value]) => [
      name,
      String(value),
    ]),
  );
  return (
    path
      .split('/')
      // Dots too: a segment of '.' or '..' (a tag may be named so) would move up the path.
      .map((part) =>
        part.startsWith(':') ? encodeURIComponent(values.get(part.slice(1)) ?? '').replaceAll('.', '%2E') : part,
      )
      .join('/')
  );
}

/** Query parameters as text; undefined ones are left out. */
function queryText(query: unknown): RequestOptions['query'] {
  const entries = Object.entries(typeof query === 'object' && query !== null ? query : {}).filter(
    ([, value]) => value !== undefined,
  );
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/**
 * Calls the contract's endpoint at `route` ('GET /getQuestionById/:id', as
 * packages/core/src/api-routes.ts names it) and resolves with its answer and the response
 * headers. Input and answer are typed from the contract: the server checks every answer
 * against that very schema before it sends it.
 */
export async function callApiWithHeaders<R extends EndpointRoute>(
  route: R,
  call: Call<EndpointAt<R>> = {},
): Promise<{ data: ResponseOf<EndpointAt<R>>; headers: Headers }> {
  const space = route.indexOf(' ');
  const method = route.slice(0, space) as RequestOptions['method'];
  const url = buildUrl(fillPath(route.slice(space + 1), call.params), queryText(call.query));
  const { data, headers } = await send(url, {
    method,
    body: call.body,
    signal: call.signal,
    expectedStatuses: call.expectedStatuses ?? [],
  });
  return { data: data as ResponseOf<EndpointAt<R>>, headers };
}

/** Calls the contract's endpoint at `route` and resolves with its answer (see callApiWithHeaders). */
export async function callApi<R extends EndpointRoute>(
  route: R,
  call: Call<EndpointAt<R>> = {},
): Promise<ResponseOf<EndpointAt<R>>> {
  return (await callApiWithHeaders(route, call)).data;
}

/**
 * The text to show for a failed call: the server's own message for a 4xx reply (such as
 * 'Username already in use' or a rate-limit notice), otherwise the fallback. Server
 * faults and lost connections get the fallback: their details mean nothing to the user.
 */
export function userFacingError(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return fallback;
  if (error.serverMessage) return error.serverMessage;
  return error.status === 429 ? MESSAGES.tooManyRequests : fallback;
}
