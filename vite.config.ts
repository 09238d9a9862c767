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
  build: { outDir: '../../dist', emptyOutDir: true, sourcemap: true },
  // `npm run dev`: Vite serves the app with hot reload and forwards API calls to the API process.
  server: { port: 5173, proxy: Object.fromEntries(apiPrefixes.map((p) => [p, api])) },
});
