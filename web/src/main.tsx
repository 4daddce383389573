import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App, { createQueryClient } from './App';
import './styles/global.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
