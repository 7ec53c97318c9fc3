// The renderer's entry: mounts the app. Talks to the engine only through ./api/client.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startOnce } from './App';
import './styles/theme.css';
import './styles/app.css';

// Asks the engine at once: the first render runs while the answers travel.
void startOnce();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
