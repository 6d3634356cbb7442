import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles';
import { App } from './app/App';
import './app/app.css';
import './app/a11y.css';
import { registerServiceWorker } from './app/registerSw';
import { preloadRoute } from './app/routeChunks';

// A page opened by its address (a preset, a link) fetches its code while the shell renders.
preloadRoute(window.location.hash);

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerServiceWorker();
