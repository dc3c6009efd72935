// Interop: the official MCP TypeScript SDK's client (npm `@modelcontextprotocol/sdk`) against
// toolgroup's `io.modelcontextprotocol/groups` extension.
//
// usage: node groups.mjs PATH/TO/node_modules/@modelcontextprotocol/sdk PATH/TO/interop_server
//
// Runs `interop_server` in mask and list mode over stdio: a client that declares the extension
// in its capabilities lists the basic tools only, reads `groups/list` and `groups/get` (raw
// requests: the SDK has no helper for them) and calls a group's tool without `reset_tools`; a
// client that declares nothing lists every tool. Prints one line per check and ends with
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
    check(`${mode}: a client that declares nothing sees reset_tools and the basic tools`,
        JSON.stringify(all.slice(0, 4)) === JSON.stringify(["reset_tools", ...BASIC]), all);
    await plain.close();
}

const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
