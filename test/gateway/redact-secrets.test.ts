import { describe, expect, it } from "vitest";
import { isSecretName, REDACTED, redactSecrets, redactText } from "@/server/redact-secrets";

/**
 * The redaction corpus: text an agent could send (an argument, a URI, a note) with a secret in it,
 * and what must survive around it. Each secret must be gone from the output; each look-alike must
 * come out exactly as it went in.
 */
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
  "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

/** [what it is, the text, the secret part that must not survive]. */
const SECRETS: Array<[string, string, string]> = [
  ["Visa test card", "card 4111111111111111 please", "4111111111111111"],
  ["Visa with spaces", "pay with 4111 1111 1111 1111 today", "4111 1111 1111 1111"],
  ["Visa with dashes", "4242-4242-4242-4242", "4242-4242-4242"],
  ["Mastercard", "mc=5555555555554444", "5555555555554444"],
  ["Mastercard 2-series", "2223003122003222", "2223003122003222"],
  ["Amex 4-6-5", "amex 3782 822463 10005.", "822463"],
  ["Discover", "6011111111111117", "6011111111111117"],
  ["JCB", "(3566002020360505)", "3566002020360505"],
  ["Diners 14 digits", "30569309025904", "30569309025904"],
  ["card with a CVV after it", "4111 1111 1111 1111 123", "4111 1111 1111 1111"],
  ["card in a URI", "shop://order/x?note=4111111111111111", "4111111111111111"],
  ["card with dots", "paid 4111.1111.1111.1111 ok", "4111.1111.1111"],
  ["card with slashes", "4111/1111/1111/1111", "4111/1111/1111"],
  ["card in full-width digits", "card ４１１１１１１１１１１１１１１１", "４１１１１１１１１１１１"],
  [
    "full-width with ideographic spaces",
    "４１１１\u3000１１１１\u3000１１１１\u3000１１１１",
    "１１１１\u3000１１１１",
  ],
  ["card in Arabic-Indic digits", "٤١١١١١١١١١١١١١١١", "١١١١١١١١١١"],
  ["card in mathematical digits", "𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏", "𝟏𝟏𝟏𝟏𝟏𝟏"],
  ["card with en dashes", "4111\u20131111\u20131111\u20131111", "1111\u20131111"],
  ["card with no-break spaces", "4111\u00a01111\u00a01111\u00a01111", "1111\u00a01111"],
  ["card glued to a word", "card4111111111111111", "4111111111111111"],
  ["card glued to a word after it", "4111111111111111exp", "4111111111111111"],
  ["card between Chinese words", "卡号4111111111111111谢谢", "4111111111111111"],
  ["card with its expiry", "4111111111111111/12/27", "4111111111111111"],
  ["Stripe secret key in a URI", "shop://order/x?token=sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39Hq"],
  ["Stripe test key", "key sk_test_51H8xYzAbCdEfGhIjKlMnOp", "sk_test_51H8x"],
  ["Stripe restricted key", "rk_live_51H8xYzAbCdEfGhIjKlMnOp", "rk_live_51H8x"],
  ["Stripe publishable key", "pk_live_51H8xYzAbCdEfGhIjKlMnOp", "pk_live_51H8x"],
  ["GitHub classic token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "16C7e42F292c"],
  ["GitHub OAuth token", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "16C7e42F292c"],
  ["GitHub server token", "ghs_16C7e42F292c6912E7710c838347Ae178B4a", "16C7e42F292c"],
  ["GitHub fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "11ABCDEFG0123"],
  ["Slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "1234567890123-AbCd"],
  ["Slack user token", "xoxp-123456789012-123456789012-abcdef", "xoxp-123456789012"],
  ["AWS access key id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"],
  ["AWS secret by name", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"],
  ["Google API key", "https://maps.example/api?key=AIzaSyA1234567890abcdefghijklmnopqrstu", "AIzaSyA12345"],
  ["GitLab token", "glpat-xxxxxxxxxxxxxxxxxxxx1234", "xxxxxxxxxxxx1234"],
  ["npm token", "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefgh"],
  ["OpenAI key", "sk-proj-abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnop"],
  ["Signpost agent key", "use sp_Ab12Cd34_abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnop"],
  ["legacy tenant key", "lk_acme_demo_key", "lk_acme_demo_key"],
  ["JWT", `id_token ${JWT}`, "SflKxwRJSMeKKF2QT4fw"],
  ["PEM private key", `here:\n${PEM}\nthanks`, "MIIEowIBAAKCAQEAu1SU1"],
  ["PEM cut before its end", PEM.slice(0, 120), "MIIEowIBAAKCAQEAu1SU1"],
  ["Bearer header", "Authorization: Bearer abc123.def456-ghi789", "abc123.def456"],
  ["lowercase bearer", "bearer 0123456789abcdef", "0123456789abcdef"],
  ["Basic header", "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "YWxhZGRpbjpvcGVuc2VzYW1l"],
  ["Basic without a header", "basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"],
  ["access_token parameter", "https://api.example/cb#x&access_token=ya29.a0AfH6SMBx", "ya29.a0AfH6SMBx"],
  ["api_key parameter", "shop://orders?status=paid&api_key=abc123xyz", "abc123xyz"],
  ["client_secret parameter", "?client_id=app1&client_secret=s3cr3tValue", "s3cr3tValue"],
  ["password parameter", "login?user=alice&password=hunter2&next=/", "hunter2"],
  ["passwd field in text", "passwd: Tr0ub4dor&3", "Tr0ub4dor"],
  ["JSON password", '{"username":"alice","password":"correct horse battery staple"}', "correct horse"],
  [
    "signature parameter",
    "x?X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024",
    "fe5f80f77d5f",
  ],
  ["sig parameter", "blob?sv=2020&sig=AbCdEf%2BGhIj%3D", "AbCdEf"],
  ["session cookie header", "Cookie: session=8f3b2a1c; theme=dark", "8f3b2a1c"],
  ["session id parameter", "?session_id=9b1deb4d3b7d4bad", "9b1deb4d3b7d4bad"],
  ["private key parameter", "private_key=MIIBVgIBADANBgkqhkiG9w0BAQEFAASCAUAwggE8AgEAAkEA", "MIIBVgIBADAN"],
  ["key parameter", "https://api.example/v1?key=0123456789abcdef", "0123456789abcdef"],
  ["password in a URL", "postgres://app:Sup3rS3cret@db.internal:5432/app", "Sup3rS3cret"],
  ["auth parameter", "wss://push.example/?auth=zzTopSecret1", "zzTopSecret1"],
];

/** Text that looks a little like a secret and must come out unchanged. */
const LOOK_ALIKES: string[] = [
  "ord_transit",
  "tkt_1001",
  "order ord_4111111111111111 shipped",
  "Total 4999 cents",
  "amount 123456789012",
  "ref 1234567890123",
  "call 4155552671 or +1 415 555 2671",
  "2026-12-01T07:27:35.822Z",
  "created 1764574055822",
  "tracking 1Z999AA10123456784",
  "USPS 9400111899223456789012",
  "9b2c1d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  "12345678-1234-1234-1234-123456789012",
  "change_delivery_address",
  "after_sales",
  "assign_ticket",
  "idempotency_key: k_7f3a9c",
  "max_tokens=1000",
  "a key: the one under the mat",
  "Basic plan subscription",
  "the bearer of bad news",
  "price 19.99 USD, 4 items",
  "ratio 0.5555555555554444",
  "pi 3.14159265358979",
  "host 192.168.1.1 v1.2.3",
  "dated 2026/12/01 and 01.12.2026",
  "shop://order/ord_paid/after-sales",
  "helpdesk://tickets?mine=1&status=open",
  "https://example.com/path?page=2&q=mug",
  "postgres://postgres@127.0.0.1:5432/postgres",
  "status: awaiting_approval",
  "sk_live is the prefix of a Stripe key",
  "cus_alice addr_alice_home prod_mug",
];

describe("redactText: a corpus of secrets and look-alikes", () => {
  it(`redacts each of ${SECRETS.length} secrets, keeping what is around it`, () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(30);
    for (const [what, text, secret] of SECRETS) {
      const out = redactText(text);
      expect(out, what).toContain(REDACTED);
      expect(out, `${what}: ${out}`).not.toContain(secret);
    }
    // Names stay, values go.
    expect(redactText("shop://order/x?token=sk_live_4eC39HqLyjWDarjtT1zdp7dc&page=2")).toBe(
      `shop://order/x?token=${REDACTED}&page=2`,
    );
    expect(redactText("login?user=alice&password=hunter2&next=/")).toBe(
      `login?user=alice&password=${REDACTED}&next=/`,
    );
    expect(redactText("pay with 4111 1111 1111 1111 today")).toBe(`pay with ${REDACTED} today`);
    expect(redactText("4111 1111 1111 1111 123")).toBe(`${REDACTED} 123`);
    expect(redactText(`here:\n${PEM}\nthanks`)).toBe(`here:\n${REDACTED}\nthanks`);
  });

  it(`leaves each of ${LOOK_ALIKES.length} look-alikes exactly as it was`, () => {
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(15);
    for (const text of LOOK_ALIKES) expect(redactText(text), text).toBe(text);
  });

  it("is idempotent: redacted text redacts to itself", () => {
    for (const [, text] of SECRETS) {
      const once = redactText(text);
      expect(redactText(once)).toBe(once);
    }
  });
});

describe("redactSecrets: structured arguments", () => {
  it("redacts by field name and by value, keeps names, ids, amounts and booleans", () => {
    const out = redactSecrets({
      card_number: "4111 1111 1111 1111",
      cardNumber: 4111111111111111,
      cvv: 123,
      api_key: "anything at all",
      accessToken: "abc",
      client_secret: "abc",
      password: "hunter2",
      key: "k",
      value: "the secret a config form sets",
      auth_required: true,
      session: { id: "s1" },
      idempotency_key: "confirm-1",
      max_tokens: 1000,
      entity_id: "ord_transit",
      amount: 4999,
      total: 123456789012,
      uri: "shop://order/x?token=sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      patch: { items: [{ product_id: "prod_mug", quantity: 2 }], note: `Bearer ${"a".repeat(20)}` },
      [`sk_live_${"z".repeat(20)}`]: "a key used as a name",
    }) as Record<string, unknown>;
    expect(out).toEqual({
      card_number: REDACTED,
      cardNumber: REDACTED,
      cvv: REDACTED,
      api_key: REDACTED,
      accessToken: REDACTED,
      client_secret: REDACTED,
      password: REDACTED,
      key: REDACTED,
      value: REDACTED,
      auth_required: true,
      session: REDACTED,
      idempotency_key: "confirm-1",
      max_tokens: 1000,
      entity_id: "ord_transit",
      amount: 4999,
      total: 123456789012,
      uri: `shop://order/x?token=${REDACTED}`,
      patch: { items: [{ product_id: "prod_mug", quantity: 2 }], note: REDACTED },
      [REDACTED]: "a key used as a name",
    });
    // A bare card number as a JSON number, not under any telling name.
    expect(redactSecrets([4111111111111111, 4999, 1764574055822])).toEqual([REDACTED, 4999, 1764574055822]);
  });

  it("names: credentials by name, references and counters not", () => {
    for (const name of [
      "password",
      "api_key",
      "apiKey",
      "X-API-Key",
      "access_token",
      "refreshToken",
      "client_secret",
      "authorization",
      "auth",
      "credentials",
      "cookie",
      "session_id",
      "signature",
      "private_key",
      "card_number",
      "cvc",
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of [
      "idempotency_key",
      "action_key",
      "keyPrefix",
      "max_tokens",
      "author",
      "keyboard",
      "session_count",
      "entity_id",
      "capability",
      "reason",
    ])
      expect(isSecretName(name), name).toBe(false);
  });
});

describe("redaction runs in linear time", () => {
  // Inputs built to make a backtracking pattern explode. No wall-clock bound (machines differ):
  // the test finishing at all is the point, and the times are logged.
  const SIZE = 100_000;
  const fill = (unit: string, tail = "") => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE) + tail;
  const adversarial: Array<[string, string]> = [
    ["digits", fill("4")],
    ["digit groups", fill("4 ")],
    ["digit groups ending in a letter", fill("41-", "x")],
    ["names without values", fill("a=")],
    ["a long name", fill("a", "=")],
    ["token names", fill("token=&")],
    ["dotted names", fill("a.")],
    ["cookie headers", fill("cookie: a\n")],
    ["unclosed quotes", fill('password="')],
    ["JWT-ish runs", fill("eyJ-")],
    ["JWT-ish dots", fill("eyJaaaaa.")],
    ["PEM headers", fill("-----BEGIN ")],
    ["PEM without an end", `-----BEGIN PRIVATE KEY-----${fill("A")}`],
    ["bearer words", fill("Bearer ")],
    ["basic base64", `Basic ${fill("A")}!`],
    ["URL userinfo", fill("a://b:")],
    ["prefixes", fill("sp_aaaa")],
    ["spaces", fill(" ")],
  ];
  it.each(adversarial)("%s (100 KB)", (_name, input) => {
    const started = performance.now();
    const out = redactText(input);
    const ms = performance.now() - started;
    console.log(`redactText on ${_name}: ${ms.toFixed(1)} ms`);
    expect(typeof out).toBe("string");
  });
});
