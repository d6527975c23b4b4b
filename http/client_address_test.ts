import assert from "node:assert/strict";
import { addressGroup } from "./client_address.ts";

Deno.test("address groups: IPv4 as it is, IPv6 by its /64, IPv4-mapped as IPv4", () => {
  assert.equal(addressGroup("198.51.100.7"), "198.51.100.7");
  assert.equal(addressGroup("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("2001:0DB8:0001:0002::1"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(addressGroup("[2001:db8:1:2::9]"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(addressGroup("::1"), "0:0:0:0::/64");
  assert.equal(addressGroup("::ffff:192.0.2.1"), "192.0.2.1");
  assert.notEqual(addressGroup("2001:db8:1:2::1"), addressGroup("2001:db8:1:3::1"));
  assert.equal(addressGroup("unknown"), "unknown");
});
