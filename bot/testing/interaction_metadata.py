"""What Discord stores on a message made through an interaction: ``interaction_metadata``
(who, which interaction, the original response a follow-up answers, the message whose
component was used) and, for a slash command, the older ``interaction`` with the command's
name. Clients draw a message from these as "Ana used /sensei move", or as a reply to the
interaction's original response; the stand-in stores them as Discord does so that a test, or
the playground, can see under whose name each public message appears."""
from __future__ import annotations

from typing import Any, Protocol

#: Discord's interaction types
APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 2, 3, 5


class InteractionRecord(Protocol):
    """What the stand-in knows of an interaction (``fake_discord.InteractionRecord``)."""
    kind: int
    message_id: int | None
    user: dict[str, Any] | None
    interaction_id: int
    name: str
    owners: dict[str, str]


def _user(record: InteractionRecord) -> dict[str, Any]:
    # A message carries the person's user object, not what only the interaction knew (locale).
    return {k: v for k, v in (record.user or {}).items() if k != "locale"}


def stamp(message: dict[str, Any], record: InteractionRecord, *,
          original_response_id: int | None = None) -> None:
    """Store the interaction's metadata on ``message``: an original response (``original_
    response_id`` None) or a follow-up of the response ``original_response_id``."""
    if record.user is None:
        return
    metadata: dict[str, Any] = {
        "id": str(record.interaction_id), "type": record.kind, "user": _user(record),
        "authorizing_integration_owners": dict(record.owners),
    }
    if original_response_id is not None:
        metadata["original_response_message_id"] = str(original_response_id)
    if record.kind == MESSAGE_COMPONENT and record.message_id is not None:
        metadata["interacted_message_id"] = str(record.message_id)
    message["interaction_metadata"] = metadata
    if record.kind == APPLICATION_COMMAND and record.name:
        # Deprecated by Discord but still sent: the only place a client reads the command from
        message["interaction"] = {"id": str(record.interaction_id), "type": record.kind,
                                  "name": record.name, "user": _user(record)}


def author_of(message: dict[str, Any]) -> int | None:
    """The person a message's interaction names, if any."""
    metadata = message.get("interaction_metadata")
    if not metadata or not metadata.get("user"):
        return None
    return int(metadata["user"]["id"])
