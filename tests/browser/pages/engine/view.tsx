// The React timeline (src/app/timeline/TimelineView) in StrictMode, for tests/browser/engine-view.test.ts.
import { StrictMode, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import '../../../../src/app/styles/global.css';
import '../../../../src/app/ui/ui.css';
import { TimelineView } from '../../../../src/app/timeline/TimelineView';
import { FakeVideo } from '../../drivers/FakeVideo';
import { SyntheticThumbnails } from '../../drivers/SyntheticThumbnails';
import type { MomentRange, TimelineEngine } from '../../../../src/engine/TimelineEngine';

const media = { duration: 7200, frameRate: 30, width: 1280, height: 720 };

function Harness({ onEngine, commits }: { onEngine(e: TimelineEngine | null): void; commits: MomentRange[] }) {
  const [range, setRange] = useState<MomentRange | null>({ start: 3000, end: 3600 });
  const [thumbnails] = useState(() => new SyntheticThumbnails({}));
  const [video] = useState(() => new FakeVideo(media.duration));
  return (
    <TimelineView
      media={media}
      range={range}
      onRangeCommit={(r) => {
        commits.push(r);
        setRange(r);
      }}
      thumbnails={thumbnails}
      video={video.asElement()}
      onEngine={onEngine}
    />
  );
}

let root: Root | null = null;
const viewTest = {
  engine: null as TimelineEngine | null,
  engines: [] as TimelineEngine[],
  commits: [] as MomentRange[],
  mount() {
    root = createRoot(document.getElementById('root')!);
    root.render(
      <StrictMode>
        <Harness
          commits={viewTest.commits}
          onEngine={(e) => {
            viewTest.engine = e;
            if (e) viewTest.engines.push(e);
          }}
        />
      </StrictMode>,
    );
  },
  unmount() {
    root?.unmount();
    root = null;
  },
};

declare global {
  interface Window {
    viewTest: typeof viewTest;
  }
}
window.viewTest = viewTest;
document.body.dataset.ready = 'true';
