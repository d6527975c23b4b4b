import { Head } from "$fresh/runtime.ts";

export default function About() {
  return (
    <>
      <Head>
        <meta name="description" content="About the fixture" />
      </Head>
      <p id="about">About</p>
    </>
  );
}
