import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { callApi } from '@/lib/api-client';
import { insertMention, mentionAt, type MentionAtCaret } from '@/lib/mention-at';
import './suggest-field.css';

type TextControl = HTMLTextAreaElement | HTMLInputElement;

/** What a text control takes to offer mention suggestions. */
export interface MentionControlProps {
  'aria-autocomplete'?: 'list';
  'aria-controls'?: string;
  'aria-activedescendant'?: string;
  onSelect: () => void;
  onBlur: () => void;
}

export interface MentionSuggestions<E extends TextControl> {
  /** Spread on the control (the textbox keeps its role: a textarea may not be a combobox). */
  controlProps: MentionControlProps;
  /** Call from the control's onChange with the new value (and its caret). */
  typed: (value: string, caret: number | null) => void;
  /** Call first in the control's onKeyDown: true when a key was the list's (then nothing else should act on it). */
  handleKey: (event: KeyboardEvent<E>) => boolean;
  /** The listbox and its announcement: place it right after the control, inside a `.suggest` box. */
  list: ReactNode;
}

/** Other members whose username starts with `prefix` (the server's own list, at most ten). */
async function suggestUsernames(prefix: string, signal: AbortSignal): Promise<string[]> {
  const found = await callApi('GET /profile/suggest', { query: { prefix }, signal });
  return found.map((user) => user.username);
}

/**
 * Username suggestions for `@name` in a post's text (docs/product.md section 11): typing '@'
 * and at least one username character opens a listbox of members whose names start so. The
 * textbox points at the highlighted option (aria-activedescendant), as in the combobox
 * pattern; ArrowDown and ArrowUp move, Enter or Tab inserts '@username ', Escape closes, a
 * click picks too. Focus stays in the text throughout. Off (`enabled` false), it does nothing.
 */
export function useMentionSuggestions<E extends TextControl>({
  control: ref,
  enabled,
  value,
  onChange,
  placement = 'below',
}: {
  /** The text control (its caret is read, and set after a pick). */
  control: RefObject<E | null>;
  enabled: boolean;
  value: string;
  onChange: (value: string) => void;
  /** Where the list opens: under the text, or over it (a send box at the bottom of a conversation). */
  placement?: 'below' | 'above';
}): MentionSuggestions<E> {
  const listId = `${useId()}-mentions`;
  const optionId = (index: number) => `${listId}-${index}`;
  const [mention, setMention] = useState<MentionAtCaret | null>(null);
  const [options, setOptions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const caretAfterPick = useRef<number | null>(null);
  /**
   * The prefix whose list was closed by Escape or by leaving the text: its suggestions, if
   * they arrive afterwards, do not open it again (typing on, a new prefix, does).
   */
  const dismissedFor = useRef<string | null>(null);

  const prefix = mention?.prefix ?? null;
  useEffect(() => {
    // Typed on: a list closed before may open again.
    dismissedFor.current = null;
    if (prefix === null) return;
    const controller = new AbortController();
    suggestUsernames(prefix, controller.signal).then(
      (found) => {
        // A lone suggestion that is what was typed has nothing to complete.
        const shown = found.length === 1 && found[0]?.toLowerCase() === prefix.toLowerCase() ? [] : found;
        setOptions(shown);
        setActive(0);
        setOpen(shown.length > 0 && dismissedFor.current !== prefix);
      },
      () => {
        // No list is no error of the text's: typing goes on without one.
        if (!controller.signal.aborted) setOpen(false);
      },
    );
    return () => controller.abort();
  }, [prefix]);

  useLayoutEffect(() => {
    const caret = caretAfterPick.current;
    if (caret === null || ref.current === null) return;
    caretAfterPick.current = null;
    ref.current.setSelectionRange(caret, caret);
  }, [ref, value]);

  /** Closes the list for what is typed now, suggestions still on their way included. */
  function dismiss() {
    dismissedFor.current = prefix;
    setOpen(false);
  }

  function close() {
    setMention(null);
    setOpen(false);
    setOptions((current) => (current.length === 0 ? current : []));
  }

  /** Reads the mention at the caret again (after typing, or the caret moved). */
  function follow(text: string, caret: number | null) {
    if (!enabled) return;
    const found = caret === null ? null : mentionAt(text, caret);
    if (found === null) {
      if (mention !== null) close();
      return;
    }
    if (found.start !== mention?.start || found.end !== mention.end || found.prefix !== mention.prefix) {
      setMention(found);
    }
  }

  function pick(username: string) {
    if (mention === null) return;
    const next = insertMention(value, mention, username);
    caretAfterPick.current = next.caret;
    close();
    onChange(next.value);
  }

  const expanded = enabled && open && options.length > 0 && mention !== null;

  function handleKey(event: KeyboardEvent<E>): boolean {
    if (event.nativeEvent.isComposing) return false;
    if (!expanded) {
      // Escape before the list opened: suggestions on their way do not open it (the key is
      // not the list's, and goes on to whatever else it closes).
      if (event.key === 'Escape') dismissedFor.current = prefix;
      return false;
    }
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + count) % count);
      return true;
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      const username = options[active];
      if (username === undefined) return false;
      event.preventDefault();
      pick(username);
      return true;
    }
    if (event.key === 'Escape') {
      // Closes the list only: nothing around it (a dialog) closes with it.
      event.preventDefault();
      event.stopPropagation();
      dismiss();
      return true;
    }
    return false;
  }

  const controlProps: MentionControlProps = {
    ...(enabled ? { 'aria-autocomplete': 'list' as const } : {}),
    ...(expanded ? { 'aria-controls': listId, 'aria-activedescendant': optionId(active) } : {}),
    onSelect: () => {
      const control = ref.current;
      if (control !== null && control.selectionStart === control.selectionEnd)
        follow(control.value, control.selectionStart);
    },
    onBlur: dismiss,
  };

  const list = enabled ? (
    <>
      <ul
        className={
          placement === 'above' ? 'suggest__list mention-list mention-list--above' : 'suggest__list mention-list'
        }
        id={listId}
        role="listbox"
        aria-label="Usernames"
        hidden={!expanded}
      >
        {options.map((username, index) => (
          <li
            key={username}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className="suggest__option"
            // The text keeps focus (and its caret) while the pointer picks.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(username)}
          >
            @{username}
          </li>
        ))}
      </ul>
      <p className="visually-hidden" role="status">
        {expanded
          ? `${options.length} ${options.length === 1 ? 'username' : 'usernames'} suggested: arrow keys choose, Enter or Tab inserts, Escape closes.`
          : ''}
      </p>
    </>
  ) : null;

  return { controlProps, typed: follow, handleKey, list };
}
