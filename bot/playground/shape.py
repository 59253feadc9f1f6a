"""A message as the page shows it: Discord's message dict with attachments pointing at
``/uploads/<id>`` and embed pictures (``attachment://name``) resolved to the same, each with
its attachment's description (alt text). The text is passed on as it is: the page renders it
with textContent only."""
from __future__ import annotations

import copy
from typing import Any

from .uploads import Uploads, content_type

EPHEMERAL = 64


def shape(message: dict[str, Any], uploads: Uploads) -> dict[str, Any]:
    files = {}
    attachments = []
    for attachment in message.get("attachments") or []:
        attachment_id = int(attachment["id"])
        url = f"/uploads/{attachment_id}" if uploads.has(attachment_id) else None
        size = {key: attachment[key] for key in ("width", "height") if attachment.get(key)}
        described = dict(size, description=attachment.get("description") or "")
        files[attachment["filename"]] = (url, described)
        attachments.append({"id": str(attachment_id), "filename": attachment["filename"],
                            "url": url, "type": content_type(attachment["filename"]),
                            "description": attachment.get("description") or "", **size})
    embeds = copy.deepcopy(message.get("embeds") or [])
    used = set()
    for embed in embeds:
        for key in ("image", "thumbnail"):
            picture = embed.get(key)
            if not picture:
                continue
            url = picture.get("url") or ""
            name = url[len("attachment://"):] if url.startswith("attachment://") else None
            # An embed's picture is an attachment: its alt text is the attachment's.
            url, size = files.get(name, (None, {})) if name else (None, {})
            picture.update(url=url, filename=name or "", **size)
            used.add(name)
    author = message.get("author") or {}
    return {
        "id": str(message["id"]), "channel_id": str(message["channel_id"]),
        "author": {"id": str(author.get("id", "")),
                   "name": author.get("global_name") or author.get("username") or "?",
                   "bot": bool(author.get("bot"))},
        "content": message.get("content") or "",
        "embeds": embeds,
        "components": message.get("components") or [],
        "attachments": [a for a in attachments if a["filename"] not in used],
        "ephemeral": bool((message.get("flags") or 0) & EPHEMERAL),
        "edited": bool(message.get("edited_timestamp")),
        **header(message),
    }


def header(message: dict[str, Any]) -> dict[str, Any]:
    """What Discord draws above a message made through an interaction, from what it stores
    on the message: "<user> used /command" over a command's own answer; a reply bar to the
    interaction's original response over a follow-up (to the clicked message over a click's
    own answer)."""
    metadata = message.get("interaction_metadata") or {}
    user = (metadata.get("user") or {}).get("id")
    if not user:
        return {}
    name = (message.get("interaction") or {}).get("name") or ""
    reply_to = metadata.get("original_response_message_id") or metadata.get("interacted_message_id")
    return {"interaction": {"user": str(user), "command": f"/{name}" if name else "",
                            "reply_to": str(reply_to) if reply_to else None}}
