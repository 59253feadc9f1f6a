"""The bytes of what the bot attached (board PNGs, replay GIFs, move lists), kept while a
message still shows them and served by attachment id only (no path from a request reaches
the file system)."""
from __future__ import annotations

from typing import Any

TYPES = {"png": "image/png", "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg",
         "webp": "image/webp", "txt": "text/plain; charset=utf-8"}


def content_type(filename: str) -> str:
    return TYPES.get(filename.rsplit(".", 1)[-1].lower(), "application/octet-stream")


class Uploads:
    def __init__(self) -> None:
        self._bytes: dict[int, tuple[str, bytes]] = {}
        self._of_message: dict[int, set[int]] = {}

    def get(self, attachment_id: int) -> tuple[str, bytes] | None:
        return self._bytes.get(attachment_id)

    def has(self, attachment_id: int) -> bool:
        return attachment_id in self._bytes

    def keep(self, message: dict[str, Any], requests: list[Any]) -> None:
        """Remember the bytes of ``message``'s attachments, found among the newest recorded
        requests (the one that created or edited it) by file name and size; forget those it
        no longer shows."""
        message_id = int(message["id"])
        now = set()
        for attachment in message.get("attachments") or []:
            attachment_id = int(attachment["id"])
            now.add(attachment_id)
            if attachment_id in self._bytes:
                continue
            data = _find(requests, attachment["filename"], attachment.get("size"))
            if data is not None:
                self._bytes[attachment_id] = (attachment["filename"], data)
        self.drop(message_id, keep=now)

    def drop(self, message_id: int, keep: set[int] | None = None) -> None:
        for old in self._of_message.pop(message_id, set()) - (keep or set()):
            self._bytes.pop(old, None)
        if keep:
            self._of_message[message_id] = keep


def _find(requests: list[Any], filename: str, size: int | None) -> bytes | None:
    for request in reversed(requests[-8:]):
        for name, data in getattr(request, "files", None) or []:
            if name == filename and (size is None or len(data) == size):
                return data
    return None
