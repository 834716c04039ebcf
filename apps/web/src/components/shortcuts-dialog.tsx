import { useEffect, useId, useRef } from 'react';

/** Each shortcut and what it does (docs/product.md section 12), in the order the list shows them. */
const SHORTCUTS: [key: string, does: string][] = [
  ['?', 'Show this list of shortcuts'],
  ['/', 'Search questions'],
  ['a', 'Ask a question'],
  ['j', 'Next question in the list (/home)'],
  ['k', 'Previous question in the list (/home)'],
  ['Enter', 'Open the focused question'],
  ['Escape', 'Close this list'],
];

/**
 * The 'Keyboard shortcuts' dialog: opened by '?' (hooks/use-keyboard-shortcuts.ts), modal, and
 * closed by Escape or its button, focus going back where it was. Loaded when first opened.
 */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    // Taken away while open (the setting turned off): closed first, so the focus goes back.
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="flag-dialog shortcuts-dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} className="flag-dialog__title">
        Keyboard shortcuts
      </h2>
      <dl className="shortcuts-dialog__list">
        {SHORTCUTS.map(([key, does]) => (
          <div key={key} className="shortcuts-dialog__item">
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <p className="muted shortcuts-dialog__note">
        Shortcuts wait while you type in a field. Turn them off in Accessibility settings.
      </p>
      <div className="flag-dialog__actions">
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
