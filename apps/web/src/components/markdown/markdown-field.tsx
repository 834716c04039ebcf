import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ImageSize } from '@porpoise/core';
import { Field } from '@/components/field';
import { revealField } from '@/lib/reveal-field';
import { useMentionSuggestions } from '../mention-suggestions';
import { useImageComposer } from './image-composer';
import { Markdown } from './markdown';

export interface MarkdownFieldProps {
  id: string;
  name: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  attempt: number;
  rows?: number;
  /** Suggest usernames as `@name` is typed (docs/product.md section 11). */
  mentions?: boolean;
  /**
   * Images in the text (docs/product.md section 14: questions and answers only): 'Add image',
   * and pasted or dropped images. `known`: the images the post already embeds (an edit's),
   * with their sizes, so the preview shows them as the question page does.
   */
  images?: boolean | { known: readonly ImageSize[] };
}

const NO_IMAGES: readonly ImageSize[] = [];

/**
 * A post's Markdown text with a 'Write' / 'Preview' pair (docs/product.md section 8): the
 * preview is the very component the question page shows. A failed submit on the field
 * brings the text area back, focused, so its error is seen beside what has to change.
 */
export function MarkdownField({
  id,
  name,
  label,
  hint,
  value,
  onChange,
  error,
  attempt,
  rows = 8,
  mentions = false,
  images = false,
}: MarkdownFieldProps) {
  // The submit attempt during which 'Preview' was pressed, or null while writing.
  const [previewedAt, setPreviewedAt] = useState<number | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const previewId = useId();
  // A later submit that failed on this field ends the preview: the text area is back in this
  // very render, and focused once drawn (the form's own focus found it hidden).
  const failedWhilePreviewing = previewedAt !== null && error !== null && attempt !== previewedAt;
  const previewing = previewedAt !== null && !failedWhilePreviewing;
  const mention = useMentionSuggestions({ control: textarea, enabled: mentions && !previewing, value, onChange });
  const composer = useImageComposer({
    enabled: images !== false,
    textarea,
    value,
    onChange,
    onInserted: () => setPreviewedAt(null),
  });
  // The preview's image sizes: the post's own, and those uploaded here since.
  const known = typeof images === 'object' ? images.known : NO_IMAGES;
  const { uploaded } = composer;
  const sizes = useMemo(() => (uploaded.length === 0 ? known : [...known, ...uploaded]), [known, uploaded]);
  // The submit attempt whose failure ended the preview: the text area is focused once drawn.
  const [endedAt, setEndedAt] = useState<number | null>(null);
  if (failedWhilePreviewing) {
    setPreviewedAt(null);
    setEndedAt(attempt);
  }
  useEffect(() => {
    if (endedAt === null) return;
    // Unless the form focused another field that failed before this one.
    const active = document.activeElement;
    const onField = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
    if (!onField) revealField(textarea.current);
  }, [endedAt]);

  return (
    <Field id={id} label={label} hint={hint} error={error} attempt={attempt}>
      {(control) => (
        <div className="md-field">
          <div className="md-field__bar">
            <div className="md-field__modes" role="group" aria-label="Write or preview">
              <button
                type="button"
                className="md-field__mode"
                aria-pressed={!previewing}
                onClick={() => setPreviewedAt(null)}
              >
                Write
              </button>
              <button
                type="button"
                className="md-field__mode"
                aria-pressed={previewing}
                aria-controls={previewId}
                onClick={() => setPreviewedAt(attempt)}
              >
                Preview
              </button>
            </div>
            {composer.button}
          </div>
          <div className="suggest">
            <textarea
              {...control}
              {...mention.controlProps}
              {...composer.controlProps}
              ref={textarea}
              className="field__input field__input--multiline"
              name={name}
              value={value}
              rows={rows}
              hidden={previewing}
              onChange={(event) => {
                onChange(event.target.value);
                mention.typed(event.target.value, event.target.selectionStart);
              }}
              onKeyDown={(event) => mention.handleKey(event)}
            />
            {mention.list}
          </div>
          <div id={previewId} className="md-field__preview" role="region" aria-label="Preview" hidden={!previewing}>
            {!previewing ? null : value.trim() === '' ? (
              <p className="muted">Nothing to preview yet.</p>
            ) : (
              <Markdown text={value} images={sizes} />
            )}
          </div>
          {composer.panel}
        </div>
      )}
    </Field>
  );
}
