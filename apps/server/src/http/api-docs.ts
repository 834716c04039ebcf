import { createHash } from 'node:crypto';
import type { openApiDocument } from './openapi.ts';

type Document = ReturnType<typeof openApiDocument>;

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown; description?: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  security?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Our own prose, with its `code` spans as code (the document's descriptions are Markdown). */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]*)`/g, '<code>$1</code>');

// Focusable: a long schema scrolls, and a keyboard must reach it (WCAG 2.1.1).
const schemaBlock = (schema: unknown) =>
  `<pre tabindex="0"><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`;

/** The page's only style, allowed by its hash in the page's CSP (no inline style otherwise). */
const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1b1b; background: #ffffff; }
a { color: #0b57d0; }

body { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1 { margin-bottom: 0.25rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; padding: 0; list-style: none; }
section.operation { border-top: 1px solid #8884; padding: 0.75rem 0; }
h3 { font-size: 1.05rem; margin: 0.25rem 0; }
.method { display: inline-block; min-width: 3.5rem; font-family: ui-monospace, monospace; font-weight: 700; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9rem; }
pre { overflow-x: auto; padding: 0.75rem; border-radius: 6px; background: #f2f2f2; max-height: 24rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.2rem 0.75rem 0.2rem 0; vertical-align: top; }
details { margin: 0.25rem 0; }
summary { cursor: pointer; }
@media (prefers-color-scheme: dark) {
  :root { color: #ececec; background: #141414; }
  a { color: #9cc0ff; }
  pre { background: #202020; }
}`;

/** The Content-Security-Policy of the reference page: nothing but its own style. */
export const DOCS_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

function renderOperation(method: string, path: string, op: Operation): string {
  const params = op.parameters ?? [];
  const body = op.requestBody && Object.values(op.requestBody.content)[0];
  const ok = op.responses['200']?.content && Object.values(op.responses['200'].content)[0];
  const errors = Object.entries(op.responses).filter(([status]) => status !== '200');
  return `<section class="operation" id="${escapeHtml(op.operationId)}" aria-labelledby="${escapeHtml(op.operationId)}-title">
<h3 id="${escapeHtml(op.operationId)}-title"><span class="method">${method.toUpperCase()}</span> <code>/api${escapeHtml(path)}</code></h3>
<p>${prose(op.summary)}. ${op.security ? 'Signed-in members only.' : 'Open to anyone.'}</p>
${
  params.length > 0
    ? `<table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th></tr></thead><tbody>${params
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('')}</tbody></table>`
    : ''
}
${body ? `<details><summary>Request body (JSON)</summary>${schemaBlock(body.schema)}</details>` : ''}
${ok ? `<details><summary>Answer (200)</summary>${schemaBlock(ok.schema)}</details>` : ''}
<p>Errors: ${errors.map(([status, r]) => `<strong>${escapeHtml(status)}</strong> ${prose(r.description)}`).join('; ')}.</p>
</section>`;
}

/** The reference page: every operation of the document, by group, as plain HTML. */
export function renderApiDocs(document: Document): string {
  const byGroup = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods) as Array<[string, Operation]>) {
      const group = op.tags[0] ?? 'other';
      byGroup.set(group, [...(byGroup.get(group) ?? []), renderOperation(method, path, op)]);
    }
  }
  // What a client calls first; the operational endpoints last.
  const groups = [...byGroup.keys()].sort((a, b) => Number(a === 'operations') - Number(b === 'operations'));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Porpoise API reference</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Porpoise API reference</h1>
<p>Version ${escapeHtml(document.info.version)}. ${prose(document.info.description)} The same description as a machine-readable OpenAPI 3.1 document: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<nav aria-label="Groups"><ul>${groups.map((g) => `<li><a href="#group-${escapeHtml(g)}">${escapeHtml(g)}</a></li>`).join('')}</ul></nav>
</header>
<main>
${groups
  .map(
    (g) =>
      `<section aria-labelledby="group-${escapeHtml(g)}"><h2 id="group-${escapeHtml(g)}">${escapeHtml(g)}</h2>${byGroup.get(g)!.join('\n')}</section>`,
  )
  .join('\n')}
</main>
</body>
</html>`;
}
