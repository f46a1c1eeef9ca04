"""Coven's database schema, version by version: the statements each migration runs.

The schema version lives in ``PRAGMA user_version``; entry ``i`` of
:data:`MIGRATIONS` upgrades a database from version ``i`` to ``i + 1``. Kept
apart from :mod:`saves.schema`, which opens, checks and migrates a file, so
what Coven stores can be read in one place.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # Version 1: the initial schema.
    (
        """
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'finished')),
            progress TEXT NOT NULL DEFAULT '',
            result TEXT,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE seats (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat >= 0),
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
            bot_level TEXT,
            PRIMARY KEY (session_id, seat)
        )
        """,
        """
        CREATE TABLE actions (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            seat INTEGER,
            action TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (session_id, seq)
        )
        """,
        "CREATE INDEX sessions_by_updated ON sessions (updated)",
    ),
    # Version 2: saved deck lists, kept as the text a player wrote. Names are
    # unique per game whatever their letter case, so "Ember" and "ember" are one deck.
    (
        """
        CREATE TABLE decks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            name TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) > 0),
            text TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            UNIQUE (game_id, name)
        )
        """,
    ),
    # Version 3: tables shared between processes (issue 6). A join code is unique
    # only among tables that are not closed, so codes are reused over time. Only
    # hashes of tokens are stored; claims name presence lock files.
    (
        """
        CREATE TABLE tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            code TEXT NOT NULL,
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
            host_claim TEXT,
            host_name TEXT NOT NULL,
            host_token_hash TEXT NOT NULL,
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            allow_spectators INTEGER NOT NULL DEFAULT 0 CHECK (allow_spectators IN (0, 1)),
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX tables_live_code ON tables (code) WHERE status != 'closed'",
        "CREATE INDEX tables_by_session ON tables (session_id)",
        """
        CREATE TABLE table_seats (
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat >= 0),
            role TEXT NOT NULL CHECK (role IN ('remote', 'local', 'bot')),
            name TEXT NOT NULL,
            bot_level TEXT,
            claim TEXT,
            token_hash TEXT,
            dropped_at TEXT,
            PRIMARY KEY (table_id, seat)
        )
        """,
        # Under `coven serve` each account sees only its own sessions (NULL: made at this machine).
        "ALTER TABLE sessions ADD COLUMN owner TEXT",
    ),
    # Version 4: what a player chose last (the new-game form, settings), per served
    # account; '' is this machine's own. Values are JSON text, checked again on reading.
    (
        """
        CREATE TABLE preferences (
            account TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated TEXT NOT NULL,
            PRIMARY KEY (account, key)
        )
        """,
    ),
    # Version 5: the version of its game's rulings a session began under, so it replays under them
    # when a later Coven changes a ruling. NULL: begun before rulings had versions, that is version 1.
    ("ALTER TABLE sessions ADD COLUMN rules_version INTEGER",),
    # Version 6: table talk (issue 16). Lines said at a shared table, kept with its session for the replay
    # (after_seq: how many actions the log held when said; 0 in the lobby), who watches a table, and
    # whether the host lets spectators talk. Every text is checked again on reading.
    (
        """
        CREATE TABLE table_chat (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
            after_seq INTEGER NOT NULL DEFAULT 0,
            seat INTEGER,
            claim TEXT NOT NULL,
            name TEXT NOT NULL,
            line TEXT NOT NULL,
            said TEXT NOT NULL
        )
        """,
        "CREATE INDEX table_chat_by_table ON table_chat (table_id, id)",
        "CREATE INDEX table_chat_by_session ON table_chat (session_id, id)",
        """
        CREATE TABLE table_watchers (
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            claim TEXT NOT NULL,
            name TEXT NOT NULL,
            since TEXT NOT NULL,
            PRIMARY KEY (table_id, claim)
        )
        """,
        "ALTER TABLE tables ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 1",
    ),
    # Version 7: rematches and running series (issue 16). A rematch stores the id of its series' first
    # session (NULL: no rematch led to it); a finished session the seats that won it as a JSON list
    # ('[]': a draw; NULL: finished before this version), so a series is counted without replaying; a
    # table the rematch its players are being asked about (JSON, checked on reading; NULL: none).
    (
        "ALTER TABLE sessions ADD COLUMN series INTEGER",
        "ALTER TABLE sessions ADD COLUMN winners TEXT",
        "ALTER TABLE tables ADD COLUMN rematch TEXT",
    ),
    # Version 8: whether the host lets the seated players ask a game's coach during play (issue 17). Tables
    # from before never offered it, so they stay without.
    ("ALTER TABLE tables ADD COLUMN coach INTEGER NOT NULL DEFAULT 0 CHECK (coach IN (0, 1))",),
    # Version 9: whether a seat's player left the table by choice (1) rather than dropping (0), so the others
    # read "Bea left" and not "Bea dropped" (issue 28). Seats from before read as dropped, as they were shown.
    ("ALTER TABLE table_seats ADD COLUMN chose_to_leave INTEGER NOT NULL DEFAULT 0 CHECK (chose_to_leave IN (0, 1))",),
    # Version 10: the open-table lobby (issue 25). Whether the host listed the table on the Tables screen (tables
    # from before were reachable by code only, so they stay unlisted), and when a player last took one of its
    # seats (UTC ISO-8601; NULL: nobody yet), so a listed table nobody joins for an hour drops off the list.
    (
        "ALTER TABLE tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 0 CHECK (listed IN (0, 1))",
        "ALTER TABLE tables ADD COLUMN last_joined TEXT",
        "CREATE INDEX tables_listed ON tables (status, listed)",
    ),
    # Version 11: ratings for people (issue 25). Whether the host marked the table rated (tables from before
    # were not), the signed-in account that took each seat (NULL: a visit, a local player or a bot), each
    # account's OpenSkill rating per game, and the sessions already rated, so every process at a table that
    # sees the end may try to rate it and only the first changes anything (see saves.ratings).
    (
        "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))",
        "ALTER TABLE table_seats ADD COLUMN account TEXT",
        """
        CREATE TABLE ratings (
            account TEXT NOT NULL,
            game_id TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            updated TEXT NOT NULL,
            PRIMARY KEY (account, game_id)
        )
        """,
        "CREATE TABLE rated_games (session_id INTEGER PRIMARY KEY, rated TEXT NOT NULL, players INTEGER NOT NULL)",
    ),
    # Version 12: turn-based tables (issue 25). A table's pace (0: live, as every table before; else the days a
    # seat has for each move) and the bot level the host chose to take a seat whose time runs out; when a seat's
    # time ran out (NULL: it did not) and the moment its clock starts again after its player took it back from
    # the bot; and each account's vacations (started, the end its bank allowed, when turned off; NULL: still on).
    (
        "ALTER TABLE tables ADD COLUMN pace_days INTEGER NOT NULL DEFAULT 0 CHECK (pace_days IN (0, 1, 3, 7))",
        "ALTER TABLE tables ADD COLUMN timeout_bot TEXT",
        "ALTER TABLE table_seats ADD COLUMN timed_out_at TEXT",
        "ALTER TABLE table_seats ADD COLUMN clock_from TEXT",
        """
        CREATE TABLE vacations (
            account TEXT NOT NULL,
            started TEXT NOT NULL,
            until TEXT NOT NULL,
            ended TEXT
        )
        """,
        "CREATE INDEX vacations_by_account ON vacations (account, started)",
    ),
    # Version 13: clocks for live tables (issue 25). The table's Fischer clock as JSON (engine.core.clock's
    # TableClock, plus the seats its time-outs handed to bots; checked on reading); NULL: no clock, as every
    # table from before had. A rematch plays on at the same table with a fresh clock, so the finished game's
    # clock is kept by its session, for its replay and export.
    (
        "ALTER TABLE tables ADD COLUMN clock TEXT",
        "CREATE TABLE session_clocks (session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,"
        " clock TEXT NOT NULL)",
    ),
)
"""Schema migrations; entry ``i`` upgrades the database to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The newest schema this code knows."""
