// The default name of a new passkey: "Passkey on <device>" when the User-Agent names a platform
// we recognise, else "Passkey N" (N = how many the user will have).

const PLATFORMS: Array<[RegExp, string]> = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Macintosh|Mac OS X/, "Mac"],
  [/Windows/, "Windows"],
  [/Linux/, "Linux"],
];

export function defaultPasskeyName(userAgent: string | null, existingCount: number): string {
  const platform = PLATFORMS.find(([pattern]) => pattern.test(userAgent ?? ""))?.[1];
  return platform ? `Passkey on ${platform}` : `Passkey ${existingCount + 1}`;
}
