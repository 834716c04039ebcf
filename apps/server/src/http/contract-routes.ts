import { ENDPOINTS, type Endpoint, type EndpointName, type ResponseOf } from '@porpoise/core/contract';
import type { z } from '@porpoise/core/schemas';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  onRequestAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { assertNamesSelf, refuseAnonymous, requireActor, type Actor } from '../policies/actor.ts';
import { authorize } from '../policies/authorize.ts';
import { limitPosting, type LimitKind } from '../limits/posting-limits.ts';
import { HttpError } from './http-error.ts';
import { parse } from './parse.ts';

/** An answer that does not fit its endpoint's schema: a fault of ours, never sent. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
}

/**
 * `value` when it fits the schema of an endpoint's answer, otherwise a ResponseShapeError
 * (a field the schema does not list, such as an email, is refused rather than sent).
 */
export function shaped<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ResponseShapeError(`answer does not fit its schema at ${issue?.path.join('.') ?? ''}: ${issue?.message}`);
  }
  return result.data;
}

/**
 * Fastify's validation from the contract's zod schemas: a refusal is a 400 with the rule's
 * own message (http/parse.ts), and the handler receives the parsed value.
 */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    try {
      return { value: parse(schema, data) };
    } catch (error) {
      if (error instanceof HttpError) return { error };
      throw error;
    }
  };

/** Every answer with a schema is checked against it before it is serialised. */
const serializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema }) =>
  (data) =>
    JSON.stringify(shaped(schema, data));

/** A route's limit as a hook that runs before its input is validated. */
const limitOf = (
  app: FastifyInstance,
  limit: LimitKind | preValidationAsyncHookHandler,
): preValidationAsyncHookHandler =>
  async function (request, reply) {
    if (typeof limit !== 'string') return limit.call(this, request, reply);
    await limitPosting(app, requireActor(request.actor), limit);
  };

/** An admin-only route's onRequest hook, after refuseAnonymous: the policy decides (403 for anyone else). */
const refuseNonAdmin: onRequestAsyncHookHandler = async (request) => {
  authorize(request.actor, 'administer', { type: 'site' });
};

const refuseNonModerator: onRequestAsyncHookHandler = async (request) => {
  authorize(request.actor, 'moderate', { type: 'site' });
};

const DECLARED = new Set(Object.values(ENDPOINTS).map((endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`));

/**
 * Routes registered on `app` (and its children) take their schemas from the contract, and
 * a route the contract does not declare stops the server at start.
 */
export function useContract(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (options) => {
    // Fastify adds a HEAD route beside each GET by itself.
    for (const method of [options.method].flat().filter((name) => name !== 'HEAD')) {
      if (!DECLARED.has(`${method} ${options.routePath}`)) {
        throw new Error(`${method} ${options.url} is not in the API contract (packages/core/src/contract.ts)`);
      }
    }
  });
}

type Parsed<N extends EndpointName, K extends 'params' | 'query' | 'body'> =
  (typeof ENDPOINTS)[N] extends Record<K, infer S extends z.ZodType> ? z.output<S> : undefined;

/** What a handler receives: who is acting (always someone on a member-only endpoint) and its parsed input. */
export interface ContractInput<N extends EndpointName> {
  actor: (typeof ENDPOINTS)[N]['access'] extends 'anyone' ? Actor | null : Actor;
  params: Parsed<N, 'params'>;
  query: Parsed<N, 'query'>;
  body: Parsed<N, 'body'>;
}

export interface RouteOptions<N extends EndpointName> {
  /** The largest body the route takes (http/request-bodies.ts). */
  bodyLimit?: number;
  /**
   * The signed-in member's posting limit this route counts (limits/posting-limits.ts), or a
   * check of its own: either runs before the input is validated, so a post past its limit
   * costs no text checking (docs/product.md section 6).
   */
  limit?: LimitKind | preValidationAsyncHookHandler;
  /**
   * Where the input names its actor, if it does (askedBy, ansBy, username...): it must be
   * the session's own account (policies/authorize.ts, 'actAs'), or the request gets 403.
   */
  namesActor?: (input: ContractInput<N>) => unknown;
  onRequest?: onRequestAsyncHookHandler;
}

/**
 * Registers the contract's endpoint `name`: its method, path and schemas from the table;
 * a member-only endpoint refuses visitors with 401 before the body is read. The handler
 * answers the endpoint's response type (checked again as it is serialised), or sends a
 * reply itself (a cached body, already checked when it was made).
 */
export function route<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  options: RouteOptions<N>,
  handler: (
    input: ContractInput<N>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<ResponseOf<N> | FastifyReply>,
): void {
  const endpoint: Endpoint = ENDPOINTS[name];
  const onRequest = [
    ...(endpoint.access === 'anyone' ? [] : [refuseAnonymous]),
    ...(endpoint.access === 'admin' ? [refuseNonAdmin] : []),
    ...(endpoint.access === 'moderator' ? [refuseNonModerator] : []),
    ...(options.onRequest ? [options.onRequest] : []),
  ];
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(onRequest.length > 0 ? { onRequest } : {}),
    ...(options.limit === undefined ? {} : { preValidation: limitOf(app, options.limit) }),
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      // An answer that is not JSON (the reference page) is sent as the text it is.
      ...(endpoint.produces ? {} : { response: { 200: endpoint.response } }),
    },
    handler: (request, reply) => {
      // The schemas above have parsed each part, and onRequest has refused visitors where it must.
      const input = { actor: request.actor, params: request.params, query: request.query, body: request.body };
      const typed = input as ContractInput<N>;
      if (options.namesActor && request.actor) assertNamesSelf(request.actor, options.namesActor(typed));
      return handler(typed, request, reply);
    },
  });
}
