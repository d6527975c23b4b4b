// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message it receives, so tests
// read one-time codes and invites from actual mail.
// @ts-types="@types/smtp-server"
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp extends AsyncDisposable {
  port: number;
  /** MAIL_* variables pointing the app at this server. */
  env: Record<string, string>;
  messages: ReceivedMail[];
  /** Resolves with the next message to arrive (or the first not yet taken); throws after 10 s. */
  next(): Promise<ReceivedMail>;
}

/** How long `next()` waits for a mail before failing the test. */
const NEXT_MAIL_MS = 10_000;

export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  let taken = 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "bot@playhead.test" && auth.password === "app-password") {
        return callback(null, { user: auth.username });
      }
      callback(new Error("invalid credentials"));
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(concat(chunks)),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    env: {
      MAIL_HOST: "127.0.0.1",
      MAIL_PORT: String(port),
      MAIL_USER: "bot@playhead.test",
      MAIL_APP_PASSWORD: "app-password",
    },
    messages,
    async next() {
      // One wait for one arrival, so the loop ends within the deadline either way.
      const deadline = Date.now() + NEXT_MAIL_MS;
      while (messages.length <= taken) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(`no mail arrived within ${NEXT_MAIL_MS} ms (${taken} taken)`);
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((wake) => {
          waiters.push(wake);
          timer = setTimeout(wake, left);
        });
        clearTimeout(timer);
      }
      return messages[taken++];
    },
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in a one-time-code mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = mail.raw.match(/sign-in code is (\d{6})/);
  if (!match) throw new Error(`no code in mail:\n${mail.raw}`);
  return match[1];
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
