"""``python -m bot [--config PATH]``: run the Discord bot.

Bad settings, a missing token or an unusable database: one sentence on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings


def _check_database(settings: Settings) -> None:
    from bot.store import open_store

    async def check() -> None:
        store = await open_store(settings.database)
        await store.close()

    asyncio.run(check())


def import_http_client() -> None:
    """Import aiohttp, discord.py's HTTP client, without the CA store of a TLS context that
    verifies nothing.

    aiohttp makes two TLS contexts as it is imported: one that verifies certificates, for
    every request to Discord, and one for requests made with ``ssl=False``, which the bot
    never makes. Each loads the system's CA store (30 ms with OpenSSL 3, at every start);
    the second checks no certificate against it, so it is made without."""
    import ssl

    if "aiohttp.connector" in sys.modules or "set_default_verify_paths" in vars(ssl.SSLContext):
        return
    load = ssl.SSLContext.set_default_verify_paths

    def unless_unverified(context: ssl.SSLContext) -> None:
        if context.verify_mode != ssl.CERT_NONE:
            load(context)

    ssl.SSLContext.set_default_verify_paths = unless_unverified  # type: ignore[method-assign,assignment]
    try:
        import aiohttp.connector  # noqa: F401
    finally:
        del ssl.SSLContext.set_default_verify_paths  # the inherited one again


# At DEBUG these write whole payloads: SQL parameters (every face-down choice in the move
# log), raw gateway events (the components of a member's private hand) and request bodies.
PAYLOAD_LOGGERS = ("aiosqlite", "discord.gateway", "discord.http", "discord.webhook")


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``; the loggers that write payloads never go below INFO."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    floor = max(logging.getLevelNamesMapping()[level], logging.INFO)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot until it is stopped; return the exit code."""
    # Starting makes some 300,000 objects (the imports, then the live tables) and frees
    # almost none of them: the cyclic collector would walk them over and over (a tenth of
    # the imports' time). It is back on once the tables are loaded, where the bot's own
    # collection policy begins (``bot.app._Collections``), and whenever this returns.
    gc.disable()
    try:
        return _run(argv)
    finally:
        gc.enable()


def _run(argv: Sequence[str] | None) -> int:
    from bot.config import ConfigError, load_settings
    from bot.store import StoreError

    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the card games bot.")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="TOML settings file (default: config.toml in the working directory, if present)",
    )
    args = parser.parse_args(argv)
    config: Path | None = args.config
    if config is None and Path("config.toml").exists():
        config = Path("config.toml")
    try:
        settings = load_settings(config)
        _check_database(settings)
    except (ConfigError, StoreError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    import_http_client()
    from bot.app import create_bot

    gc.freeze()  # the modules: the first full collection need not walk them
    bot = create_bot(settings)
    bot.handle_signals = True  # SIGTERM (docker stop) and SIGINT stop it cleanly, exit 0
    bot.owns_process = True  # and its start-up objects leave the collector's reach at READY
    try:
        bot.run(settings.token.get_secret_value(), log_handler=None)
    except KeyboardInterrupt:
        return 0
    except Exception as error:  # a rejected token, a network failure at login
        print(f"error: the bot stopped: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
