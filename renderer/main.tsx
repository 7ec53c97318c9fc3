// The renderer's entry: mounts the app. Talks to the engine only through ./api/client.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startOnce } from './App';
import { nextTask } from './state/actions';
import { loadViewSettings } from './state/viewSettingsActions';
import './styles/theme.css';
import './styles/app.css';

// Asks the engine before the first render, which runs while the answers travel; in a task of its
// own (queued ahead of React's), not in the long one that evaluates this bundle.
void nextTask().then(startOnce);
loadViewSettings();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
