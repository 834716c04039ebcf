import { ENDPOINTS, apiErrorSchema, type Endpoint } from '@porpoise/core/contract';
import { z } from '@porpoise/core/schemas';
import { SESSION_COOKIE } from '../auth/sessions.ts';

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): the input side for what a
 * client sends (an id may be a number or digits), the output side for what it receives.
 * Rules that JSON Schema cannot state (a link's format, the linear-time text checks) are
 * the server's; the document says what the shapes are.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return rest;
}

/** An object schema's properties as OpenAPI parameters in `where` (path or query). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(name: string, endpoint: Endpoint) {
  const params = [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')];
  return {
    operationId: name,
    summary: endpoint.summary,
    tags: [endpoint.group],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } },
          },
        }
      : endpoint.consumes
        ? {
            requestBody: {
              required: true,
              content: {
                [endpoint.consumes]: {
                  schema: {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', format: 'binary' } },
                  },
                },
              },
            },
          }
        : {}),
    ...(endpoint.access === 'anyone' ? {} : { security: [{ session: [] }] }),
    responses: {
      '200': {
        description: 'OK',
        content: { [endpoint.produces ?? 'application/json']: { schema: jsonSchema(endpoint.response, 'output') } },
      },
      ...(endpoint.params || endpoint.query || endpoint.body || endpoint.consumes
        ? { '400': errorResponse('The input breaks a rule; `error` says which') }
        : {}),
      ...(endpoint.access === 'anyone' ? {} : { '401': errorResponse('Not signed in') }),
      ...(endpoint.access === 'admin' ? { '403': errorResponse('Not an admin') } : {}),
      '429': errorResponse('Too many requests: wait for Retry-After seconds'),
      default: errorResponse('Any other refusal or fault'),
    },
  };
}

/** The OpenAPI 3.1 description of the API, generated from the contract (packages/core/src/contract.ts). */
export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
    // Fastify's `:id` is OpenAPI's `{id}`.
    const path = endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}');
    (paths[path] ??= {})[endpoint.method.toLowerCase()] = operation(name, endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Porpoise API',
      version,
      description:
        'Questions and answers, conversations, forums and PorpChat. Every answer is JSON; every error is `{error, code}` with an honest status. Writes need a session cookie from /account/login or /account/addAccount, and a same-origin request (Origin or Sec-Fetch-Site).',
    },
    servers: [{ url: '/api' }],
    paths,
    components: {
      schemas: { Error: jsonSchema(apiErrorSchema, 'output') },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    },
  };
}
