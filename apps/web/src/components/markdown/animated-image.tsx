import { useEffect, useRef, useState } from 'react';
import type { ImageSize } from '@porpoise/core';

/** True while the page keeps still: the reading comfort setting, or the system's preference (lib/theme.ts). */
const reducedMotion = () => document.body.classList.contains('reduced-motion');

/**
 * An uploaded animation a post embeds (docs/product.md section 14) with 'Pause animation' /
 * 'Play animation' beneath it: moving content that plays on its own can be stopped (WCAG
 * 2.2.2), and it starts paused while motion is reduced (and stops when motion becomes reduced). Paused, its first frame is drawn on a
 * canvas of the same size (an `<img>` cannot be stopped), named by the same description.
 */
export function AnimatedImage({ size, alt }: { size: ImageSize; alt: string }) {
  const [playing, setPlaying] = useState(() => !reducedMotion());
  const canvas = useRef<HTMLCanvasElement>(null);

  // Motion reduced while it plays (the setting saved, or the system's preference changed): it stops.
  useEffect(() => {
    let reduced = reducedMotion();
    const observer = new MutationObserver(() => {
      // Only as it turns on: one played on purpose meanwhile keeps playing.
      if (!reduced && reducedMotion()) setPlaying(false);
      reduced = reducedMotion();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (playing) return;
    const still = new Image();
    still.decoding = 'async';
    still.onload = () => canvas.current?.getContext('2d')?.drawImage(still, 0, 0, size.width, size.height);
    still.src = size.url;
    return () => {
      still.onload = null;
    };
  }, [playing, size]);

  const action = playing ? 'Pause animation' : 'Play animation';
  return (
    <span className="markdown__animated">
      {playing ? (
        <img
          className="markdown__image"
          src={size.url}
          alt={alt}
          width={size.width}
          height={size.height}
          loading="lazy"
          decoding="async"
        />
      ) : (
        <canvas
          ref={canvas}
          className="markdown__image"
          role="img"
          aria-label={alt}
          width={size.width}
          height={size.height}
        />
      )}
      <button
        type="button"
        className="button markdown__animation-toggle"
        aria-label={`${action}: ${alt}`}
        onClick={() => setPlaying((now) => !now)}
      >
        {action}
      </button>
    </span>
  );
}
