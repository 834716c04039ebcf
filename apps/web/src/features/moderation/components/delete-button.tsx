import { useId, useRef } from 'react';

/**
 * 'Delete' asks first (docs/product.md section 5): a native modal dialog 'Delete this post?' that
 * keeps focus inside, starts on 'Cancel', closes on Escape and gives focus back to the button.
 */
export function DeleteButton({
  post,
  what,
  busy,
  onConfirm,
}: {
  /** 'Answer by {author}': what the dialog says it deletes. */
  post: string;
  /** The button's hidden words: 'the answer by {author}'. */
  what: string;
  busy: boolean;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  function open() {
    if (busy) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  }
  return (
    <>
      <button type="button" className="button" aria-haspopup="dialog" onClick={open} aria-disabled={busy}>
        Delete<span className="visually-hidden"> {what}</span>
      </button>
      <dialog
        ref={dialog}
        className="flag-dialog review-card__delete-dialog"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <h2 id={titleId} className="flag-dialog__title">
          Delete this post?
        </h2>
        <p id={textId}>{post}: it leaves every list and page at once.</p>
        <div className="flag-dialog__actions">
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            Delete
          </button>
          <button type="button" className="button" ref={cancel} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
