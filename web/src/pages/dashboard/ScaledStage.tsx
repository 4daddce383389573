import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export const STAGE_WIDTH = 1920;
export const STAGE_HEIGHT = 1080;

/** The largest scale at which a 1920×1080 stage fits a box, whole. */
export function fitScale(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 0;
  return Math.min(width / STAGE_WIDTH, height / STAGE_HEIGHT);
}

interface Props {
  background: string;
  /** Fill the whole window (kiosk) rather than the space left below the layout's bars. */
  fill?: boolean;
  children: (controls: { fullscreen: boolean; toggleFullscreen: () => void }) => ReactNode;
}

/**
 * A 1920×1080 stage scaled (CSS transform) to the largest size that fits its box, centred, never
 * cropped; its box is the window below the stage's top (or the screen, in full screen).
 */
export function ScaledStage({ background, fill = false, children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [fullscreen, setFullscreen] = useState(false);

  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const inFullscreen = document.fullscreenElement === el;
    const width = inFullscreen ? window.innerWidth : el.clientWidth;
    const top = inFullscreen || fill ? 0 : el.getBoundingClientRect().top + window.scrollY;
    const height = inFullscreen || fill ? window.innerHeight : Math.max(window.innerHeight - top - 16, 0);
    setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
  }, [fill]);

  useLayoutEffect(() => {
    measure();
    const el = box.current;
    const observer = new ResizeObserver(measure);
    if (el) observer.observe(el);
    window.addEventListener('resize', measure);
    const onFullscreen = () => {
      setFullscreen(document.fullscreenElement === box.current);
      measure();
    };
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, [measure]);

  // Leaving the page leaves full screen too (only if this stage holds it).
  useEffect(() => {
    const el = box.current;
    return () => {
      if (el && document.fullscreenElement === el) document.exitFullscreen().catch(() => undefined);
    };
  }, []);

  const toggleFullscreen = useCallback(() => {
    const el = box.current;
    if (!el) return;
    // A refusal (no user gesture, a frame without permission) leaves the stage as it is.
    if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    else el.requestFullscreen?.().catch(() => undefined);
  }, []);

  const scale = fitScale(size.width, size.height);
  return (
    <div
      ref={box}
      data-testid="screen-box"
      style={{ width: '100%', height: fill || fullscreen ? '100vh' : STAGE_HEIGHT * scale, background, overflow: 'hidden', position: 'relative' }}
    >
      <div
        data-testid="screen-stage"
        data-scale={scale.toFixed(4)}
        style={{
          position: 'absolute',
          width: STAGE_WIDTH,
          height: STAGE_HEIGHT,
          left: (size.width - STAGE_WIDTH * scale) / 2,
          top: fill || fullscreen ? (size.height - STAGE_HEIGHT * scale) / 2 : 0,
          transform: `scale(${scale})`,
          transformOrigin: '0 0',
          visibility: scale > 0 ? 'visible' : 'hidden',
        }}
      >
        {children({ fullscreen, toggleFullscreen })}
      </div>
    </div>
  );
}
