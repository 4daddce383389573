"""Security headers on every answer: what the browser may load, frame and send along."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = b"content-security-policy"
# API answers (JSON, the brand logos) are data, never a page: nothing may load from them or frame them.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
# The web app loads only its own scripts. antd writes its styles at run time (CSS-in-JS) and React
# sets style attributes, hence 'unsafe-inline' for styles only; logos and icons may be data URLs.
WEB_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    # Login links carry their secret in the query string: no page of ours tells another site its address.
    (b"referrer-policy", b"no-referrer"),
    # frame-ancestors in the policies; this is for browsers that predate it.
    (b"x-frame-options", b"DENY"),
)
API_HEADERS = (*COMMON, (CSP, API_POLICY.encode()))
WEB_HEADERS = (*COMMON, (CSP, WEB_POLICY.encode()))


API_HEADERS_BUT_POLICY = API_HEADERS[:-1]
WEB_HEADERS_BUT_POLICY = WEB_HEADERS[:-1]


class SecurityHeaders:
    """Add the security headers to every HTTP answer; a response that sets its own policy keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on and add the headers to the answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                extra = API_HEADERS if api else WEB_HEADERS
                for name, _value in headers:  # a handful: a plain loop beats any() and a generator
                    if name.lower() == CSP:
                        extra = API_HEADERS_BUT_POLICY if api else WEB_HEADERS_BUT_POLICY
                        break
                headers.extend(extra)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
