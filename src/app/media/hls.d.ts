// hls.js ships the light build (no subtitles, alternate audio or DRM: previews need none) without
// its own declarations; it has the full build's API.
declare module 'hls.js/light' {
  import Hls from 'hls.js';
  export default Hls;
}
