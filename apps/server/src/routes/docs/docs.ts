import { API_VERSION } from '@porpoise/core/contract';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP, renderApiDocs } from '../../http/api-docs.ts';
import { route } from '../../http/contract-routes.ts';
import { openApiDocument } from '../../http/openapi.ts';

/** The API's description (OpenAPI 3.1) and a readable page made from it, both built once. */
export async function docsRoutes(app: FastifyInstance) {
  const document = openApiDocument(API_VERSION);
  const page = renderApiDocs(document);
  route(app, 'openApi', {}, async () => document);
  route(app, 'docs', {}, async (_input, _request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(page),
  );
}
