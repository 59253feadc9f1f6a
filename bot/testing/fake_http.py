"""The wire between discord.py and the Discord stand-in: an aiohttp-shaped session.

discord.py sends every REST call (``HTTPClient.request``) and every interaction response and
follow-up (``AsyncWebhookAdapter.request``) through ``session.request(method, url, …)``. Putting
the stand-in there, rather than replacing those two methods, means discord.py's own handling of
Discord's answers runs for real: rate-limit buckets read from the ``X-RateLimit-*`` headers,
sleeping on a 429's ``retry_after``, the global lock, and the exceptions built from error bodies.
"""
from __future__ import annotations

import io
import json
from typing import Any, Awaitable, Callable

from multidict import CIMultiDict

#: what a handler answers: status, headers, and a JSON body (or plain text, as Cloudflare gives)
Answer = tuple[int, dict[str, str], Any]
Handler = Callable[[str, str, dict[str, str], Any, list[tuple[str, bytes]]], Awaitable[Answer]]

REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
           403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
           429: "Too Many Requests", 500: "Internal Server Error"}


def read_body(data: Any) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body and the uploaded files of what discord.py hands aiohttp: a JSON string, or
    a FormData of a ``payload_json`` part and ``files[n]`` parts."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return (json.loads(data) if data else None), []
    if isinstance(data, dict):  # a form, as aiohttp encodes a dict (OAuth2's token request)
        return {str(k): str(v) for k, v in data.items()}, []
    body, files = None, []
    for options, _headers, value in data._fields:  # aiohttp.FormData
        name = options["name"]
        if name == "payload_json":
            body = json.loads(value)
        elif "filename" in options:
            if isinstance(value, io.IOBase):
                at = value.tell()
                content = value.read()
                value.seek(at)
            else:
                content = bytes(value)
            files.append((options["filename"], content))
    return body, files


class FakeResponse:
    def __init__(self, status: int, headers: dict[str, str], body: Any) -> None:
        self.status = status
        self.reason = REASONS.get(status, "")
        self.headers = CIMultiDict(headers)
        if body is None:
            self._text = ""
        elif isinstance(body, str):
            self._text = body
        else:
            self._text = json.dumps(body)
            self.headers.setdefault("Content-Type", "application/json")

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def json(self) -> Any:
        return json.loads(self._text)

    def release(self) -> None:
        pass


class _Exchange:
    def __init__(self, handler: Handler, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self.handler, self.method, self.url, self.kwargs = handler, method, url, kwargs

    async def __aenter__(self) -> FakeResponse:
        path = self.url.split("/api/v10", 1)[-1]
        body, files = read_body(self.kwargs.get("data"))
        headers = dict(self.kwargs.get("headers") or {})
        status, answer_headers, answer = await self.handler(self.method, path, headers, body, files)
        return FakeResponse(status, answer_headers, answer)

    async def __aexit__(self, *exc: Any) -> None:
        return None


class FakeSession:
    """Stands where discord.py keeps its ``aiohttp.ClientSession``."""

    closed = False

    def __init__(self, handler: Handler) -> None:
        self.handler = handler

    def request(self, method: str, url: str, **kwargs: Any) -> _Exchange:
        return _Exchange(self.handler, method, url, kwargs)

    async def close(self) -> None:
        pass
