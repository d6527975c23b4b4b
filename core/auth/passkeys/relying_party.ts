// The WebAuthn relying party: its id is APP_URL's hostname and the only accepted origin is
// APP_URL's origin, so a passkey registered here works nowhere else.
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin, name: "Playhead" };
}
