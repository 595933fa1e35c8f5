// Live reload for `bundlepress serve --watch`: the server names its event stream in the
// `BundlePress-Live-Reload` response field (a site served otherwise never has it, so nothing
// listens). On `rebuilt` the page reloads; on `build-failed` it shows the build's error (with
// its file:line:column) above the last good site, which is still the one served.

/** The path of the event stream that `response` names, or null when the server is not watching. */
export function liveReloadPath(response) {
  return response.headers.get('bundlepress-live-reload');
}

/**
 * Listens to the event stream at `path`: `onRebuilt(summary)` after a build published,
 * `onFailed(message)` after one failed (also on connecting while the last build is failing).
 * EventSource reconnects by itself when the server restarts. Returns the EventSource.
 */
export function listenForBuilds(path, { onRebuilt, onFailed }) {
  const source = new EventSource(path);
  source.addEventListener('rebuilt', (event) => onRebuilt(event.data));
  source.addEventListener('build-failed', (event) => onFailed(event.data));
  return source;
}
