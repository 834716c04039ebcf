import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useForm } from '@/hooks/use-form';
import { fieldErrorId } from './field';
import { LIMITS } from '@porpoise/core';
import { messageMarkdownError } from '@porpoise/core/markdown';
import { FormError } from './form-error';
import { useMentionSuggestions } from './mention-suggestions';

export interface MessageComposerProps {
  label: string;
  placeholder: string;
  buttonLabel: string;
  /** Sends the text; resolves with the message to show when it failed, or null. */
  onSend: (content: string) => Promise<string | null>;
  /** Suggest members' usernames as `@name` is typed (docs/product.md section 11): members' threads, not PorpChat. */
  mentions?: boolean;
}

/**
 * The send box of a conversation: Enter sends, Shift+Enter starts a new line, and blank
 * text is never sent (spec section 5). The box clears when the text is sent, never later,
 * and a text whose sending fails comes back.
 */
export function MessageComposer({ label, placeholder, buttonLabel, onSend, mentions = false }: MessageComposerProps) {
  const [content, setContent] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Over the box: it sits at the bottom of the conversation, often at the bottom of the window.
  const mention = useMentionSuggestions({
    control: textarea,
    enabled: mentions,
    value: content,
    onChange: setContent,
    placement: 'above',
  });
  const state = useForm<'content'>();
  const fieldId = state.fieldId('content');
  const errorId = fieldErrorId(fieldId);
  const error = state.errorOf('content');
  const form = useRef<HTMLFormElement>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Blank text is never sent, and says nothing.
    if (state.pending || content.trim() === '') return;
    void state.submit({
      validate: () => ({ content: messageMarkdownError(content) }),
      send: async () => {
        // The box empties as the text leaves, so whatever is typed while it is on its way is the
        // next message and stays; a failed text comes back, ahead of anything typed since.
        const sent = content;
        setContent('');
        const failure = await onSend(sent);
        if (failure === null) return;
        setContent((typed) => (typed === '' ? sent : `${sent}\n${typed}`));
        throw new Error(failure);
      },
      failureMessage: (cause) => (cause instanceof Error ? cause.message : String(cause)),
      stays: true,
      fieldOf: () => 'content',
    });
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // With the username list open, Enter inserts the name rather than sending.
    if (mention.handleKey(event)) return;
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
        <div className="suggest composer__box">
          <textarea
            id={fieldId}
            {...mention.controlProps}
            ref={textarea}
            className="field__input composer__input"
            value={content}
            placeholder={placeholder}
            rows={2}
            maxLength={LIMITS.messageMax}
            onChange={(event) => {
              setContent(event.target.value);
              mention.typed(event.target.value, event.target.selectionStart);
            }}
            onKeyDown={handleKeyDown}
            aria-invalid={error !== null || undefined}
            aria-describedby={error === null ? `${fieldId}-hint` : `${fieldId}-hint ${errorId}`}
          />
          {mention.list}
        </div>
        <button type="submit" className="button button--primary composer__send" aria-disabled={state.pending}>
          {buttonLabel}
        </button>
      </div>
      <FormError key={state.attempt} id={errorId} message={error} />
    </form>
  );
}
