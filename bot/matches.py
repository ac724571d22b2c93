"""Events played over several tables (a duplicate whist match), as the core runs them: it
knows no game.

A game that has such events gives its ``GameUI`` a ``match_rules`` object
(:class:`MatchRules`): pure functions over the event's document (a JSON-ready dict, kept in
the store's ``matches`` table) that return what is to be done, as values (:data:`Effect`):
public posts in the tables' channels, tables to open with every seat taken, live tables to
close, ratings to move, the event's new status. :class:`Matches` does it: one lock per
event, the document read and written around each change, every effect carried out and the
rules told what came of it (a table opened, a table changed, abandoned, or stopped at the
deadline). After a restart it gives each live event the states of its tables to catch up
with what they did meanwhile.

An event's public posts are its outbox, as a table's are: each is written in the same
transaction as the document change that made it due (``match_posts``), then handed to the
courier (:mod:`bot.delivery`), which sends a channel's posts in order and marks each sent
only once Discord took it, retrying as it does a table's. A post the rules ask for again (a
restart catching up) is owed once: its nonce is remembered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.delivery import Courier
from bot.i18n import Lang
from bot.match_rules import Close, Effect, MatchRules, Open, Rate, Say, Status
from bot.store import MatchPost, MatchRecord, Store
from bot.tables import Outcome, Table, TableOptions, Tables, UserError, engine_options

__all__ = [
    "Close",
    "Effect",
    "MatchRules",
    "Matches",
    "Open",
    "Rate",
    "Say",
    "Status",
    "TableHost",
]

log = logging.getLogger(__name__)

# A restart looks among the server's last finished tables of the game for one a match
# opened but did not record (a table of computers is over as it opens).
_RECENT = 50


class TableHost(Protocol):
    """What the events need of the bot's tables (the controller provides it)."""

    tables: Tables
    courier: Courier  # delivers the events' posts (their outbox) as it does the tables'

    def owns(self, guild_id: int) -> bool:
        """Return whether this process runs the server (its shard)."""
        ...

    async def open_started(self, **arranged: Any) -> Table:
        """Open a table with every seat taken, start it and post its table message."""
        ...

    async def close_table(self, game_id: int) -> None:
        """Close a live table without a result and show it closed."""
        ...


@dataclass
class _Running:
    record: MatchRecord
    status: str
    queue: list[Effect] = field(default_factory=list)
    owed: set[str] = field(default_factory=set)  # nonces of the queued posts stored as owed


class Matches:
    """Every live event over several tables of this bot (see the module docstring)."""

    def __init__(
        self,
        host: TableHost,
        store: Store,
        rules: Mapping[str, MatchRules],
        lang: Callable[[int], Lang],
    ) -> None:
        self.host = host
        self.tables = host.tables
        self.courier = host.courier
        self.store = store
        self.rules = dict(rules)
        self._lang = lang
        self._locks: dict[int, asyncio.Lock] = {}
        self._by_game: dict[int, int] = {}  # a table → its event
        self._nonces: dict[int, set[str]] = {}  # event → every post it has owed

    def _now(self) -> float:
        return float(self.tables.clock())

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    # --- reading ---------------------------------------------------------------------

    async def get(self, match_id: int) -> MatchRecord | None:
        """Return the event."""
        return await self.store.match(match_id)

    async def live(self, game: str) -> list[MatchRecord]:
        """Return the game's open or running events."""
        return await self.store.live_matches(game)

    async def in_guild(self, guild_id: int, game: str) -> list[MatchRecord]:
        """Return the server's latest events of ``game``, newest first."""
        return await self.store.matches_in(guild_id, game)

    async def hidden(self, game_id: int) -> bool:
        """Return whether the table belongs to an event still open or running: its record
        is the event's to show (``/replay`` and ``/history`` wait for the event's end)."""
        match_id = self._by_game.get(game_id)
        if match_id is None:
            return False
        record = await self.store.match(match_id)
        return record is not None and record.status in ("open", "playing")

    async def finished_lines(self, guild_id: int, lang: Lang, limit: int = 5) -> list[str]:
        """Return the server's latest finished events, one line each, newest first."""
        lines: list[str] = []
        for game, rules in self.rules.items():
            for record in await self.store.matches_in(guild_id, game):
                if record.status == "finished" and len(lines) < limit:
                    lines.append(rules.summary(record.id, record.data, lang))
        return lines

    # --- changing --------------------------------------------------------------------

    async def create(self, game: str, guild_id: int, data: dict[str, Any]) -> int:
        """Store a new event (``open``) and set its deadline."""
        match_id = await self.store.create_match(game, guild_id, data, self._now())
        self._schedule(match_id, game, data)
        return match_id

    async def update(
        self, match_id: int, change: Callable[[MatchRecord], list[Effect]]
    ) -> MatchRecord:
        """Change the event under its lock: ``change`` edits the document in place and
        returns the effects (a ``UserError`` it raises changes nothing); the document is
        stored, then the effects are carried out."""
        async with self._lock(match_id):
            record = await self.store.match(match_id)
            if record is None:
                raise UserError("errors.game_gone")
            effects = change(record)
            await self._run(_Running(record, record.status, list(effects)))
            return record

    async def table_changed(self, outcome: Outcome) -> None:
        """A table changed (a move, a stand-in, its end, its channel gone): its event, if it
        has one, hears of it."""
        table = outcome.table
        match_id = self._by_game.get(table.id)
        if match_id is None:
            return  # no event's, or one being opened (the opening tells its rules)
        async with self._lock(match_id):
            record = await self.store.match(match_id)
            if record is None or record.status != "playing":
                return
            rules = self.rules[record.game]
            ended = table.status in ("abandoned", "cancelled")
            stood_in = left = None
            if outcome.timed_out and table.state is not None:
                stood_in = table.state.move_count - len(outcome.moves)
            if outcome.handed_over is not None and table.state is not None:
                left = table.state.move_count - len(outcome.moves)
            effects = rules.changed(
                record.data,
                table.id,
                None if ended else table.state,
                ended=ended,
                stood_in=stood_in,
                left=left,
            )
            await self._run(_Running(record, record.status, effects))

    async def _run(self, running: _Running) -> None:
        """Store the document, then carry out the effects in order (an opened table's
        own effects after the others); the document is stored again after each effect
        that changes it, so a restart resumes from the last one done."""
        record = running.record
        rules = self.rules[record.game]
        await self._save(running)
        while running.queue:
            effect = running.queue.pop(0)
            if isinstance(effect, Say):
                if effect.nonce in running.owed and effect.channel_id is not None:
                    await self.courier.deliver_match_posts(effect.channel_id)
            elif isinstance(effect, Open):
                running.queue += await self._open(record, effect, rules)
                await self._save(running)
            elif isinstance(effect, Close):
                await self._close(effect.game_id)
            elif isinstance(effect, Rate):
                try:
                    await self.store.rate(record.guild_id, rules.game, effect.results, self._now())
                except Exception:
                    log.exception("match %s: its ratings could not be stored", record.id)
            elif isinstance(effect, Status):
                running.status = effect.status
                await self._save(running)
                if effect.status in ("finished", "closed"):
                    self.tables.scheduler.cancel(("match", record.id))
                    log.info("match %s: %s", record.id, effect.status)

    async def _save(self, running: _Running) -> None:
        """Store the document, and owe the queued posts not owed yet in the same
        transaction (a post owed before, its nonce known, is not owed again)."""
        record = running.record
        nonces = self._nonces.get(record.id)
        if nonces is None:
            nonces = self._nonces[record.id] = await self.store.match_nonces(record.id)
        lang = self._lang(record.guild_id)
        posts: list[MatchPost] = []
        for effect in running.queue:
            if not isinstance(effect, Say) or effect.channel_id is None:
                continue
            if effect.nonce in nonces or any(p.nonce == effect.nonce for p in posts):
                continue
            text = effect.text(lang)[:2000]
            seq = len(nonces) + len(posts)
            posts.append(
                MatchPost(record.id, record.guild_id, effect.channel_id, effect.nonce, seq, text)
            )
        await self.store.save_match(record.id, running.status, record.data, self._now(), posts)
        for post in posts:
            nonces.add(post.nonce)
            running.owed.add(post.nonce)
            self.courier.owe_match_post(post)

    def owing_guilds(self) -> set[int]:
        """Return the servers whose channels are owed the events' posts."""
        return self.courier.match_post_guilds()

    async def _open(self, record: MatchRecord, effect: Open, rules: MatchRules) -> list[Effect]:
        try:
            table = await self.host.open_started(
                game=rules.game,
                guild_id=record.guild_id,
                channel_id=effect.channel_id,
                host_id=effect.host_id,
                options=effect.options,
                seats=effect.seats,
                seed=effect.seed,
            )
        except UserError as error:
            log.warning("match %s: table %s not opened: %s", record.id, effect.key, error)
            return rules.opened(record.data, effect.key, None, None)
        self._by_game[table.id] = record.id
        return rules.opened(record.data, effect.key, table.id, table.state)

    async def _close(self, game_id: int) -> None:
        await self.host.close_table(game_id)

    # --- time ------------------------------------------------------------------------

    def _schedule(self, match_id: int, game: str, data: dict[str, Any]) -> None:
        when = self.rules[game].deadline(data)
        if when is not None:
            self.tables.scheduler.at(("match", match_id), when, lambda: self._expire(match_id))

    async def _expire(self, match_id: int) -> None:
        async with self._lock(match_id):
            record = await self.store.match(match_id)
            if record is None or record.status not in ("open", "playing"):
                return
            rules = self.rules[record.game]
            states = {}
            for game_id in sorted(rules.games(record.data)):
                table = self.tables.tables.get(game_id)
                if table is not None and table.state is not None:
                    states[game_id] = table.state
            effects: list[Effect] = rules.expired(record.data, states)
            effects = [Close(game_id) for game_id in states] + effects
            await self._run(_Running(record, record.status, effects))

    # --- a start ---------------------------------------------------------------------

    async def load(self) -> None:
        """After a start: send what the events owed the channels; remember every live
        event's tables, set its deadline, and let its rules catch up with what its tables
        did while the bot was not watching."""
        await self.courier.load_match_posts()
        for game, rules in self.rules.items():
            for record in await self.store.live_matches(game):
                if not self.host.owns(record.guild_id):
                    continue  # another process runs that server's shard
                for game_id in rules.games(record.data):
                    self._by_game[game_id] = record.id
                self._schedule(record.id, game, record.data)
                if record.status == "playing":
                    coro = self._resume(record.id)
                    self.courier.spawn(coro, f"match-{record.id}")

    async def _replayed(self, game_id: int) -> Any:
        """Return a stored table's state, replayed (``None``: closed without a result)."""
        stored = await self.store.game(game_id)
        if stored is None or stored.status == "cancelled":
            return None
        ui = self.tables.games(stored.game)
        options = engine_options(ui, TableOptions.from_json(stored.options))
        return ui.game.replay(stored.seed, options, stored.moves)

    async def _resume(self, match_id: int) -> None:
        async with self._lock(match_id):
            record = await self.store.match(match_id)
            if record is None or record.status != "playing":
                return
            rules = self.rules[record.game]
            tables = self.tables
            known = rules.games(record.data)
            states: dict[int, Any] = {}
            for game_id in sorted(known):
                table = tables.tables.get(game_id)
                if table is not None and table.state is not None:
                    states[game_id] = table.state
                    continue
                states[game_id] = await self._replayed(game_id)
            live: dict[int, tuple[int, Mapping[str, Any], Any]] = {
                t.channel_id: (t.id, dict(t.options.game), t.state)
                for t in tables.tables.values()
                if t.game == rules.game and t.guild_id == record.guild_id
            }
            seen = set(live)
            recent = await self.store.recent_games(record.guild_id, rules.game, limit=_RECENT)
            for finished in recent:  # newest first: the latest table of each channel
                stored = finished.record
                if stored.channel_id in seen:
                    continue
                seen.add(stored.channel_id)
                if stored.status == "finished" and stored.id not in known:
                    options = TableOptions.from_json(stored.options).game
                    state = await self._replayed(stored.id)
                    live[stored.channel_id] = (stored.id, dict(options), state)
            effects = rules.resume(record.data, states, live)
            for game_id in rules.games(record.data):
                self._by_game[game_id] = record.id  # a table found again included
            await self._run(_Running(record, record.status, effects))
