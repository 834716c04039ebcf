/**
 * Focuses a form control and scrolls its whole field (label, hint, control) into view, so
 * the label a user needs to read is not left under the sticky header (WCAG 2.2, 2.4.11).
 * The page's scroll-padding-top keeps the header's height clear (styles/base.css).
 */
export function revealField(control: HTMLElement | null): void {
  if (control === null) return;
  control.focus({ preventScroll: true });
  const field = control.closest('.field') ?? control;
  field.scrollIntoView({ block: 'nearest' });
}
