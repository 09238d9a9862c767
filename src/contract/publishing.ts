import { EXPORT_FORMAT_LABELS, type ExportFormat, type SubtitleFormat } from './rendering';

/**
 * Issue 39 (not named by the spec): the app's wording for publish-ready downloads: the aspect and
 * caption choices of the merge editor and of a moment's download, the subtitles and editor exports,
 * the originals, and the clip editor's crop window.
 */
export const MSG_PUBLISH = {
  aspect: 'Aspect',
  captions: 'Captions',
  captionsNone: 'None',
  subtitleTrack: 'Subtitle track',
  subtitleTrackHint: 'A subtitle track in the MP4 that players can turn on and off.',
  subtitles: 'Subtitles',
  subtitleFormatLabels: { srt: 'Subtitles (SRT)', vtt: 'Subtitles (WebVTT)' } satisfies Record<SubtitleFormat, string>,
  exportForEditor: 'Export for editor',
  exportLabel: (format: ExportFormat) => EXPORT_FORMAT_LABELS[format],
  /** Beside each export when the MP4 is cropped: MLT carries the crop, the other formats the whole picture. */
  exportCropped: (aspect: string) => `${aspect} crop`,
  exportUncropped: 'uncropped',
  originals: 'Original files',
  original: (name: string) => `Original: ${name}`,
  moreDownloads: 'Subtitles and exports',
  /** The single moment's download menu: its entry to the publish choices, and that dialog. */
  publishItem: 'MP4 for publishing…',
  publishTitle: 'Download for publishing',
  publishDescription: 'Choose the shape and captions of the MP4, or take the subtitles or a project for your video editor.',
  downloadMp4: 'Download MP4',
  subtitlesTitle: 'Downloading subtitles',
  exportTitle: 'Exporting project',
  originalTitle: 'Downloading original',
  subtitlesFailed: 'Failed to download subtitles',
  exportFailed: 'Failed to export project',
  originalFailed: 'Failed to download original',
  noOriginal: 'The original of this media cannot be downloaded.',
  /** The clip editor's crop window. */
  cropWindow: 'Crop window',
  cropHint: 'Drag the window (or focus it and use the arrow keys) to choose what stays in the picture.',
  followSubject: 'Follow subject',
  following: 'Following the subject',
  followingNothing: 'Centred: nothing to follow was found',
  fixed: 'Fixed by you',
  framingUnavailable: 'The automatic framing could not be loaded; the window is centred.',
  cropNone: 'This aspect shows the whole picture: nothing is cropped.',
  cropTime: 'Time in the clip',
  /** The moment dialog's choice of a shape, whose crop window then shows over the player. */
  crop: 'Crop',
} as const;
