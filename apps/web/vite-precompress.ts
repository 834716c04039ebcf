import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Text-like files; images and fonts in compressed formats (png, webp, woff2...) gain nothing. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map|wasm|ico)$/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `NAME.br` (brotli, quality 11) and `NAME.gz` (gzip, level 9) beside each
 * compressible file of the build, so the server sends them as they are instead of
 * compressing on every request. A copy no smaller than its file is not written (the
 * server then sends the file itself).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'porpoise-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After the bundle and the public/ files are all in outDir.
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const copies: [string, Buffer][] = [
            [
              '.br',
              await brotli(content, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
            ],
            ['.gz', await gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION })],
          ];
          for (const [extension, compressed] of copies) {
            if (compressed.length < content.length) await writeFile(file + extension, compressed);
          }
        }),
      );
    },
  };
}
