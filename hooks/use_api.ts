// An island's read of one /api path: loading, then the answer or the API's error message, with a
// retry. The answer is kept with its path, so a new path reads as loading from its first render
// (never the old path's data) and a late answer for an old path is dropped.
import { useCallback, useEffect, useState } from "preact/hooks";
import { apiJson } from "@/utils/api_client.ts";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; data: T };

const LOADING = { state: "loading" } as const;

export function useApi<T>(path: string): [Loaded<T>, () => void] {
  const [answer, setAnswer] = useState<{ key: string; loaded: Loaded<T> } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt} ${path}`;
  useEffect(() => {
    let current = true;
    const settle = (loaded: Loaded<T>) => current && setAnswer({ key, loaded });
    apiJson<T>(path).then(
      (data) => settle({ state: "ready", data }),
      (error) => settle({ state: "error", message: (error as Error).message }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [answer?.key === key ? answer.loaded : LOADING, retry];
}
