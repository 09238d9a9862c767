/*
 * Clipseek service worker. It caches nothing: its one job is to tell open tabs to refresh the
 * account (REFRESH_ACCOUNT_DETAILS, mirrored from SW_REFRESH_ACCOUNT_DETAILS in src/contract)
 * when a new version takes over or when one tab asks it to, so every tab re-reads the session.
 */
const REFRESH_ACCOUNT_DETAILS = 'REFRESH_ACCOUNT_DETAILS';

async function broadcast(exceptClientId) {
  const clients = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of clients) {
    if (client.id !== exceptClientId) client.postMessage({ type: REFRESH_ACCOUNT_DETAILS });
  }
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim().then(() => broadcast(null)));
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === REFRESH_ACCOUNT_DETAILS) {
    const sourceId = event.source && 'id' in event.source ? event.source.id : null;
    event.waitUntil(broadcast(sourceId));
  }
});
