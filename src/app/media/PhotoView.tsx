import { useState } from 'react';
import { MSG_MEDIA, type Media } from '../../contract';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { pictureUrl } from '../state/previewTokens';
import { Spinner } from '../ui/Spinner';
import './media.css';

/** Whether a media is shown as a picture (a photo) rather than played. */
export const isPhoto = (media: Pick<Media, 'kind'> | undefined) => media?.kind === 'image';

/**
 * A photo as it is looked at, where a video would play (the media modal, the moment dialog): the
 * server's upright rendition (API.mediaPicture), as large as the frame allows and never enlarged,
 * with a spinner while it loads and a plain message if it cannot.
 */
export function PhotoView({ media }: { media: Pick<Media, '_id' | 'libraryId' | 'metadata'> }) {
  const token = usePreviewToken(media.libraryId);
  const src = token ? pictureUrl(media.libraryId, media._id, token) : null;
  const [state, setState] = useState<{ src: string | null; shown: 'loading' | 'loaded' | 'failed' }>({ src, shown: 'loading' });
  const shown = state.src === src ? state.shown : 'loading';

  return (
    <div className="photo-view" data-state={shown}>
      {src && shown !== 'failed' && (
        <img
          className="photo-view__img"
          src={src}
          alt={media.metadata.name}
          decoding="async"
          onLoad={() => setState({ src, shown: 'loaded' })}
          onError={() => setState({ src, shown: 'failed' })}
        />
      )}
      {shown === 'loading' && (
        <span className="photo-view__busy">
          <Spinner size={28} label="Loading photo" />
        </span>
      )}
      {shown === 'failed' && (
        <p className="photo-view__failed" role="alert">
          {MSG_MEDIA.photoFailed}
        </p>
      )}
    </div>
  );
}
