import { Writable } from 'node:stream';

/** A log stream for the app under test (startTestApp's or buildApp's logStream) that keeps each line it is given. */
export function captureLog(): { lines: string[]; logStream: Writable } {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { lines, logStream };
}
