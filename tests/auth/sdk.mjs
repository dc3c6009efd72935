// The official MCP TypeScript SDK's client (npm `@modelcontextprotocol/sdk`) sending a bearer
// token over Streamable HTTP. Usage:
//   node tests/auth/sdk.mjs PATH/TO/@modelcontextprotocol/sdk URL [TOKEN]
// Prints `{"tools": [names...], "whoami": "..."}` once connected, or
// `{"error": "...", "status": 401}` when the server refuses the client.
const [sdk, url, token] = process.argv.slice(2);
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${sdk}/dist/esm/client/streamableHttp.js`);

const headers = token ? { Authorization: `Bearer ${token}` } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: "auth-test", version: "1.0.0" });
try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const called = await client.callTool({ name: "whoami", arguments: {} });
    console.log(JSON.stringify({ tools: tools.map((t) => t.name), whoami: called.content[0].text }));
    await client.close();
} catch (e) {
    console.log(JSON.stringify({ error: String(e), status: e.code ?? null }));
}
