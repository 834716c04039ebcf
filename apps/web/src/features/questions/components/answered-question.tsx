import { useId } from 'react';
import type { Question } from '@porpoise/core';
import { Markdown } from '@/components/markdown/markdown';

/**
 * The question being answered, above the answer form (docs/product.md section 5): its title and
 * its text, rendered by the question page's own Markdown renderer.
 */
export function AnsweredQuestion({ question }: { question: Question }) {
  const titleId = useId();
  return (
    <article className="q-panel answered-question" aria-labelledby={titleId}>
      <h2 id={titleId} className="answered-question__title">
        {question.title}
      </h2>
      <Markdown className="post__text" text={question.text} images={question.images} />
    </article>
  );
}
