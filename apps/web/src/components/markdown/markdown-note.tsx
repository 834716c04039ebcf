/** The line under a post's form that says how to format it. */
export function MarkdownNote() {
  return (
    <p className="q-form__note muted">
      Markdown: <code>**bold**</code>, <code>_italic_</code>, <code>`code`</code>, <code>```</code> on its own line
      around a code block (<code>```python</code> to name its language), and links as <code>[text](https://…)</code>.
      Images: <strong>Add image</strong>, or paste or drop one in the text.
    </p>
  );
}
