"""Discord's attachment objects for the files a request uploads, as the stand-in makes them."""
from __future__ import annotations

from typing import Any, Callable


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF, read from its header (as Discord reports them)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    return None


def attachments_of(files: list[tuple[str, bytes]], new_id: Callable[[], int],
                   body: Any = None) -> list[dict[str, Any]]:
    """Discord's attachment objects for uploaded files; a picture's carry its size, which
    lets a client keep its place on the page before it has loaded, and the description (alt
    text) the body gave the upload (``attachments[].id`` is the file's index)."""
    declared = (body.get("attachments") if isinstance(body, dict) else None) or []
    described = {str(a.get("id")): a["description"] for a in declared
                 if isinstance(a, dict) and a.get("description")}
    attachments = []
    for index, (name, data) in enumerate(files):
        attachment: dict[str, Any] = {"id": str(new_id()), "filename": name, "size": len(data),
                                      "url": f"https://cdn.invalid/{name}",
                                      "proxy_url": f"https://cdn.invalid/{name}"}
        if str(index) in described:
            attachment["description"] = described[str(index)]
        if (size := image_size(data)) is not None:
            attachment["width"], attachment["height"] = size
        attachments.append(attachment)
    return attachments
