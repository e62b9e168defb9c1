"""Plain HTTP answers on the WebSocket port: responses, the built client's files, security headers.

Only GET and HEAD are served (405 otherwise). A path the file system cannot even look up (a name over
255 bytes, a NUL) is a 404 like any missing file, never a 500. Every response carries the headers of
SECURITY_HEADERS: the client is one script and one style sheet from this origin talking to this
origin's WebSocket, so its Content-Security-Policy allows nothing else (no inline code, no framing).
"""

from __future__ import annotations

import mimetypes
from email.utils import formatdate
from pathlib import Path

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

METHODS = ("GET", "HEAD")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # a join link holds the room code
}
REASONS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}

NOT_BUILT_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>Guandan Online</title></head>
<body><h1>Guandan Online server is running</h1>
<p>The browser client is not built yet. Build it with <code>cd client-js &amp;&amp; npm ci &amp;&amp;
npm run build</code> (or start the server with <code>bash scripts/run.sh</code>, which does it),
then reload this page. The WebSocket endpoint is <code>/ws</code>;
health check: <a href="/healthz">/healthz</a>.</p>
</body></html>"""


NOT_FOUND_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Guandan Online</title></head>
<body><h1>找不到这个页面 · Page not found</h1>
<p><a href="/">回到首页，创建或加入房间 · Back to the start page, to create or join a room</a></p>
<p>房间链接的样子是 /?room=ABC123 · A room's link looks like /?room=ABC123</p>
</body></html>""".encode()


def not_found(path: str, head: bool) -> Response:
    """A page (a mistyped or cut link) gets a page that leads back; a missing asset a short text."""
    if "." in path.rsplit("/", 1)[-1]:
        return response(404, b"not found\n", "text/plain", head)
    return response(404, NOT_FOUND_PAGE, "text/html; charset=utf-8", head)


def response(status: int, body: bytes, content_type: str, head: bool = False) -> Response:
    """A whole response; to a HEAD request the same headers without the body."""
    headers = Headers()
    headers["Date"] = formatdate(usegmt=True)
    headers["Connection"] = "close"
    headers["Content-Length"] = str(len(body))
    headers["Content-Type"] = content_type
    return Response(status, REASONS.get(status, "OK"), headers, b"" if head else body)


def not_allowed() -> Response:
    resp = response(405, b"method not allowed\n", "text/plain")
    resp.headers["Allow"] = ", ".join(METHODS)
    return resp


def static_file(root: Path | None, path: str, head: bool) -> Response:
    """The built client's file at ``path``, or a page saying how to build it, or 404."""
    if root is None or not (root / "index.html").is_file():
        if path in ("/", "/index.html"):
            return response(200, NOT_BUILT_PAGE, "text/html; charset=utf-8", head)
        return not_found(path, head)
    try:
        target = (root / path.lstrip("/")).resolve() if path != "/" else root / "index.html"
        found = target.is_relative_to(root.resolve()) and target.is_file()
        body = target.read_bytes() if found else b""
    except (OSError, ValueError):  # a name too long for the file system, a NUL: no such file
        found = False
    if not found:
        return not_found(path, head)
    ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    return response(200, body, ctype, head)


def add_security_headers(connection: ServerConnection, request: Request, response: Response) -> None:
    """``process_response`` of the server: every HTTP response gets the security headers (WebSocket
    handshake refusals too)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
