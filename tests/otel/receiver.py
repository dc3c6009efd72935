"""A real OTLP/HTTP receiver on loopback for the `otel` example, decoding its protobuf payloads
with the official definitions (PyPI `opentelemetry-proto`), then checking them.

    python receiver.py PORTFILE -- PROGRAM [ARGS...]

Binds 127.0.0.1 on a free port, writes `http://127.0.0.1:PORT` to PORTFILE, runs PROGRAM with
`OTEL_EXPORTER_OTLP_ENDPOINT` set to it, keeps every span and metric PROGRAM exports, and then
checks them by the OpenTelemetry GenAI and MCP conventions (see `check`). Bounded: PROGRAM
has 120 seconds, a request body at most 8 MiB.
"""

import http.server
import os
import subprocess
import sys
import threading

from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.proto.trace.v1 import trace_pb2

MAX_BODY = 8 << 20
SPANS = []
METRICS = []
LOCK = threading.Lock()


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length > MAX_BODY or self.headers.get("Content-Type") != "application/x-protobuf":
            self.send_response(400)
            self.end_headers()
            return
        body = self.rfile.read(length)
        if self.path == "/v1/traces":
            request = trace_service_pb2.ExportTraceServiceRequest.FromString(body)
            reply = trace_service_pb2.ExportTraceServiceResponse()
            with LOCK:
                for resource in request.resource_spans:
                    for scope in resource.scope_spans:
                        SPANS.extend(scope.spans)
        elif self.path == "/v1/metrics":
            request = metrics_service_pb2.ExportMetricsServiceRequest.FromString(body)
            reply = metrics_service_pb2.ExportMetricsServiceResponse()
            with LOCK:
                for resource in request.resource_metrics:
                    for scope in resource.scope_metrics:
                        METRICS.extend(scope.metrics)
        else:
            self.send_response(404)
            self.end_headers()
            return
        payload = reply.SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attrs(span):
    return {kv.key: value(kv.value) for kv in span.attributes}


def fail(message):
    print(f"otel check failed: {message}", file=sys.stderr)
    names = sorted({s.name for s in SPANS})
    print(f"spans received: {names}", file=sys.stderr)
    sys.exit(1)


def one(name, kind):
    found = [s for s in SPANS if s.name == name and s.kind == kind]
    if len(found) != 1:
        fail(f"expected one span {name!r} of kind {kind}, found {len(found)}")
    return found[0]


def check():
    internal = trace_pb2.Span.SPAN_KIND_INTERNAL
    error = trace_pb2.Status.STATUS_CODE_ERROR

    # The quickstart's turns: execute_tool spans with the GenAI conventions' attributes.
    resets = [s for s in SPANS if s.name == "execute_tool reset_tools" and s.kind == internal]
    if len(resets) != 2:
        fail(f"expected the two reset_tools calls, found {len(resets)}")
    ok, refused = sorted(resets, key=lambda s: "error.type" in attrs(s))
    a = attrs(ok)
    for key, expected in [
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "reset_tools"),
        ("gen_ai.tool.type", "function"),
        ("toolgroup.outcome", "ok"),
        ("toolgroup.groups.activated", "web_search,scraping"),
    ]:
        if a.get(key) != expected:
            fail(f"reset_tools: {key} = {a.get(key)!r}, expected {expected!r}")
    if ok.status.code == error:
        fail("the accepted reset has an error status")
    a = attrs(refused)
    if a.get("error.type") != "refused" or refused.status.code != error:
        fail(f"the misspelt reset: error.type {a.get('error.type')!r}, status {refused.status.code}")
    if "toolgroup.groups.activated" in a:
        fail("the refused reset activated groups")
    # Each local turn's call has the id its provider gave it, as in an agent loop.
    for span, expected in [(ok, "call_1"), (refused, "call_2")]:
        got = attrs(span).get("gen_ai.tool.call.id")
        if got != expected:
            fail(f"reset_tools: gen_ai.tool.call.id = {got!r}, expected {expected!r}")

    # The MCP round trip: one trace from the turn to the server's tool.
    client = one("tools/call web_search", trace_pb2.Span.SPAN_KIND_CLIENT)
    server = one("tools/call web_search", trace_pb2.Span.SPAN_KIND_SERVER)
    turns = [s for s in SPANS if s.name == "agent_turn" and s.span_id == client.parent_span_id]
    if len(turns) != 1:
        fail("the client span is not a child of its turn's span")
    tools = [s for s in SPANS if s.name == "execute_tool web_search" and s.parent_span_id == server.span_id]
    if len(tools) != 1:
        fail("no execute_tool web_search span under the server span")
    local = [s for s in SPANS if s.name == "execute_tool web_search" and s.kind == internal
             and s.parent_span_id != server.span_id]
    if len(local) != 1:
        fail(f"expected the local web_search call, found {len(local)}")
    got = attrs(local[0]).get("gen_ai.tool.call.id")
    if got != "call_3":
        fail(f"the local web_search: gen_ai.tool.call.id = {got!r}, expected 'call_3'")
    trace = client.trace_id
    if not (turns[0].trace_id == server.trace_id == tools[0].trace_id == trace):
        fail("the turn, client, server and tool spans are not one trace")
    if server.parent_span_id != client.span_id:
        fail("the server span's parent is not the client span")
    for span, side in [(client, "client"), (server, "server")]:
        a = attrs(span)
        for key, expected in [
            ("mcp.method.name", "tools/call"),
            ("gen_ai.tool.name", "web_search"),
            ("gen_ai.operation.name", "execute_tool"),
            ("network.transport", "tcp"),
        ]:
            if a.get(key) != expected:
                fail(f"{side} span: {key} = {a.get(key)!r}, expected {expected!r}")
        if not a.get("jsonrpc.request.id") or not a.get("mcp.protocol.version"):
            fail(f"{side} span: no jsonrpc.request.id or mcp.protocol.version")
        if "error.type" in a:
            fail(f"{side} span: an error {a['error.type']!r}")
    if attrs(server).get("network.protocol.name") != "http":
        fail("server span: network.protocol.name is not http")
    if attrs(tools[0]).get("toolgroup.groups.activated") != "web_search":
        fail("the server's tool call did not activate its group on first use")

    # The conventions' duration histograms, with their method.
    for name in ["mcp.server.operation.duration", "mcp.client.operation.duration"]:
        found = [m for m in METRICS if m.name == name]
        if not found or found[0].WhichOneof("data") != "histogram":
            fail(f"no histogram {name} among {sorted({m.name for m in METRICS})}")
        points = [p for m in found for p in m.histogram.data_points]
        methods = {value(kv.value) for p in points for kv in p.attributes if kv.key == "mcp.method.name"}
        if "tools/call" not in methods:
            fail(f"{name} has no tools/call point ({methods})")
    print(f"otel check: {len(SPANS)} spans and {len(METRICS)} metrics as the conventions say")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    with open(sys.argv[1], "w") as f:
        f.write(endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=endpoint)
    run = subprocess.run(sys.argv[3:], env=env, timeout=120)
    server.shutdown()
    if run.returncode != 0:
        fail(f"the program exited with {run.returncode}")
    check()


if __name__ == "__main__":
    main()
