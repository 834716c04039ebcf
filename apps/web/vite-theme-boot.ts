import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Puts src/theme-boot.js first in the body as a classic (blocking) script, so the theme's
 * classes are set before the first paint (docs/product.md section 12: no flash of the wrong
 * colours). Built as a fingerprinted asset, cached for good like the rest; the page's CSP
 * allows no inline script.
 */
export function themeBoot(): Plugin {
  const file = path.join(import.meta.dirname, 'src', 'theme-boot.js');
  let source = '';
  let built = '';
  let isBuild = false;
  return {
    name: 'porpoise-theme-boot',
    configResolved(config) {
      isBuild = config.command === 'build';
    },
    buildStart() {
      source = readFileSync(file, 'utf8');
      built = `assets/theme-boot-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.addWatchFile(file);
    },
    transformIndexHtml: () => [
      { tag: 'script', attrs: { src: isBuild ? `/${built}` : '/src/theme-boot.js' }, injectTo: 'body-prepend' },
    ],
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: built, source });
    },
  };
}
