// A real authorization server for the authorization tests: npm's oauth2-mock-server on a
// loopback port, signing JWTs with keys of its own (RS256 `k1` to start with). Usage:
//   node tests/auth/idp.mjs <folder holding node_modules/oauth2-mock-server>
// Prints `{"issuer": "http://127.0.0.1:PORT"}`, then answers one JSON line per command line:
//   {"op": "token", "kid": "k1", "claims": {...}, "expiresIn": 3600}  -> {"token": "..."}
//     (claims are merged into the payload; a claim set to null is removed)
//   {"op": "add_key", "kid": "k2", "alg": "ES256"}                      -> {"kid": "k2"}
//   {"op": "stop"}  stops serving (the JWKS endpoint is down), still signs -> {"stopped": true}
// and exits when its standard input closes.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import path from "node:path";

const folder = process.argv[2];
const require = createRequire(path.join(path.resolve(folder), "package.json"));
const { OAuth2Server } = await import(require.resolve("oauth2-mock-server"));

const server = new OAuth2Server();
await server.issuer.keys.generate("RS256", { kid: "k1" });
await server.start(0, "127.0.0.1");
// An IP literal, not `localhost`: the server listens on IPv4 alone.
server.issuer.url = `http://127.0.0.1:${server.address().port}`;
console.log(JSON.stringify({ issuer: server.issuer.url }));

async function answer(command) {
    switch (command.op) {
        case "token": {
            const claims = command.claims ?? {};
            const token = await server.issuer.buildToken({
                kid: command.kid,
                expiresIn: command.expiresIn,
                scopesOrTransform: (_header, payload) => {
                    for (const [name, value] of Object.entries(claims)) {
                        if (value === null) delete payload[name];
                        else payload[name] = value;
                    }
                },
            });
            return { token };
        }
        case "add_key": {
            const key = await server.issuer.keys.generate(command.alg ?? "RS256", { kid: command.kid });
            return { kid: key.kid };
        }
        case "stop": {
            // Stopping forgets the issuer URL, which tokens still carry.
            const url = server.issuer.url;
            await server.stop();
            server.issuer.url = url;
            return { stopped: true };
        }
        default:
            return { error: `unknown op ${command.op}` };
    }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
    if (!line.trim()) continue;
    try {
        console.log(JSON.stringify(await answer(JSON.parse(line))));
    } catch (e) {
        console.log(JSON.stringify({ error: String(e) }));
    }
}
if (server.listening) await server.stop();
