"""A second server for the sync tests, in a process of its own: the other host a hostile server
redirects to. It writes every request it receives (method, path, every header, the body) to a
log file, one JSON line each, so a test sees exactly what reached it and nothing in the test's own
process can stand in for it.

    python tests/core/recording_server.py LOG ANSWER     (prints its port on the first line)

ANSWER says how it answers every request:
    password       401 with `WWW-Authenticate: Basic` (a server fishing for the password)
    principal:URL  207, a multistatus naming URL as the current user's principal
    moved          301 to itself, one path deeper (a collection that keeps moving)
"""

from __future__ import annotations

import http.server
import json
import sys


def main(log_path: str, answer: str) -> None:
    log = open(log_path, "a", buffering=1, encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def _any(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            record = {
                "method": self.command,
                "path": self.path,
                "headers": [[k, v] for k, v in self.headers.items()],
                "body": body.decode("utf-8", "replace"),
            }
            log.write(json.dumps(record) + "\n")
            headers: dict[str, str] = {}
            if answer == "password":
                status, content = 401, b"who are you?"
                headers["WWW-Authenticate"] = 'Basic realm="calendars"'
            elif answer.startswith("principal:"):
                status = 207
                content = (
                    '<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:"><d:response>'
                    f"<d:href>{self.path}</d:href><d:propstat><d:prop><d:current-user-principal>"
                    f"<d:href>{answer.split(':', 1)[1]}</d:href></d:current-user-principal></d:prop>"
                    "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
                ).encode()
                headers["Content-Type"] = "application/xml; charset=utf-8"
            else:
                status, content = 301, b""
                headers["Location"] = self.path.rstrip("/") + "/deeper/"
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def __getattr__(self, name: str):
            if name.startswith("do_"):  # every method: GET, PROPFIND, REPORT, PUT, DELETE, ...
                return self._any
            raise AttributeError(name)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
