import assert from "node:assert/strict";
import { ipLiteral, isAllowedHost, isLocalName, isPublicAddress } from "./public_address.ts";

Deno.test("outbound: only public unicast addresses pass, IPv4-mapped and embedded ones judged as what they reach", () => {
  const refused = [
    "127.0.0.1", // loopback
    "127.255.0.9",
    "10.1.2.3", // RFC 1918
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254", // link-local: the cloud metadata address
    "100.64.0.1", // CGNAT
    "0.0.0.0", // unspecified
    "224.0.0.1", // multicast
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1", // documentation
    "198.18.0.1", // benchmarking
    "::1",
    "::",
    "fe80::1",
    "fc00::1", // ULA
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::7f00:1", // IPv4-compatible
    "64:ff9b::7f00:1", // NAT64
    "2002:7f00:1::", // 6to4
    "2001::1", // Teredo
    "2001:db8::1",
    "not an address",
  ];
  for (const ip of refused) assert.equal(isPublicAddress(ip), false, ip);
  for (
    const ip of ["8.8.8.8", "172.15.255.255", "172.32.0.1", "100.63.255.255", "2606:4700::1111"]
  ) {
    assert.equal(isPublicAddress(ip), true, ip);
  }
  assert.equal(isPublicAddress("::ffff:8.8.8.8"), true);
});

Deno.test("outbound: IP literals as a URL writes them, local names, and the allow list's host and port", () => {
  assert.deepEqual(ipLiteral(new URL("http://0x7f000001/").hostname), {
    address: "127.0.0.1",
    family: 4,
  });
  assert.deepEqual(ipLiteral("[::1]"), { address: "::1", family: 6 });
  assert.equal(ipLiteral("cdn.shop.example.com"), null);
  for (
    const name of ["localhost", "a.localhost", "cdn.shop.test", "nas.local", "db", "x.internal"]
  ) {
    assert.equal(isLocalName(name), true, name);
  }
  assert.equal(isLocalName("cdn.example.com"), false);
  const allow = ["127.0.0.1:8080", "images.lan"];
  assert.equal(isAllowedHost(new URL("http://127.0.0.1:8080/a.png"), allow), true);
  assert.equal(isAllowedHost(new URL("http://127.0.0.1:8081/a.png"), allow), false);
  assert.equal(isAllowedHost(new URL("http://127.0.0.1/a.png"), allow), false);
  assert.equal(isAllowedHost(new URL("https://IMAGES.lan:9443/a.png"), allow), true);
  assert.equal(isAllowedHost(new URL("http://127.0.0.1/a.png"), ["127.0.0.1:80"]), true);
});
