export default function GreetWorld() {
  return <p id="greet-world">Static world wins over [name]</p>;
}
