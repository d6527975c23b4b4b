// The names of the files the SDK build writes, shared by the build and the service that serves them.

/** `playhead-<hash>.js`, `playhead-<hash>.mjs` and the on-demand `playhead-<module>-<hash>.mjs`. */
export const SDK_FILE = /^playhead-([a-z]+-)?[A-Za-z0-9]+\.m?js$/;
