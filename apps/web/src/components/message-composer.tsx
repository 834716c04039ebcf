import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS, messageError } from '@porpoise/core';
import { FormError } from './form-error';

export interface MessageComposerProps {
  label: string;
  placeholder: string;
  buttonLabel: string;
  /** Sends the text; resolves with the message to show when it failed, or null. */
  onSend: (content: string) => Promise<string | null>;
}

/**
 * The send box of a conversation: Enter sends, Shift+Enter starts a new line, and blank
 * text is never sent (spec section 5). The box clears when the text is sent, never later,
 * and a text whose sending fails comes back.
 */
export function MessageComposer({ label, placeholder, buttonLabel, onSend }: MessageComposerProps) {
  const fieldId = useId();
  const errorId = useId();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  async function send() {
    if (pending || content.trim() === '') return;
    setAttempt((count) => count + 1);
    const invalid = messageError(content);
    setError(invalid);
    if (invalid !== null) return;
    // The box empties as the text leaves, so whatever is typed while it is on its way is the
    // next message and stays; a failed text comes back, ahead of anything typed since.
    const sent = content;
    setContent('');
    setPending(true);
    const failure = await onSend(sent);
    setPending(false);
    setError(failure);
    if (failure !== null) setContent((typed) => (typed === '' ? sent : `${sent}\n${typed}`));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    form.current?.requestSubmit();
  }

  return (
    <form ref={form} className="composer" onSubmit={handleSubmit} noValidate>
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      <p className="field__hint" id={`${fieldId}-hint`}>
        Enter sends; Shift+Enter starts a new line.
      </p>
      <div className="composer__row">
        <textarea
          id={fieldId}
          className="field__input composer__input"
          value={content}
          placeholder={placeholder}
          rows={2}
          maxLength={LIMITS.messageMax}
          onChange={(event) => setContent(event.target.value)}
          onKeyDown={handleKeyDown}
          aria-invalid={error !== null || undefined}
          aria-describedby={error === null ? `${fieldId}-hint` : `${fieldId}-hint ${errorId}`}
        />
        <button type="submit" className="button button--primary composer__send" aria-disabled={pending}>
          {buttonLabel}
        </button>
      </div>
      <FormError key={attempt} id={errorId} message={error} />
    </form>
  );
}
