"""A slow but working MCP server over HTTP for the recorder's tests (``AGENT_LOOP_SIM_MCP_HTTP_PEER``):
prints its URL, then answers every request with JSON, each after ``SLOW_SECONDS`` (0.6 by
default); a notification gets 202 and the client's GET stream 405 (none offered). The standard
library only, so its start-up is no part of the wait."""
import http.server
import json

from mcp_server_slow import answer  # (this folder is the script's: first on sys.path)


class Slow(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # noqa: ANN002
        pass

    def _answer(self, status: int, body: dict | None = None) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._answer(405)

    def do_DELETE(self) -> None:
        self._answer(200)

    def do_POST(self) -> None:
        said = answer(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null"))
        if said is None:
            self._answer(202)
        else:
            self._answer(200, said)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
print(f"http://127.0.0.1:{server.server_address[1]}/mcp", flush=True)
server.serve_forever()
