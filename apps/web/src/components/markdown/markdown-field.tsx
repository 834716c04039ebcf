import { useEffect, useId, useRef, useState } from 'react';
import { Field } from '@/components/field';
import { revealField } from '@/lib/reveal-field';
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
}

/**
 * A post's Markdown text with a 'Write' / 'Preview' pair (product.md section 8): the
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
}: MarkdownFieldProps) {
  const [previewing, setPreviewing] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const previewId = useId();
  const showsError = error !== null;

  // The form focuses the field when its submit fails; a hidden text area cannot take it.
  useEffect(() => {
    if (!showsError) return;
    setPreviewing((was) => {
      if (was) queueMicrotask(() => revealField(textarea.current));
      return false;
    });
  }, [showsError, attempt]);

  return (
    <Field id={id} label={label} hint={hint} error={error} attempt={attempt}>
      {(control) => (
        <div className="md-field">
          <div className="md-field__modes" role="group" aria-label={`${label}: write or preview`}>
            <button
              type="button"
              className="md-field__mode"
              aria-pressed={!previewing}
              onClick={() => setPreviewing(false)}
            >
              Write
            </button>
            <button
              type="button"
              className="md-field__mode"
              aria-pressed={previewing}
              aria-controls={previewId}
              onClick={() => setPreviewing(true)}
            >
              Preview
            </button>
          </div>
          <textarea
            {...control}
            ref={textarea}
            className="field__input field__input--multiline"
            name={name}
            value={value}
            rows={rows}
            hidden={previewing}
            onChange={(event) => onChange(event.target.value)}
          />
          <div
            id={previewId}
            className="md-field__preview"
            role="region"
            aria-label={`Preview of ${label}`}
            hidden={!previewing}
          >
            {!previewing ? null : value.trim() === '' ? (
              <p className="muted">Nothing to preview yet.</p>
            ) : (
              <Markdown text={value} />
            )}
          </div>
        </div>
      )}
    </Field>
  );
}
