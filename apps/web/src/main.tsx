import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from '@/app/router';
import { openAppSocket, SocketProvider } from '@/lib/socket';
import '@/styles/theme.css';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/forms.css';
import '@/styles/questions.css';
import '@/styles/conversations.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// The socket is opened once, here, for the life of the page (spec section 1).
const socket = openAppSocket();
const router = createAppRouter();

createRoot(container).render(
  <StrictMode>
    <SocketProvider socket={socket}>
      <RouterProvider router={router} />
    </SocketProvider>
  </StrictMode>,
);
