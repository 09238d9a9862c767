import { useEffect, useState } from 'react';
import { hasPoster, type Media } from '../../../contract';
import { usePreviewToken } from '../../hooks/usePreviewToken';
import { thumbnailUrl } from '../../state/previewTokens';
import { IconFilm } from '../../ui/icons';

/** Frames shown, one after another, while a card is hovered with autoplay on. */
const HOVER_FRAMES = 8;
const HOVER_FRAME_MS = 600;

/**
 * The media's poster from the thumbnail endpoint, or a placeholder while there is none (hasPoster:
 * none is asked for until ingest has made it). With `playing`, frames across the video replace the poster in turn: a light hover
 * preview that needs no video stream.
 */
export function MediaThumb({ media, playing = false }: { media: Media; playing?: boolean }) {
  // The library page asks for the token; a thumbnail only reads it.
  const token = usePreviewToken(media.libraryId, false);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const [frame, setFrame] = useState(0);
  const duration = media.metadata.video.duration;
  const canPlay = playing && media.status === 'completed' && media.kind === 'video' && duration > 1;
  // A media whose status or update time changed may have a poster now: try again.
  const attempt = `${media._id}:${media.status}:${media.updatedAt}:${token}`;

  useEffect(() => {
    if (!canPlay) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % HOVER_FRAMES), HOVER_FRAME_MS);
    return () => {
      clearInterval(timer);
      setFrame(0);
    };
  }, [canPlay]);

  if (!token || !hasPoster(media) || failedFor === attempt) {
    return (
      <div className="thumb thumb--placeholder" aria-hidden="true">
        <IconFilm size={28} />
      </div>
    );
  }
  const t = canPlay && frame > 0 ? (duration * frame) / HOVER_FRAMES : undefined;
  return (
    <div className="thumb">
      <img
        key={attempt}
        className="thumb__img"
        src={thumbnailUrl(media.libraryId, media._id, token)}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setFailedFor(attempt)}
      />
      {t !== undefined && (
        // The frame stays invisible until it has loaded, so the poster shows meanwhile (and if it fails).
        <img
          key={t}
          className="thumb__img thumb__frame"
          src={thumbnailUrl(media.libraryId, media._id, token, t)}
          alt=""
          decoding="async"
          onLoad={(e) => e.currentTarget.classList.add('thumb__frame--loaded')}
        />
      )}
    </div>
  );
}
