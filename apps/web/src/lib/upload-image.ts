import { LIMITS, MESSAGES, type API_ROUTES, type ImageSize } from '@porpoise/core';
import { ApiError, userFacingError } from './api-client';

/**
 * The upload's address: the contract's route under the API's prefix, as api-client.ts builds
 * it (checked against the table by type, so the table stays out of the bundle).
 */
const UPLOAD_URL = '/api/uploads' satisfies `/api${(typeof API_ROUTES)['uploadImage']['path']}`;

/** What an upload reports while its bytes go out: the share sent (0 to 1), or null when the browser cannot tell. */
export type UploadProgress = { phase: 'sending'; sent: number | null } | { phase: 'processing' };

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

function errorOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'string') {
      return parsed.error;
    }
  } catch {
    // Not JSON: a proxy's page, say. There is no message to show.
  }
  return null;
}

/**
 * Uploads an image for a post (docs/product.md section 14): `POST /api/uploads`, multipart,
 * one file field `file`, with the session cookie and the api client's headers. fetch() has
 * no upload progress, so this is an XMLHttpRequest. Resolves with the stored image's url and
 * size; rejects with an ApiError as the api client does (status 0 when no answer arrived),
 * or with an AbortError when `signal` aborts. A file past 5 MB is refused here, unsent.
 */
export function uploadImage(file: Blob, { onProgress, signal }: UploadOptions = {}): Promise<ImageSize> {
  if (file.size > LIMITS.imageBytesMax) {
    return Promise.reject(new ApiError(413, MESSAGES.imageTooLarge, MESSAGES.imageTooLarge));
  }
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    // Same origin: the session cookie goes with it (as fetch's credentials: 'same-origin'), and the
    // browser adds the Origin and Sec-Fetch headers the server's cross-site guard reads.
    request.open('POST', UPLOAD_URL);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) =>
      onProgress?.({ phase: 'sending', sent: event.lengthComputable ? event.loaded / event.total : null });
    // Every byte is out: the server now checks and re-encodes the image.
    request.upload.onload = () => onProgress?.({ phase: 'processing' });
    const abort = () => request.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    request.onload = () => {
      done();
      const body = request.responseText;
      if (request.status >= 200 && request.status < 300) {
        try {
          resolve(JSON.parse(body) as ImageSize);
        } catch {
          reject(new ApiError(request.status, null, `POST ${UPLOAD_URL} answered something other than JSON`));
        }
        return;
      }
      const message = errorOf(body);
      const log = request.status < 500 ? console.debug : console.error;
      log(`POST ${UPLOAD_URL} failed with status ${request.status}:`, message ?? body);
      reject(
        new ApiError(request.status, message, message ?? `POST ${UPLOAD_URL} failed with status ${request.status}`),
      );
    };
    request.onerror = () => {
      done();
      console.error(`POST ${UPLOAD_URL} failed: no answer`);
      reject(new ApiError(0, null, MESSAGES.unavailable));
    };
    request.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    const body = new FormData();
    body.append('file', file, file instanceof File ? file.name : 'image');
    request.send(body);
  });
}

/**
 * The text to show for a failed upload: the server's own message for a refusal (the kind, the
 * size, the pixels, the rate limit) and for 503 'Too many images are being processed: try
 * again in a moment'; otherwise that the service is unavailable.
 */
export function uploadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 503 && error.serverMessage !== null) return error.serverMessage;
  return userFacingError(error, MESSAGES.unavailable);
}
