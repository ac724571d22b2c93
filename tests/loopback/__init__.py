"""A loopback Discord for process-level tests of the unmodified bot (``python -m bot``).

* :mod:`tests.loopback.fake_discord` — :class:`FakeDiscord`, the aiohttp server: Discord's
  HTTP API (the routes discord.py uses for this bot) and gateway on 127.0.0.1, with request
  bodies validated against Discord's OpenAPI description, the interaction deadlines, 429
  injection and gateway drops;
* :mod:`tests.loopback.driver` — :class:`LoopbackDiscord` (``async with
  LoopbackDiscord.start() as discord``), guilds, scripted members (``await
  member.slash(channel, "dupe start", computers="random")``, ``await member.click(message,
  label="Join")``) and :class:`BotProcess`, the bot as a subprocess configured by
  environment variables;
* :mod:`tests.loopback.pace` — :class:`Pace`, the clock the deadlines and the waits count
  on: the wall clock less the time a busy machine kept the bot or the server waiting for a
  core;
* :mod:`tests.loopback.test_loopback` — the tests.
"""
