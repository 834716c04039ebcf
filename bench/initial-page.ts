// What a browser downloads to show /home, counted as the server sends it: the page, then the
// scripts and styles it names, each asked for with `Accept-Encoding: br, gzip` and counted in
// bytes of body on the wire (compressed or not, whatever the server chose), not a gzip the
// bench makes itself.
import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const ACCEPT_ENCODING = 'br, gzip';
const decoders: Record<string, (body: Buffer) => Promise<Buffer>> = {
  br: promisify(zlib.brotliDecompress),
  gzip: promisify(zlib.gunzip),
};

interface Served {
  /** Body bytes as received, before any decoding. */
  wireBytes: number;
  encoding: string;
  body: Buffer;
}

/** GETs `url` with node:http, which (unlike fetch) hands over the body undecoded. */
function getServed(url: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`${url} answered ${response.statusCode}`));
          const body = Buffer.concat(chunks);
          resolve({ wireBytes: body.length, encoding: response.headers['content-encoding'] ?? 'identity', body });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

export interface InitialPage {
  htmlBytes: number;
  jsBytes: number;
  cssBytes: number;
  /** Content-Encodings the page and its files came with, e.g. ['br']. */
  encodings: string[];
}

/** Downloads `path` from `baseUrl` and the module scripts and styles it names, as a browser would. */
export async function measureInitialPage(baseUrl: string, path = '/home'): Promise<InitialPage> {
  const page = await getServed(new URL(path, baseUrl).href);
  const decode = decoders[page.encoding];
  const html = (decode ? await decode(page.body) : page.body).toString('utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  const served = await Promise.all(files.map((file) => getServed(new URL(file, baseUrl).href)));
  const sum = (extension: string) =>
    served.reduce((total, file, i) => total + (files[i]!.endsWith(extension) ? file.wireBytes : 0), 0);
  return {
    htmlBytes: page.wireBytes,
    jsBytes: sum('.js'),
    cssBytes: sum('.css'),
    encodings: [...new Set([page, ...served].map((file) => file.encoding))],
  };
}

/** The bench's note on it. */
export function describeInitialPage(page: InitialPage): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return `Initial JavaScript for /home: ${kb(page.jsBytes)} as served to a browser (Accept-Encoding: ${ACCEPT_ENCODING}; sent ${page.encodings.join(', ')}) (target <= 110 KB); with the page (${kb(page.htmlBytes)}) and its CSS (${kb(page.cssBytes)}), ${kb(page.htmlBytes + page.jsBytes + page.cssBytes)}.`;
}
