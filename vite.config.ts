import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;
const apiPrefixes = ['/auth', '/user', '/feedback', '/billing', '/library', '/search', '/data', '/media', '/rendering', '/health'];

// Page loads of app routes that share a prefix with the API (/search, /libraries, /library/:id)
// ask for HTML; those stay with Vite so deep links and reloads work in development.
const api = {
  target: apiTarget,
  bypass: (req: { headers: { accept?: string }; url?: string }) => (req.headers.accept?.includes('text/html') ? req.url : undefined),
};

export default defineConfig({
  root: 'src/app',
  publicDir: '../../public',
  plugins: [react()],
  // The manifest (dist/.vite/manifest.json) is what scripts/bundle-size.mjs reads to check the first-load budget.
  build: {
    outDir: '../../dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // What the first page needs ('$initial': the entry's static imports) stays in three files: two library
        // chunks (React with the router; Radix, msgpack, valtio and the rest), which deploys of app code leave
        // cached, and the entry with the app's own frame ('shell' keeps those modules together rather than in a
        // score of small chunks shared with the lazy screens). Screens and the timeline (PixiJS) get chunks of
        // their own from their dynamic imports.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 1 },
            { name: 'shell', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  // `npm run dev`: Vite serves the app with hot reload and forwards API calls to the API process.
  server: { port: 5173, proxy: Object.fromEntries(apiPrefixes.map((p) => [p, api])) },
});
