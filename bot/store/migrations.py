"""The schema as numbered migrations, once per SQL dialect: ``MIGRATIONS[n]`` takes an SQLite
database from ``PRAGMA user_version`` n to n + 1, ``PG_MIGRATIONS[n]`` a PostgreSQL database
from ``schema_version.version`` n to n + 1. Both lists have the same length and end in the
same tables and columns; entry n of each is the same change.

A migration runs inside the transaction that opens the store (see
``bot.store.sqlite.SQLiteStore`` and ``bot.store.postgres.PostgresStore``), so a database is
either wholly at the old version or wholly at the new one, and a running bot's database is
migrated in place when the new code starts. Migrations are never edited once released: a
change is a new migration at the end of both lists, tested on a database the released code
wrote (``tests/data/``).

Statements are separated by ``;`` and carry no comments, so that they can be split and
run one by one.

PostgreSQL's types: ``BIGINT`` for Discord ids (they exceed 2^31) and seeds,
``DOUBLE PRECISION`` for times, ``BOOLEAN`` for flags; ``games.id`` is an identity column
(``BY DEFAULT``, so that ``python -m bot.tools migrate-sqlite-to-postgresql`` can keep ids).
No PostgreSQL database was written before migration 6: its first five entries exist so that
both dialects count versions alike.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "PG_MIGRATIONS", "split_statements"]

MIGRATIONS: tuple[str, ...] = (
    # 1: games, seats, moves, results
    """
    CREATE TABLE games (
        id           INTEGER PRIMARY KEY,
        game         TEXT    NOT NULL,
        guild_id     INTEGER NOT NULL,
        channel_id   INTEGER NOT NULL,
        host_id      INTEGER NOT NULL,
        seed         INTEGER NOT NULL,
        options      TEXT    NOT NULL,
        status       TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        message_id   INTEGER,
        deadline     REAL,
        warned       INTEGER NOT NULL DEFAULT 0,
        created_at   REAL    NOT NULL,
        started_at   REAL,
        ended_at     REAL
    );
    CREATE UNIQUE INDEX games_one_live_table_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_guild ON games (guild_id, status);

    CREATE TABLE seats (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id  INTEGER,
        name     TEXT    NOT NULL,
        level    TEXT,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (level IS NULL))
    );
    CREATE UNIQUE INDEX seats_one_seat_per_member ON seats (game_id, user_id)
        WHERE user_id IS NOT NULL;

    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games (id),
        ply         INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        move        TEXT    NOT NULL,
        by_computer INTEGER NOT NULL DEFAULT 0,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;

    CREATE TABLE results (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        user_id  INTEGER,
        level    TEXT,
        score    INTEGER NOT NULL,
        win      REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild_user ON results (guild_id, user_id);
    """,
    # 2: what each seat earned in each deal; OpenSkill ratings per server, game and player
    """
    ALTER TABLE results ADD COLUMN deals TEXT;

    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        player     TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    ) WITHOUT ROWID;
    """,
    # 3: a server's defaults for new tables
    """
    CREATE TABLE guild_defaults (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        options    TEXT    NOT NULL,
        updated_by INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game)
    ) WITHOUT ROWID;
    """,
    # 4: public messages owed to a channel, written in the transaction that makes them
    # due and deleted once sent, so a killed process sends them after its restart; and
    # how many plies the table message shows, so a restart edits only stale tables
    """
    CREATE TABLE outbox (
        game_id INTEGER NOT NULL REFERENCES games (id),
        post    TEXT    NOT NULL,
        PRIMARY KEY (game_id, post)
    ) WITHOUT ROWID;

    ALTER TABLE games ADD COLUMN shown_plies INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: every game, not just Dupe's four seats. Seats 0..15: SQLite cannot alter a CHECK,
    # so ``seats`` is rebuilt the way its documentation says (new table, copy, drop,
    # rename, indexes again; https://www.sqlite.org/lang_altertable.html#otheralter),
    # keeping every row, the primary key, both CHECKs, the foreign key and the index.
    # Nothing refers to ``seats``, so dropping it with foreign keys on deletes nothing
    # elsewhere; the store runs ``PRAGMA foreign_key_check`` before committing. And
    # ``results.deals`` becomes ``rounds``: what the seat earned in each scored round of
    # any game (a JSON list, oldest first; the engine's ``GameResult.rounds``).
    """
    CREATE TABLE seats_new (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 15),
        user_id  INTEGER,
        name     TEXT    NOT NULL,
        level    TEXT,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (level IS NULL))
    );
    INSERT INTO seats_new (game_id, seat, user_id, name, level)
        SELECT game_id, seat, user_id, name, level FROM seats;
    DROP TABLE seats;
    ALTER TABLE seats_new RENAME TO seats;
    CREATE UNIQUE INDEX seats_one_seat_per_member ON seats (game_id, user_id)
        WHERE user_id IS NOT NULL;

    ALTER TABLE results RENAME COLUMN deals TO rounds;
    """,
    # 6: why a table ended without a result (``cancelled`` by its host or a manager,
    # ``expired`` as an idle lobby, ``abandoned`` when its channel was deleted or the bot
    # removed from its server: status stays 'cancelled', so every index and count holds),
    # and when a lobby last changed (it expires after a configurable idle time).
    """
    ALTER TABLE games ADD COLUMN end_reason TEXT;
    ALTER TABLE games ADD COLUMN active_at REAL;
    UPDATE games SET end_reason = 'cancelled' WHERE status = 'cancelled';
    """,
    # 7: events played over several tables (a duplicate whist match): the game that runs
    # them, their server, status (``open``, ``playing``, ``finished``, ``closed``) and what
    # the game keeps of them (a JSON document: format, trays, tables, seating, results)
    """
    CREATE TABLE matches (
        id         INTEGER PRIMARY KEY,
        game       TEXT    NOT NULL,
        guild_id   INTEGER NOT NULL,
        status     TEXT    NOT NULL,
        data       TEXT    NOT NULL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX matches_live ON matches (game, status);
    """,
    # 8: the public posts an event over several tables owes its tables' channels (its
    # outbox), each written in the transaction of the change that made it due, in the
    # server's language; ``seq`` orders an event's posts; once sent a post is marked, not
    # deleted, so that the same post (its nonce) asked for again is not sent twice
    """
    CREATE TABLE match_posts (
        match_id   INTEGER NOT NULL REFERENCES matches (id),
        nonce      TEXT    NOT NULL,
        seq        INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        text       TEXT    NOT NULL,
        sent       INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, nonce)
    );
    CREATE INDEX match_posts_owed ON match_posts (sent);
    """,
    # 9: the token of the interaction whose original response the table message is (the
    # answer to ``/<game> start``, or the lobby message a button updated), and until when
    # the bot edits the message through it: such edits do not count against Discord's
    # global request limit, and a restarted bot goes on with them
    """
    ALTER TABLE games ADD COLUMN message_token TEXT;
    ALTER TABLE games ADD COLUMN token_until REAL;
    """,
)


PG_MIGRATIONS: tuple[str, ...] = (
    # 1: games, seats, moves, results
    """
    CREATE TABLE games (
        id           BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game         TEXT    NOT NULL,
        guild_id     BIGINT  NOT NULL,
        channel_id   BIGINT  NOT NULL,
        host_id      BIGINT  NOT NULL,
        seed         BIGINT  NOT NULL,
        options      TEXT    NOT NULL,
        status       TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        message_id   BIGINT,
        deadline     DOUBLE PRECISION,
        warned       BOOLEAN NOT NULL DEFAULT FALSE,
        created_at   DOUBLE PRECISION NOT NULL,
        started_at   DOUBLE PRECISION,
        ended_at     DOUBLE PRECISION
    );
    CREATE UNIQUE INDEX games_one_live_table_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_guild ON games (guild_id, status);

    CREATE TABLE seats (
        game_id  BIGINT  NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL CONSTRAINT seats_seat_range CHECK (seat BETWEEN 0 AND 3),
        user_id  BIGINT,
        name     TEXT    NOT NULL,
        level    TEXT,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (level IS NULL))
    );
    CREATE UNIQUE INDEX seats_one_seat_per_member ON seats (game_id, user_id)
        WHERE user_id IS NOT NULL;

    CREATE TABLE moves (
        game_id     BIGINT  NOT NULL REFERENCES games (id),
        ply         INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        move        TEXT    NOT NULL,
        by_computer BOOLEAN NOT NULL DEFAULT FALSE,
        created_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, ply)
    );

    CREATE TABLE results (
        game_id  BIGINT  NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL,
        guild_id BIGINT  NOT NULL,
        user_id  BIGINT,
        level    TEXT,
        score    INTEGER NOT NULL,
        win      DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild_user ON results (guild_id, user_id);
    """,
    # 2: what each seat earned in each deal; OpenSkill ratings per server, game and player
    """
    ALTER TABLE results ADD COLUMN deals TEXT;

    CREATE TABLE ratings (
        guild_id   BIGINT  NOT NULL,
        game       TEXT    NOT NULL,
        player     TEXT    NOT NULL,
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        games      INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    """,
    # 3: a server's defaults for new tables
    """
    CREATE TABLE guild_defaults (
        guild_id   BIGINT NOT NULL,
        game       TEXT   NOT NULL,
        options    TEXT   NOT NULL,
        updated_by BIGINT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game)
    );
    """,
    # 4: the outbox, and how many plies the table message shows
    """
    CREATE TABLE outbox (
        game_id BIGINT NOT NULL REFERENCES games (id),
        post    TEXT   NOT NULL,
        PRIMARY KEY (game_id, post)
    );

    ALTER TABLE games ADD COLUMN shown_plies INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: seats 0..15 (PostgreSQL alters a CHECK in place), and ``results.deals`` becomes
    # ``rounds``
    """
    ALTER TABLE seats DROP CONSTRAINT seats_seat_range;
    ALTER TABLE seats ADD CONSTRAINT seats_seat_range CHECK (seat BETWEEN 0 AND 15);

    ALTER TABLE results RENAME COLUMN deals TO rounds;
    """,
    # 6: why a table ended without a result, and when a lobby last changed
    """
    ALTER TABLE games ADD COLUMN end_reason TEXT;
    ALTER TABLE games ADD COLUMN active_at DOUBLE PRECISION;
    UPDATE games SET end_reason = 'cancelled' WHERE status = 'cancelled';
    """,
    # 7: events played over several tables (a duplicate whist match)
    """
    CREATE TABLE matches (
        id         BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game       TEXT    NOT NULL,
        guild_id   BIGINT  NOT NULL,
        status     TEXT    NOT NULL,
        data       TEXT    NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX matches_live ON matches (game, status);
    """,
    # 8: the public posts an event over several tables owes its tables' channels
    """
    CREATE TABLE match_posts (
        match_id   BIGINT  NOT NULL REFERENCES matches (id),
        nonce      TEXT    NOT NULL,
        seq        INTEGER NOT NULL,
        channel_id BIGINT  NOT NULL,
        text       TEXT    NOT NULL,
        sent       BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (match_id, nonce)
    );
    CREATE INDEX match_posts_owed ON match_posts (sent);
    """,
    # 9: the table message's interaction token, and until when the bot uses it
    """
    ALTER TABLE games ADD COLUMN message_token TEXT;
    ALTER TABLE games ADD COLUMN token_until DOUBLE PRECISION;
    """,
)


def split_statements(script: str) -> list[str]:
    """Return the statements of a migration, one by one."""
    return [s.strip() for s in script.split(";") if s.strip()]
