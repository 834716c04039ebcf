/**
 * Code highlighting by highlight.js through lowlight, which gives a tree of spans rather
 * than an HTML string. Each grammar is its own chunk, fetched the first time a block in
 * its language is shown (docs/product.md section 8).
 */
import type { CodeLanguage } from '@porpoise/core/markdown';
import type { Root } from 'hast';
import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';

type GrammarModule = { default: LanguageFn };

const GRAMMARS: Readonly<Record<CodeLanguage, () => Promise<GrammarModule>>> = {
  javascript: () => import('highlight.js/lib/languages/javascript'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  python: () => import('highlight.js/lib/languages/python'),
  java: () => import('highlight.js/lib/languages/java'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  go: () => import('highlight.js/lib/languages/go'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  bash: () => import('highlight.js/lib/languages/bash'),
  json: () => import('highlight.js/lib/languages/json'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  xml: () => import('highlight.js/lib/languages/xml'),
  css: () => import('highlight.js/lib/languages/css'),
};

const lowlight = createLowlight();
const registered = new Map<CodeLanguage, Promise<void>>();

function register(language: CodeLanguage): Promise<void> {
  let loading = registered.get(language);
  if (loading === undefined) {
    loading = GRAMMARS[language]().then((grammar) => lowlight.register(language, grammar.default));
    // A failed fetch (offline) is tried again the next time a block needs the grammar.
    loading.catch(() => registered.delete(language));
    registered.set(language, loading);
  }
  return loading;
}

/** The code as highlight.js's tree of spans, once its grammar has loaded. */
export async function highlight(language: CodeLanguage, code: string): Promise<Root> {
  await register(language);
  return lowlight.highlight(language, code);
}
