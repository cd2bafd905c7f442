"""A line tee between an MCP client and a stdio server: ``stdio_tee.py LOG -- COMMAND...``.

It starts COMMAND (its stderr goes to LOG.stderr), relays every line both ways unchanged, and appends each line to LOG as
``{"from": "client"|"server", "line": ...}`` at the moment it is read, before it is forwarded.
A reply can only be read after its request was forwarded, so LOG is in causal order.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading


def main() -> int:
    log_path, sep, *command = sys.argv[1:]
    assert sep == "--" and command, "usage: stdio_tee.py LOG -- COMMAND..."
    # The server's stderr (its tracebacks for failing tools) goes beside the log, not to ours.
    with open(log_path + ".stderr", "ab") as errors:
        server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")

    def relay(source, sink, sender: str) -> None:
        for line in iter(source.readline, b""):
            with lock:
                log.write(json.dumps({"from": sender, "line": line.decode("utf-8", "replace").rstrip("\n")}) + "\n")
                log.flush()
            try:
                sink.write(line)
                sink.flush()
            except (BrokenPipeError, ValueError):
                break
        try:
            sink.close()
        except OSError:
            pass

    upstream = threading.Thread(target=relay, args=(sys.stdin.buffer, server.stdin, "client"), daemon=True)
    upstream.start()
    relay(server.stdout, sys.stdout.buffer, "server")
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
