import { lazy, Suspense } from 'react';
import { PageSpinner } from '../../shared/PageSpinner';

const VideoScriptTab = lazy(() => import('./VideoScriptTab'));

/** The admin panel's AI Video tab, loaded when the tab is first opened. */
export function AiVideoTab() {
  return (
    <Suspense fallback={<PageSpinner label="Loading the video script generator…" />}>
      <VideoScriptTab />
    </Suspense>
  );
}
