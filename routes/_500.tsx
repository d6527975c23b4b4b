import { Head } from "$fresh/runtime.ts";

// The error itself is logged by the server; the page never shows it (no stack traces leak).
export default function ServerError() {
  return (
    <>
      <Head>
        <title>Error · Playhead</title>
      </Head>
      <h1>Something went wrong</h1>
      <p>
        The server could not complete this request. Try again in a moment.
      </p>
    </>
  );
}
