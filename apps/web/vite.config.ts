import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { themeBoot } from './vite-theme-boot.ts';

/** The API server `npm run dev` starts beside Vite (apps/server, default port 3000). */
const API_SERVER = 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), themeBoot(), precompress()],
  // '@/...' is src/, as in tsconfig.json's paths.
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    proxy: {
      '/api': API_SERVER,
      // Images uploaded to posts (docs/product.md section 14), served by the API server.
      '/uploads': API_SERVER,
      '/socket.io': { target: API_SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP may not allow data: URLs, so every asset stays a separate file.
    assetsInlineLimit: 0,
  },
});
