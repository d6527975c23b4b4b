export default function Form() {
  return (
    <form method="post">
      <button type="submit">Send</button>
    </form>
  );
}
