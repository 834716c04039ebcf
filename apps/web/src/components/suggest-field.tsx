import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Field } from './field';
import './suggest-field.css';

/** One suggestion: the text it puts in the field, and what its option shows. */
export interface Suggestion {
  value: string;
  label: ReactNode;
}

export interface SuggestFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name: string;
  id?: string;
  hint?: string;
  error?: string | null;
  attempt?: number;
  required?: boolean;
  verbatim?: boolean;
  /**
   * 'word': the field holds words separated by whitespace (tags), and a pick completes the
   * word at the caret; 'whole': a pick replaces the whole value (a username).
   */
  mode: 'word' | 'whole';
  /** The longest text worth asking about (a name's limit): longer words get no suggestions. */
  maxLength: number;
  /** The suggestions for what is typed (the server's prefix search). */
  suggest: (prefix: string, signal: AbortSignal) => Promise<Suggestion[]>;
}

/** Where the word being typed starts and ends (at the caret), in a whitespace-separated value. */
function wordAt(value: string, caret: number): { start: number; end: number } {
  let start = caret;
  while (start > 0 && !/\s/.test(value.charAt(start - 1))) start -= 1;
  let end = caret;
  while (end < value.length && !/\s/.test(value.charAt(end))) end += 1;
  return { start, end };
}

/**
 * A text field that suggests as one types (docs/product.md section 5), following the WAI-ARIA
 * combobox pattern: the input is a combobox owning a listbox of options; ArrowDown and
 * ArrowUp move through them, Enter picks, Escape closes, a click picks too. Focus stays in
 * the input throughout.
 */
export function SuggestField({
  label,
  value,
  onChange,
  name,
  id,
  hint,
  error = null,
  attempt,
  required = false,
  verbatim = false,
  mode,
  maxLength,
  suggest,
}: SuggestFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const listId = `${inputId}-suggestions`;
  const optionId = (index: number) => `${listId}-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const [options, setOptions] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The text typed that the suggestions are for, and where it sits in the value. */
  const [query, setQuery] = useState<{ prefix: string; start: number; end: number } | null>(null);
  /** Where the caret goes once a pick is in the field. */
  const caretAfterPick = useRef<number | null>(null);
  // The latest fetcher, so that a caller's new function each render asks nothing again.
  const suggestRef = useRef(suggest);
  useLayoutEffect(() => {
    suggestRef.current = suggest;
  });
  // The option highlighted now, so that a list that arrives after an arrow key keeps it.
  const highlighted = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    highlighted.current = options[active]?.value;
  });

  // Ask for the typed prefix; a newer one aborts the request before it.
  useEffect(() => {
    if (query === null) return;
    const controller = new AbortController();
    suggestRef.current(query.prefix, controller.signal).then(
      (found) => {
        // A lone suggestion that is what was typed has nothing to complete: no list over the form.
        const typedAlready = found.length === 1 && found[0]?.value.toLowerCase() === query.prefix.toLowerCase();
        const shown = typedAlready ? [] : found;
        setOptions(shown);
        const kept = highlighted.current;
        setActive(kept === undefined ? -1 : shown.findIndex((option) => option.value === kept));
        setOpen(shown.length > 0);
      },
      () => {
        // A failed suggestion list is no error of the field's: typing goes on without one.
        if (!controller.signal.aborted) setOpen(false);
      },
    );
    return () => controller.abort();
  }, [query]);

  useLayoutEffect(() => {
    const caret = caretAfterPick.current;
    if (caret === null || !input.current) return;
    caretAfterPick.current = null;
    input.current.setSelectionRange(caret, caret);
  }, [value]);

  function typed(next: string, caret: number) {
    onChange(next);
    const { start, end } = mode === 'whole' ? { start: 0, end: next.length } : wordAt(next, caret);
    const prefix = mode === 'whole' ? next.trim() : next.slice(start, caret);
    // Nothing to ask about (or longer than any name): no list.
    const asked = prefix !== '' && prefix.length <= maxLength;
    setQuery(asked ? { prefix, start, end } : null);
    if (!asked) {
      setOptions([]);
      setOpen(false);
    }
  }

  function pick(option: Suggestion) {
    setOpen(false);
    setQuery(null);
    if (mode === 'whole' || query === null) {
      caretAfterPick.current = option.value.length;
      onChange(option.value);
      return;
    }
    // The word at the caret becomes the tag, followed by one space so the next can be typed.
    const rest = value.slice(query.end).replace(/^\s+/, '');
    const before = `${value.slice(0, query.start)}${option.value} `;
    caretAfterPick.current = before.length;
    onChange(`${before}${rest}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!open) {
        setOpen(true);
        setActive(step === 1 ? 0 : count - 1);
        return;
      }
      setActive((current) => (current === -1 ? (step === 1 ? 0 : count - 1) : (current + step + count) % count));
    } else if (event.key === 'Enter' && open && active >= 0) {
      const option = options[active];
      if (option === undefined) return;
      event.preventDefault();
      pick(option);
    } else if (event.key === 'Escape' && open) {
      // Closes the list only: nothing around it (a dialog) closes with it.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

  const expanded = open && options.length > 0;
  return (
    <Field id={inputId} label={label} hint={hint} error={error} attempt={attempt}>
      {(control) => (
        <div className="field__control suggest">
          <input
            {...control}
            ref={input}
            className="field__input"
            name={name}
            type="text"
            value={value}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            autoComplete="off"
            required={required}
            autoCapitalize={verbatim ? 'none' : undefined}
            spellCheck={verbatim ? false : undefined}
            onChange={(event) => typed(event.target.value, event.target.selectionStart ?? event.target.value.length)}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul className="suggest__list" id={listId} role="listbox" aria-label="Suggestions" hidden={!expanded}>
            {options.map((option, index) => (
              <li
                key={option.value}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="suggest__option"
                // The input keeps focus (and its caret) while the pointer picks.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
              >
                {option.label}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Field>
  );
}
