// Interop: the official MCP TypeScript SDK's v2 client (npm `@modelcontextprotocol/client`)
// answers the questions of toolgroup's MCP server on 2026-07-28 (multi-round-trip requests,
// SEP-2322) and, for contrast, on 2025-11-25 (`elicitation/create` during the call).
//
// usage: node input.mjs PATH/TO/node_modules/@modelcontextprotocol/client PATH/TO/mcp_server
//
// Starts the `mcp_server` example (built with the facade's `mcp` feature) over Streamable HTTP
// on a free loopback port, in selected mode with the `reports` group (`/mcp?groups=reports`).
// Its destructive `delete_report` waits for the user's yes (the server's `ElicitationApprover`);
// its `retitle_report` asks the user for a title itself (`ToolContext::ask`). The client answers
// through its `elicitation/create` handler: on 2026-07-28 the SDK gets the form as the call's
// `input_required` answer (under the key `q1`, checked once by hand with `allowInputRequired`)
// and calls again with the answer and the `requestState`. A yes runs the tool; a no and a
// decline refuse it with the reason. Prints one line per check and ends with
// `N passed, N failed`; exits non-zero when a check failed. Bounded: 60 s in all.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [pkg, example] = process.argv.slice(2);
if (!pkg || !example) {
    console.error("usage: node input.mjs PATH/TO/@modelcontextprotocol/client PATH/TO/mcp_server");
    process.exit(2);
}
const { Client, StreamableHTTPClientTransport } = await import(`${pkg}/dist/index.mjs`);

const results = [];
function check(name, ok, detail) {
    results.push(Boolean(ok));
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${JSON.stringify(detail)}`}`);
}

const deadline = setTimeout(() => {
    console.log("FAIL the checks did not end within 60 s");
    server.kill();
    process.exit(1);
}, 60_000);

// The server, on a free loopback port: its first line on stderr ends with the endpoint.
const server = spawn(example, ["--transport", "http", "--mode", "selected", "--listen", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
});
const first = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stderr });
    lines.once("line", resolve);
    server.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
});
if (!first.includes("http://")) {
    server.kill();
    throw new Error(`the server did not start: ${first}`);
}
const url = new URL(`${first.slice(first.indexOf("http://")).trim()}?groups=reports`);

const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

// A client on `mode` whose user answers every form with `action` (and `content`); `asked`
// keeps each form the handler got, and the id it came under.
async function connect(mode, action, content) {
    const client = new Client(
        { name: "input-interop", version: "0" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
    );
    const asked = [];
    client.setRequestHandler("elicitation/create", async (request, ctx) => {
        // The id it was asked under: an input request's key on 2026-07-28, the JSON-RPC id of
        // an `elicitation/create` request before.
        asked.push({ params: request.params, id: ctx.mcpReq.id });
        return content === undefined ? { action } : { action, content };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    return { client, asked };
}

const APPROVAL = "Allow the tool `delete_report` (group `reports`) to run? It is marked destructive.\n"
    + 'Arguments: {"topic":"q3"}';
const DENIED = "`delete_report` was not run: denied by policy: not approved: ";

for (const [label, mode] of [["2026-07-28", { pin: "2026-07-28" }], ["legacy", "legacy"]]) {
    {
        const { client, asked } = await connect(mode, "accept", { approve: true });
        const r = await client.callTool({ name: "delete_report", arguments: { topic: "q3" } });
        check(`${label}: approved, the tool runs`, !r.isError && text(r) === "Deleted the report on q3.", r);
        check(`${label}: the user was asked once, with the approval form`,
            asked.length === 1 && asked[0].params.message === APPROVAL
                && JSON.stringify(asked[0].params.requestedSchema.required) === '["approve"]', asked);
        if (label === "legacy") {
            check("legacy: asked with an elicitation/create request (a JSON-RPC id)",
                asked.length === 1 && asked[0].id !== "q1", asked.map((a) => a.id));
        } else {
            check(`${label}: asked through the input request \`q1\` of an input-required result`,
                asked.length === 1 && asked[0].id === "q1", asked.map((a) => a.id));
            // The first answer, by hand: the input request and a sealed state.
            const raw = await client.callTool({ name: "delete_report", arguments: { topic: "q3" } },
                { allowInputRequired: true });
            check(`${label}: by hand, the call answers input_required with \`q1\` and a requestState`,
                raw.resultType === "input_required"
                    && JSON.stringify(Object.keys(raw.inputRequests ?? {})) === '["q1"]'
                    && raw.inputRequests.q1.method === "elicitation/create"
                    && typeof raw.requestState === "string" && raw.requestState.length > 0, raw);
        }
        const retitled = await client.callTool({ name: "retitle_report", arguments: { topic: "q3" } });
        check(`${label}: the tool's own question was asked`,
            asked.length >= 2 && JSON.stringify(asked.at(-1).params.requestedSchema.required) === '["title"]',
            asked.at(-1));
        // The approval form's answer does not fit the title form: the tool reads why.
        check(`${label}: an answer that does not fit the tool's form reaches the tool as an error`,
            retitled.isError && text(retitled).startsWith("The report on q3 was not retitled: asking the user failed:"),
            retitled);
        await client.close();
    }
    {
        const { client } = await connect(mode, "accept", { title: "Figures of Q3" });
        const r = await client.callTool({ name: "retitle_report", arguments: { topic: "q3" } });
        check(`${label}: the tool's own question gets its answer`,
            !r.isError && text(r) === 'The report on q3 is now titled "Figures of Q3".', r);
        await client.close();
    }
    for (const [action, content, reason] of [
        ["accept", { approve: false }, "the user did not approve running `delete_report`"],
        ["decline", undefined, "the user declined to run `delete_report`"],
    ]) {
        const { client } = await connect(mode, action, content);
        const r = await client.callTool({ name: "delete_report", arguments: { topic: "q3" } });
        check(`${label}: ${action} ${JSON.stringify(content ?? {})}: refused with the reason`,
            r.isError && text(r) === DENIED + reason, r);
        await client.close();
    }
}

clearTimeout(deadline);
server.kill();
const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
