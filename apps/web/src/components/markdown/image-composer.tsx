import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { MESSAGES, type ImageSize } from '@porpoise/core';
import { Field, FieldError, fieldErrorId } from '@/components/field';
import { uploadErrorText, uploadImage } from '@/lib/upload-image';
import { imageMarkdown, insertText } from './image-markdown';

/** What the file picker offers: the kinds the server takes (it reads the content, not this). */
export const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

type Step =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; sent: number | null; processing: boolean }
  | { kind: 'describing'; name: string; image: ImageSize; description: string; error: string | null };

/** Where the image goes in: the text area's cursor when the upload began, with the text it was in. */
interface Spot {
  at: number;
  text: string;
}

export interface ImageComposer {
  /** Spread on the text area: pasted and dropped images are uploaded. */
  controlProps: {
    onPaste: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
    onDragOver: (event: DragEvent<HTMLTextAreaElement>) => void;
    onDrop: (event: DragEvent<HTMLTextAreaElement>) => void;
    onFocus: () => void;
  };
  /** 'Add image' and its hidden file input: place it beside 'Write' / 'Preview'. */
  button: ReactNode;
  /** The upload's progress, then 'Describe this image', or the upload's error: place it below the text area. */
  panel: ReactNode;
  /** The images uploaded here, with their sizes (for the preview). */
  uploaded: readonly ImageSize[];
}

/**
 * Images in a post's text (docs/product.md section 14): 'Add image' opens the file picker,
 * and an image pasted or dropped on the text area is taken too. One upload at a time shows
 * its progress; then 'Describe this image' (required, empty at first) and 'Insert image' put
 * `![description](url)` in at the text area's cursor (where it was when the upload began,
 * unless the text has changed since), and the focus goes back to the text area just after
 * it. The server's message is shown when the upload fails.
 */
export function useImageComposer({
  enabled,
  textarea,
  value,
  onChange,
  onInserted,
}: {
  enabled: boolean;
  textarea: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  /** Called as the image goes in (the field goes back to 'Write', where the cursor is shown). */
  onInserted: () => void;
}): ImageComposer {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<{ message: string; count: number } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState('');
  const [uploaded, setUploaded] = useState<ImageSize[]>([]);
  const id = useId();
  const describeId = `${id}-describe`;
  const progressId = `${id}-progress`;
  const errorId = fieldErrorId(`${id}-upload`);
  const fileInput = useRef<HTMLInputElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const describeInput = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);
  const spot = useRef<Spot | null>(null);
  // Whether the text area has had the focus: until then its cursor means nothing, and an image goes at the end.
  const focusedOnce = useRef(false);
  // Where the focus goes once drawn: the describe field, the text area's caret, or 'Add image'.
  const focusNext = useRef<'describe' | 'add' | { caret: number } | null>(null);

  // An upload still going when the form goes away is cancelled.
  useEffect(() => () => upload.current?.abort(), []);

  // The post's form is held while an image is uploading or waiting for its description: a
  // post sent then would leave the image out without a word. The composer says why, and
  // the form's own submit handler (React's, at the root) never hears of it.
  const hold = useEffectEvent((event: SubmitEvent) => {
    if (step.kind === 'idle') return;
    event.preventDefault();
    event.stopPropagation();
    if (step.kind === 'describing') {
      setAttempt((count) => count + 1);
      setStep({ ...step, error: MESSAGES.imageNotInserted });
      describeInput.current?.focus();
    } else {
      fail(MESSAGES.imageStillUploading);
    }
  });
  useEffect(() => {
    const form = textarea.current?.form;
    if (!enabled || !form) return;
    const onSubmit = (event: SubmitEvent) => hold(event);
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [enabled, textarea]);

  useLayoutEffect(() => {
    const next = focusNext.current;
    if (next === null) return;
    if (next === 'describe') {
      focusNext.current = null;
      describeInput.current?.focus();
    } else if (next === 'add') {
      focusNext.current = null;
      addButton.current?.focus();
    } else {
      const control = textarea.current;
      // Once the text area shows the new text ('Write' again, if it was 'Preview').
      if (control === null || control.hidden || control.value.length < next.caret) return;
      focusNext.current = null;
      control.focus();
      control.setSelectionRange(next.caret, next.caret);
    }
  });

  /** The text area's cursor now (its end if it never had the focus). */
  function cursor(): number {
    const control = textarea.current;
    if (control === null || !focusedOnce.current) return value.length;
    return control.selectionEnd;
  }

  /** True when the focus is on the composer's own controls (or nowhere): the next step may take it. */
  function focusInComposer(): boolean {
    const active = document.activeElement;
    return (
      active === null ||
      active === document.body ||
      active === addButton.current ||
      (panelRef.current?.contains(active) ?? false)
    );
  }

  function fail(message: string) {
    setError((last) => ({ message, count: (last?.count ?? 0) + 1 }));
  }

  function start(file: File) {
    if (step.kind !== 'idle') return;
    setError(null);
    spot.current = { at: cursor(), text: value };
    const name = file.name === '' ? 'image' : file.name;
    setStep({ kind: 'uploading', name, sent: 0, processing: false });
    setStatus(`Uploading ${name}`);
    const controller = new AbortController();
    upload.current = controller;
    uploadImage(file, {
      signal: controller.signal,
      onProgress: (progress) =>
        setStep((current) =>
          current.kind !== 'uploading'
            ? current
            : progress.phase === 'processing'
              ? { ...current, sent: 1, processing: true }
              : { ...current, sent: progress.sent },
        ),
    }).then(
      (image) => {
        if (upload.current !== controller) return;
        upload.current = null;
        if (focusInComposer()) focusNext.current = 'describe';
        // (A 'wait for the image' said meanwhile is over.)
        setError(null);
        setStep({ kind: 'describing', name, image, description: '', error: null });
        setStatus(`${name} uploaded: describe it, then insert it`);
      },
      (cause: unknown) => {
        if (upload.current !== controller) return;
        upload.current = null;
        if (focusInComposer()) focusNext.current = 'add';
        setStep({ kind: 'idle' });
        setStatus('');
        fail(uploadErrorText(cause));
      },
    );
  }

  function cancel() {
    upload.current?.abort();
    upload.current = null;
    focusNext.current = 'add';
    setStep({ kind: 'idle' });
    setStatus('Upload cancelled');
  }

  function discard() {
    focusNext.current = 'add';
    setStep({ kind: 'idle' });
    setStatus('Image discarded');
  }

  function insert() {
    if (step.kind !== 'describing') return;
    if (step.description.trim() === '') {
      setAttempt((count) => count + 1);
      setStep({ ...step, error: MESSAGES.imageDescription });
      describeInput.current?.focus();
      return;
    }
    // Where the cursor was when the upload began, unless the text has changed since: then where it is now.
    const at = spot.current !== null && spot.current.text === value ? spot.current.at : cursor();
    const { text, caret } = insertText(value, at, imageMarkdown(step.description, step.image.url));
    onChange(text);
    setUploaded((images) => [...images.filter((image) => image.url !== step.image.url), step.image]);
    focusNext.current = { caret };
    spot.current = null;
    setStep({ kind: 'idle' });
    setStatus('Image inserted');
    onInserted();
  }

  function pick() {
    if (step.kind !== 'idle') return;
    fileInput.current?.click();
  }

  const busy = step.kind !== 'idle';
  const controlProps: ImageComposer['controlProps'] = {
    onPaste: (event) => {
      if (!enabled || busy) return;
      const data = event.clipboardData;
      const image = [...data.files].find((file) => file.type.startsWith('image/'));
      // Text copied with a picture of itself (a spreadsheet's cells) is pasted as text.
      if (image === undefined || data.getData('text/plain').trim() !== '') return;
      event.preventDefault();
      start(image);
    },
    // A file dropped while another image is on its way is refused here: left to the browser, it
    // would open the file in place of the page (and the post's draft with it).
    onDragOver: (event) => {
      if (!enabled || !event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    },
    onDrop: (event) => {
      const file = event.dataTransfer.files[0];
      if (!enabled || file === undefined) return;
      event.preventDefault();
      if (!busy) start(file);
    },
    onFocus: () => {
      focusedOnce.current = true;
    },
  };

  const button = enabled ? (
    <>
      <button
        ref={addButton}
        type="button"
        className="md-field__mode md-image__add"
        aria-disabled={busy || undefined}
        aria-describedby={error === null ? undefined : errorId}
        onClick={pick}
      >
        Add image
      </button>
      <input
        ref={fileInput}
        type="file"
        accept={IMAGE_TYPES}
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Emptied, so that the same file chosen again is taken again.
          event.target.value = '';
          if (file !== undefined) start(file);
        }}
      />
    </>
  ) : null;

  const panel = enabled ? (
    <div ref={panelRef} className="md-image">
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {step.kind === 'uploading' ? (
        <div className="md-image__progress">
          <label htmlFor={progressId} className="md-image__label">
            {step.processing ? `Processing ${step.name}` : `Uploading ${step.name}`}
          </label>
          <progress
            id={progressId}
            className="md-image__bar"
            max={1}
            {...(step.sent === null || step.processing ? {} : { value: step.sent })}
          />
          {step.sent === null || step.processing ? null : (
            <span className="md-image__percent" aria-hidden="true">
              {Math.round(step.sent * 100)}%
            </span>
          )}
          <button type="button" className="button md-image__cancel" onClick={cancel}>
            Cancel upload
          </button>
        </div>
      ) : step.kind === 'describing' ? (
        <div
          className="md-image__describe"
          role="group"
          aria-label={`Uploaded image ${step.name}`}
          onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
            // Enter in the description inserts the image; it never submits the post's form.
            // (Not the Enter that ends an input method's composition: that one picks the characters.
            // Safari says so by key code 229 alone.)
            const composing = event.nativeEvent.isComposing || event.nativeEvent.keyCode === 229;
            if (event.key === 'Enter' && !composing && event.target === describeInput.current) {
              event.preventDefault();
              insert();
            }
          }}
        >
          <img
            className="md-image__thumb"
            src={step.image.url}
            alt=""
            width={step.image.width}
            height={step.image.height}
            decoding="async"
          />
          <div className="md-image__fields">
            <Field id={describeId} label="Describe this image" error={step.error} attempt={attempt}>
              {(control) => (
                <input
                  {...control}
                  ref={describeInput}
                  className="field__input"
                  type="text"
                  name="image-description"
                  autoComplete="off"
                  required
                  value={step.description}
                  onChange={(event) => setStep({ ...step, description: event.target.value })}
                />
              )}
            </Field>
            <div className="md-image__actions">
              <button type="button" className="button" onClick={insert}>
                Insert image
              </button>
              <button type="button" className="button" onClick={discard}>
                Discard image
              </button>
            </div>
          </div>
        </div>
      ) : null}
      {error === null ? null : <FieldError key={error.count} id={errorId} message={error.message} />}
    </div>
  ) : null;

  return { controlProps, button, panel, uploaded };
}
