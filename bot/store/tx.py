"""What a write job is: a coroutine function of a transaction, the same on every backend.

SQL is written with ``?`` placeholders and SQLite's null-safe ``IS ?``; the PostgreSQL
backend numbers the placeholders and spells ``IS ?`` as ``IS NOT DISTINCT FROM``. Statements
keep to what both understand (``ON CONFLICT … DO``, ``RETURNING``, no ``INSERT OR …``).
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Iterable, Protocol, Sequence


class Tx(Protocol):
    #: "sqlite" or "postgresql", for the rare statement the two spell differently
    dialect: str

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]: ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> tuple | None: ...

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any: ...


Job = Callable[[Tx], Awaitable[Any]]
#: each job's (value, refusal), or the index of the job at which the database failed and why
Outcomes = tuple[list[tuple[Any, BaseException | None]], int, BaseException | None]
