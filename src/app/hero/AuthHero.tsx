import { useEffect, useRef, useState } from 'react';
import { heroLayout, heroSource } from './heroLayout';

function useElementSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((prev) => (prev.width === width && prev.height === height ? prev : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

function useWindowWidth() {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** The side panel of the auth screens: a masonry of looping, muted sample clips. Decorative only. */
export function AuthHero() {
  const [ref, { width, height }] = useElementSize<HTMLDivElement>();
  const windowWidth = useWindowWidth();
  const layout = heroLayout(width, height);
  return (
    <div className="hero" aria-hidden="true">
      <div className="hero__grid" ref={ref}>
        {layout.cells.map((cell) => (
          <video
            key={cell.key}
            className="hero__cell"
            style={{ left: cell.x, top: cell.y, width: cell.width, height: cell.height }}
            src={heroSource(cell.clip, windowWidth)}
            autoPlay
            muted
            loop
            playsInline
            disablePictureInPicture
            preload="auto"
            tabIndex={-1}
          />
        ))}
      </div>
      <div className="hero__shade" />
      <div className="hero__caption">
        <p className="hero__eyebrow">Clipseek</p>
        <p className="hero__headline">Find the exact moment in every video you own.</p>
        <p className="hero__sub">Search your libraries by what is seen, what is said, or both — then trim, merge and download.</p>
      </div>
    </div>
  );
}
