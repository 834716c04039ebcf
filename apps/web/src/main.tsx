import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from '@/app/router';
import { openAppSocket, SocketProvider } from '@/lib/socket';
// OpenDyslexic's faces (docs/product.md section 12): declared here, fetched by the browser only
// when text uses them, which is only under body.dyslexia-font (styles/theme.css).
import '@fontsource/opendyslexic/400.css';
import '@fontsource/opendyslexic/400-italic.css';
import '@fontsource/opendyslexic/700.css';
import '@/styles/theme.css';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/forms.css';
import '@/styles/questions.css';
import '@/styles/conversations.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

const router = createAppRouter();
// The socket is opened once, here, for the life of the page (spec section 1), once the
// first screen's data has arrived and a frame has been drawn (or half a second has passed,
// as no frame is drawn in a tab opened in the background).
const firstScreen = new Promise<void>((resolve) => {
  const drawn = () => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, 500);
  };
  if (router.state.initialized) return drawn();
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    drawn();
  });
});
const socket = openAppSocket(firstScreen);

createRoot(container).render(
  <StrictMode>
    <SocketProvider socket={socket}>
      <RouterProvider router={router} />
    </SocketProvider>
  </StrictMode>,
);
