import { useState } from 'react';
import { ARROW_SEEK_SECONDS } from '../../contract';
import { IconKeyboard } from '../ui/icons';
import { Popover } from '../ui/Popover';

/** What Home and End go to the ends of: the video, or the moment (the moment dialog's Moment mode). */
export type HomeEndTarget = 'media' | 'range';

/**
 * The timeline's keys (engine kernels/keyboard), behind a button in its toolbar. Home and End say
 * what they go to now: the moment's first and last frame in Moment mode, the video's in Full video.
 */
export function KeyboardHelp({ homeEnd }: { homeEnd: HomeEndTarget }) {
  const [open, setOpen] = useState(false);
  const ends = homeEnd === 'range' ? "The moment's first / last frame" : "The video's first / last frame";
  const keys: Array<[string, string]> = [
    ['Space', 'Play / pause'],
    ['← →', `${ARROW_SEEK_SECONDS} s back / forward (with Shift: 1 s)`],
    [', .', 'One frame back / forward'],
    ['J K L', 'Play backwards / stop / play (again: faster)'],
    ['I O', "Set the moment's start / end here"],
    ['Home End', ends],
  ];
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label="Keyboard shortcuts"
      align="end"
      className="keyboard-help"
      trigger={
        <button type="button" className="icon-btn timeline__zoom-btn" aria-label="Keyboard shortcuts" title="Keyboard shortcuts">
          <IconKeyboard size={18} />
        </button>
      }
    >
      <p className="keyboard-help__title">Keyboard shortcuts</p>
      <dl className="keyboard-help__list" data-testid="keyboard-help">
        {keys.map(([key, what]) => (
          <div key={key} className="keyboard-help__row">
            <dt>
              {key.split(' ').map((k) => (
                <kbd key={k}>{k}</kbd>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      {homeEnd === 'range' && <p className="keyboard-help__note">In Full video, Home and End go to the video's first and last frame.</p>}
    </Popover>
  );
}
