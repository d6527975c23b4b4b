export default function Form() {
  return (
    <form method="post">
      <button>Send</button>
    </form>
  );
}
