// The unload-time compressor, built as its own module (sdk/lazy_modules.ts): only a page that is
// closing needs a synchronous gzip, so it stays out of the SDK's entry and loads after the start.

export { gzipSync } from "fflate";
