import { AlertIcon } from './icons';

/**
 * A form's error line, announced by screen readers (role="alert") and marked with an
 * icon and a prefix so it does not rely on colour. Give it a new `key` on each submit
 * so that the same message is announced again.
 */
export function FormError({ id, message }: { id?: string; message: string | null }) {
  if (message === null) return null;
  return (
    <p className="form-error" role="alert" id={id}>
      <AlertIcon className="form-error__icon" />
      <span>
        <span className="visually-hidden">Error: </span>
        {message}
      </span>
    </p>
  );
}
