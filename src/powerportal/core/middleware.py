"""ASGI middleware: request bodies' size and query parameters, and the helpers the lean routes share."""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from powerportal.core.envelope import envelope_response


class BodySizeLimit:
    """Refuse bodies over the limit with a 413 envelope, whether or not they declare a length."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it when its body is too large."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, replay_body(b"".join(chunks), receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit_kib = self.max_bytes // 1024
        response = envelope_response(413, f"请求体过大（上限 {limit_kib} KB）", 413)
        await response(scope, receive, send)


class SingleQueryValues:
    """Refuse an API query string that gives one parameter twice (``?sysno=1&sysno=2``): a 400 envelope.

    No route takes a list in its query, and FastAPI would silently take the last value of a repeated one.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it when a query parameter is repeated."""
        api = scope["type"] == "http" and scope["path"].startswith("/api/")
        query = scope.get("query_string", b"") if api else b""
        if b"&" in query:
            names = [name for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True)]
            repeated = sorted({name for name in names if names.count(name) > 1})
            if repeated:
                response = envelope_response(400, f"参数 {repeated[0]} 只能出现一次", 400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of a request header (``name`` in lower case, as ASGI gives header names)."""
    for key, value in scope["headers"]:
        if key == name:
            found: bytes = value
            return found
    return None


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A receive channel that hands out an already read body once more, then the original channel."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
