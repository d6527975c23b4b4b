// A cursor-paged list in an island: the rows the server rendered, then "Load more" from the API
// (the list's path without its cursor), with loading and error state for the table foot.
import { useState } from "preact/hooks";
import { apiJson } from "@/utils/api_client.ts";

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export function useCursorPages<T>(first: Page<T>, apiPath: string, noun: string) {
  const [items, setItems] = useState(first.data);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState("");

  async function loadMore(event: Event) {
    event.preventDefault();
    if (!cursor || loading) return;
    setLoading(true);
    setError("");
    try {
      const page = await apiJson<Page<T>>(`${apiPath}&cursor=${encodeURIComponent(cursor)}`);
      setItems((shown) => [...shown, ...page.data]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(`Could not load more ${noun}: ${(e as Error).message}`);
    } finally {
      setLoading(false);
    }
  }

  return { items, setItems, cursor, loading, error, setError, loadMore };
}
