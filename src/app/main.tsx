import './styles/stylesheets';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { router } from './routing/router';
import { startSession } from './state/account';
import { installGlobalErrorHandlers } from './state/errorDialog';
import { registerServiceWorker } from './state/serviceWorker';

installGlobalErrorHandlers();
startSession();
registerServiceWorker(
  (path) => void router.navigate(path),
  () => router.state.location.pathname,
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
