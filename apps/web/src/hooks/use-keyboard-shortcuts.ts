import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

/** A question row's link on /home, which 'j' and 'k' move between (features/questions: QuestionRow's `data-shortcut-row`). */
const SHORTCUT_ROW = 'data-shortcut-row';

/** Inputs that take no typed text: a key pressed on one can still be a shortcut. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Where typing goes: a key pressed there is text, never a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target.closest('[role="textbox"], [role="combobox"], [role="searchbox"]') !== null;
}

/** Set by '/' on a page without a search box: the search box takes the focus when /home opens, once. */
let searchFocusWanted = false;

/** Whether the search box should take the focus as it opens ('/' from another page); true once. */
export function takeSearchFocus(): boolean {
  const wanted = searchFocusWanted;
  searchFocusWanted = false;
  return wanted;
}

/** The next (+1) or previous (-1) question row from the focused one; the first when none is focused. */
function moveAmongRows(step: 1 | -1): void {
  const rows = [...document.querySelectorAll<HTMLElement>(`[${SHORTCUT_ROW}]`)];
  if (rows.length === 0) return;
  const at = rows.findIndex((row) => row === document.activeElement);
  const next = at === -1 ? 0 : Math.min(rows.length - 1, Math.max(0, at + step));
  rows[next]!.focus();
}

/**
 * Keyboard shortcuts (docs/product.md section 12): '?' opens the list of them, '/' goes to the
 * search box, 'a' to asking, 'j' and 'k' through the questions on /home (Enter opens the one
 * focused, as any link). None fire while typing in a field, with Ctrl, Alt or Meta held (Shift
 * makes '?'), while a dialog is open, or when `enabled` is false (the account's setting).
 * Answers whether the list is open, and a way to close it.
 */
export function useKeyboardShortcuts(enabled: boolean): { listOpen: boolean; closeList: () => void } {
  const navigate = useNavigate();
  const [listOpen, setListOpen] = useState(false);
  // Turned off while the list is open: it closes, and does not open again by itself.
  if (!enabled && listOpen) setListOpen(false);
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.altKey || event.metaKey) return;
      if (isTyping(event.target) || document.querySelector('dialog[open]') !== null) return;
      switch (event.key) {
        case '?':
          setListOpen(true);
          break;
        case '/': {
          const search = document.querySelector<HTMLInputElement>('form[role="search"] input[type="search"]');
          if (search !== null) search.focus();
          else {
            searchFocusWanted = true;
            void navigate(paths.home());
          }
          break;
        }
        case 'a':
          void navigate(paths.newQuestion());
          break;
        case 'j':
          moveAmongRows(1);
          break;
        case 'k':
          moveAmongRows(-1);
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled, navigate]);
  return { listOpen: listOpen && enabled, closeList: () => setListOpen(false) };
}
