export default function GreetIndex() {
  return <p id="greet-index">Who?</p>;
}
