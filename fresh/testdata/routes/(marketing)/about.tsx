import { Head } from "$fresh/runtime.ts";

export default function About() {
  return (
    <>
      <Head>
        <title>About</title>
        <meta name="description" content="About the fixture" />
      </Head>
      <p id="about">About</p>
    </>
  );
}
