import { CODE_LANGUAGE_LABELS, highlightable, type CodeLanguage } from '@porpoise/core/markdown';
import type { ElementContent, Root } from 'hast';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { highlight } from './highlight';
import { useScrollsSideways } from './use-scrolls-sideways';

/** How long 'Copied' stays beside the button. */
const COPIED_FOR_MS = 2_000;
const COPY_FAILED = 'Copying failed: select the code and copy it';

/**
 * highlight.js's spans as React elements. Only `span` elements with highlight.js's own
 * classes are kept (an allow-list, as for the Markdown itself); text is always text.
 */
function toReact(nodes: readonly ElementContent[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element' || node.tagName !== 'span') return null;
    const classes = (Array.isArray(node.properties.className) ? node.properties.className : [])
      .map(String)
      .filter((name) => name.startsWith('hljs-'));
    return (
      <span key={index} className={classes.join(' ')}>
        {toReact(node.children)}
      </span>
    );
  });
}

/** The block's code highlighted once its grammar has loaded; until then (or for plain text) as is. */
function useHighlighted(language: CodeLanguage | '', code: string): Root | null {
  const [tree, setTree] = useState<{ code: string; language: string; root: Root } | null>(null);
  useEffect(() => {
    if (language === '' || !highlightable(code)) return;
    let current = true;
    highlight(language, code).then(
      (root) => {
        if (current) setTree({ code, language, root });
      },
      () => {
        // The grammar could not be fetched: the code stays plain, which is still all of it.
      },
    );
    return () => {
      current = false;
    };
  }, [language, code]);
  return tree !== null && tree.code === code && tree.language === language ? tree.root : null;
}

function CopyButton({ code }: { code: string }) {
  const [status, setStatus] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);
  // Emptied first, then set a moment later: a second copy is announced again.
  const show = (text: string) => {
    if (!mounted.current) return;
    setStatus('');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setStatus(text);
      timer.current = setTimeout(() => setStatus(''), COPIED_FOR_MS);
    }, 50);
  };
  const copy = () => {
    // No clipboard outside a secure context (a plain-http address other than localhost).
    if (navigator.clipboard === undefined) return show(COPY_FAILED);
    navigator.clipboard.writeText(code).then(
      () => show('Copied'),
      () => show(COPY_FAILED),
    );
  };
  return (
    <>
      <span className="code-block__status" role="status">
        {status}
      </span>
      <button type="button" className="button button--small code-block__copy" onClick={copy}>
        Copy
      </button>
    </>
  );
}

/** A fenced code block: its language, a 'Copy' button, and the code, highlighted when it can be. */
export function CodeBlock({ language, code }: { language: CodeLanguage | ''; code: string }) {
  // A trailing newline would draw an empty last line.
  const text = code.endsWith('\n') ? code.slice(0, -1) : code;
  const highlighted = useHighlighted(language, text);
  const label = language === '' ? 'Code' : CODE_LANGUAGE_LABELS[language];
  const [scroller, scrolls] = useScrollsSideways<HTMLPreElement>();
  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span className="code-block__language">{label}</span>
        <CopyButton code={text} />
      </div>
      <pre
        ref={scroller}
        className="code-block__code"
        tabIndex={scrolls ? 0 : undefined}
        role="group"
        aria-label={`${label} code`}
      >
        <code className={language === '' ? undefined : `hljs language-${language}`}>
          {highlighted === null ? text : toReact(highlighted.children as ElementContent[])}
        </code>
      </pre>
    </div>
  );
}
