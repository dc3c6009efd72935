// Interop: the official MCP TypeScript SDK's client (npm `@modelcontextprotocol/sdk`) against
// toolgroup's `io.modelcontextprotocol/groups` extension.
//
// usage: node groups.mjs PATH/TO/node_modules/@modelcontextprotocol/sdk PATH/TO/interop_server
//
// Runs `interop_server` in mask and list mode over stdio: a client that declares the extension
// in its capabilities lists the basic tools only, reads `groups/list` and `groups/get` (raw
// requests: the SDK has no helper for them) and calls a group's tool without `reset_tools`; a
// client that declares nothing lists every tool and reads a first use's activation in the
// structured content the SDK validated; over stdio, a request that is not valid JSON-RPC 2.0
// is answered with its id. Prints one line per check and ends with
// `N passed, N failed`; exits non-zero when a check failed.

const [sdk, server] = process.argv.slice(2);
if (!sdk || !server) {
    console.error("usage: node groups.mjs PATH/TO/@modelcontextprotocol/sdk PATH/TO/interop_server");
    process.exit(2);
}
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${sdk}/dist/esm/client/stdio.js`);
const { ResultSchema } = await import(`${sdk}/dist/esm/types.js`);

const GROUPS = "io.modelcontextprotocol/groups";
const BASIC = ["note_write", "slow_stats", "whoami"];
const results = [];

function check(name, ok, detail) {
    results.push(Boolean(ok));
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${JSON.stringify(detail)}`}`);
}

async function connect(mode, capabilities) {
    const client = new Client({ name: "groups-interop", version: "0" }, { capabilities });
    await client.connect(new StdioClientTransport({ command: server, args: [mode, "stdio", ""] }));
    return client;
}

const names = async (client) => (await client.listTools()).tools.map((t) => t.name);

for (const mode of ["mask", "list"]) {
    const declaring = await connect(mode, { extensions: { [GROUPS]: {} } });
    const declared = declaring.getServerCapabilities()?.extensions?.[GROUPS];
    check(`${mode}: the extension is declared`, JSON.stringify(declared) === "{}", declared);
    const listed = await names(declaring);
    check(`${mode}: a declaring client lists the basic tools only`,
        JSON.stringify(listed) === JSON.stringify(BASIC), listed);
    const list = await declaring.request({ method: "groups/list", params: {} }, ResultSchema);
    check(`${mode}: groups/list names each switchable group`,
        JSON.stringify(list.groups.map((g) => g.name)) === '["web-search","scraping","waiting"]', list);
    const got = await declaring.request({ method: "groups/get", params: { name: "scraping" } }, ResultSchema);
    check(`${mode}: groups/get gives the instructions and the tools`,
        got.instructions === "Only fetch pages found by a search."
            && got.contents.tools.map((t) => t.name).join() === "page_fetch", got);
    const r = await declaring.callTool({ name: "page_fetch", arguments: { url: "https://a" } });
    check(`${mode}: a group's tool runs without reset_tools`, !r.isError, r);
    try {
        await declaring.request({ method: "groups/get", params: { name: "web_search" } }, ResultSchema);
        check(`${mode}: an unknown group is refused`, false, "no error");
    } catch (e) {
        check(`${mode}: an unknown group is -32002 with a did-you-mean`,
            e.code === -32002 && e.message.includes("did you mean `web-search`?"), [e.code, e.message]);
    }
    await declaring.close();

    const plain = await connect(mode, {});
    const all = await names(plain);
    // Mask mode lists every tool but reset_tools (first-use activation makes it needless);
    // list mode grows from reset_tools and the basic tools.
    const start = mode === "mask" ? BASIC : ["reset_tools", ...BASIC];
    check(`${mode}: a client that declares nothing sees the basic tools first`,
        JSON.stringify(all.slice(0, start.length)) === JSON.stringify(start), all);
    // A first use: the SDK validates the structured content against the listed output
    // schema (it throws otherwise), and the activation is in it beside the wrapped result.
    const first = await plain.callTool({ name: "web_search", arguments: { query: "rust" } });
    const activated = first.structuredContent?.activated_group;
    check(`${mode}: a first use carries the activation in its validated structured content`,
        !first.isError && Array.isArray(first.structuredContent?.result)
            && activated?.group === "web_search" && activated?.instructions === "Cite your sources.",
        first);
    const again = await plain.callTool({ name: "web_search", arguments: { query: "tokio" } });
    check(`${mode}: the second call carries no activation`,
        !again.isError && again.structuredContent?.activated_group === undefined, again);
    await plain.close();
}

// Over stdio, a request that is not valid JSON-RPC 2.0 but whose id can be read is answered
// -32600 with that id (JSON-RPC 2.0 section 5), through the SDK's own stdio transport.
{
    const transport = new StdioClientTransport({ command: server, args: ["mask", "stdio", ""] });
    const answers = [];
    transport.onmessage = (message) => answers.push(message);
    await transport.start();
    await transport.send({ jsonrpc: "1.0", id: 5, method: "tools/list" });
    await transport.send({ jsonrpc: "2.0", id: 6, method: "ping" });
    for (let i = 0; i < 100 && answers.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refused = answers.find((m) => m.id === 5);
    check("stdio: an invalid request with a readable id is answered -32600 with its id",
        refused?.error?.code === -32600 && refused?.jsonrpc === "2.0", answers);
    check("stdio: the server goes on (a ping is answered)",
        answers.some((m) => m.id === 6 && m.result !== undefined), answers);
    await transport.close();
}

const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
