// The page for a path no route has, or a resource the viewer cannot see.
import { Head } from "$fresh/runtime.ts";

export default function NotFound() {
  return (
    <>
      <Head>
        <title>Not found · Playhead</title>
      </Head>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <a href="/">Back to the start page</a>
      </p>
    </>
  );
}
