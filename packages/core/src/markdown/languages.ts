/**
 * The languages a fenced code block is highlighted in (docs/product.md section 8), by the
 * name of their highlight.js grammar, and the names people write after the fence.
 * Anything else is shown as plain text.
 */
export const CODE_LANGUAGES = [
  'javascript',
  'typescript',
  'python',
  'java',
  'c',
  'cpp',
  'csharp',
  'go',
  'rust',
  'sql',
  'bash',
  'json',
  'yaml',
  'xml',
  'css',
] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

const ALIASES: Readonly<Record<string, CodeLanguage>> = {
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  python3: 'python',
  h: 'c',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  golang: 'go',
  rs: 'rust',
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  yml: 'yaml',
  html: 'xml',
  svg: 'xml',
};

const KNOWN: ReadonlySet<string> = new Set(CODE_LANGUAGES);

/** The grammar for a fence's info string ("ts", "Python title=x"), or '' for plain text. */
export function codeLanguage(info: string): CodeLanguage | '' {
  const name = (info.trim().split(/\s/, 1)[0] ?? '').toLowerCase();
  if (KNOWN.has(name)) return name as CodeLanguage;
  return Object.hasOwn(ALIASES, name) ? (ALIASES[name] as CodeLanguage) : '';
}

/** What a code block's label says for each grammar. */
export const CODE_LANGUAGE_LABELS: Readonly<Record<CodeLanguage, string>> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  csharp: 'C#',
  go: 'Go',
  rust: 'Rust',
  sql: 'SQL',
  bash: 'Shell',
  json: 'JSON',
  yaml: 'YAML',
  xml: 'HTML/XML',
  css: 'CSS',
};

/**
 * Whether a block is highlighted: highlight.js's time grows with the square of a long
 * unbroken token (30,000 characters of one word took seconds in a browser), so a block
 * over 10,000 characters, or with a line over 1,000, is shown plain: all of it, uncoloured.
 */
export function highlightable(code: string): boolean {
  if (code.length > 10_000) return false;
  let lineStart = 0;
  for (;;) {
    const end = code.indexOf('\n', lineStart);
    if ((end < 0 ? code.length : end) - lineStart > 1_000) return false;
    if (end < 0) return true;
    lineStart = end + 1;
  }
}
