"""Each game's slash command group, built from its ``GameUI``: ``/<game> start``,
``defaults``, ``hand``, ``status``, ``rules`` and ``cancel``.

``start`` and ``defaults`` take one option stack: the shared options (turn time, computer
players, seating, pictures, hints) and then the game's own (``GameUI.options``). Every name,
description and choice carries a catalogue key, so :class:`Translator` gives Discord each
one's German.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import hints, pictures, render, suits
from bot.game import Choice, GameUI, OptionSpec
from bot.i18n import catalogue, lang_of, t
from bot.tables import TableOptions, UserError, engine_options, game_fields
from engine.errors import OptionsError

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["Translator", "command_text", "compose_defaults", "game_group", "shared_options"]


def command_text(key: str) -> app_commands.locale_str:
    """Return a command's name, description or choice for Discord: the English text,
    carrying ``key`` so :class:`Translator` can find its German."""
    return app_commands.locale_str(t("en", key), key=key)


class Translator(app_commands.Translator):
    """Gives Discord the German of every command text that carries a catalogue key."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or locale is not discord.Locale.german:
            return None
        entry = catalogue().get(key, {}).get("de")
        return entry if isinstance(entry, str) else None


_TURN_TIMES = (30, 60, 120, 180, 300, 900, 3600, 86400)


def shared_options(ui: GameUI) -> tuple[OptionSpec, ...]:
    """Return the options every game's ``start`` has, before the game's own (``pictures``
    only for a game that draws any, ``hints`` for one that gives advice)."""
    # the game's levels, strongest first (each described in its catalogue), then none
    levels = [(f"{ui.name}.computers_{level}", level) for level in reversed(list(ui.game.levels))]
    shared = [
        OptionSpec(
            "turn_time",
            "commands.turn_time_name",
            "commands.turn_time_description",
            tuple(Choice(f"commands.turn_{s}", s) for s in _TURN_TIMES),
        ),
        OptionSpec(
            "computers",
            "commands.computers_name",
            "commands.computers_description",
            (
                *(Choice(key, level) for key, level in levels),
                Choice("commands.computers_none", "none"),
            ),
        ),
        OptionSpec(
            "seating",
            "commands.seating_name",
            "commands.seating_description",
            (Choice("commands.seating_join", "join"), Choice("commands.seating_random", "random")),
        ),
    ]
    if ui.draws_pictures:
        shared.append(
            OptionSpec(
                "pictures",
                "commands.pictures_name",
                "commands.pictures_description",
                (Choice("commands.pictures_on", "on"), Choice("commands.pictures_off", "off")),
            )
        )
    if hints.offered(ui):
        shared.append(
            OptionSpec(
                "hints",
                "commands.hints_name",
                "commands.hints_description",
                (Choice("commands.hints_off", "off"), Choice("commands.hints_on", "on")),
            )
        )
    return tuple(shared)


def chosen_options(values: Mapping[str, Any], ui: GameUI) -> dict[str, Any]:
    """Return the table options a command was given, as stored (the game's own under
    ``game``)."""
    chosen: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for name, choice in values.items():
        if choice is None:
            continue
        value = choice.value
        if name == "turn_time":
            chosen["turn_seconds"] = value
        elif name == "computers":
            chosen["level"] = None if value == "none" else value
        elif name == "seating":
            chosen["seating"] = value
        elif name == "pictures":
            chosen["pictures"] = value == "on"
        elif name == "hints":
            chosen["hints"] = value == "on"
        elif any(spec.name == name for spec in ui.options):
            # a switch of the game's own ("on"/"off") is a yes-or-no engine option
            own[name] = value == "on" if value in ("on", "off") else value
    if own:
        chosen["game"] = own
    return chosen


Handler = Callable[[discord.Interaction, dict[str, Any]], Awaitable[None]]


def _with_options(
    name: str, description: str, specs: tuple[OptionSpec, ...], handler: Handler
) -> app_commands.Command[Any, ..., None]:
    """Return a command taking one optional choice per spec; ``handler`` gets them all."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await handler(interaction, values)

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for spec in specs:
        kind = int if isinstance(spec.choices[0].value, int) else str
        parameters.append(
            inspect.Parameter(
                spec.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=None,
                annotation=app_commands.Choice[kind] | None,  # type: ignore[valid-type]
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    # The options are known only at run time: ``@app_commands.choices``, ``rename`` and
    # ``describe`` called on the callback built here.
    choose = app_commands.choices(
        **{
            spec.name: [
                app_commands.Choice(name=command_text(c.key), value=c.value) for c in spec.choices
            ]
            for spec in specs
        }
    )
    rename = app_commands.rename(**{spec.name: command_text(spec.name_key) for spec in specs})
    describe = app_commands.describe(
        **{spec.name: command_text(spec.description_key) for spec in specs}
    )
    callback = describe(rename(choose(callback)))
    return app_commands.Command(
        name=command_text(name), description=command_text(description), callback=callback
    )


def _plain(
    name: str, description: str, run: Callable[[discord.Interaction], Awaitable[None]]
) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: discord.Interaction) -> None:
        await run(interaction)

    return app_commands.Command(
        name=command_text(name), description=command_text(description), callback=callback
    )


async def table_defaults(bot: Host, ui: GameUI, guild_id: int | None) -> dict[str, Any]:
    """Return the options a new table of ``ui``'s game gets when ``start`` chooses none:
    this bot's settings, overridden by the server's defaults for the game."""
    server = await bot.store.defaults(guild_id, ui.name) if guild_id is not None else {}
    return compose_defaults(bot, ui, server)


def compose_defaults(bot: Host, ui: GameUI, server: Mapping[str, Any]) -> dict[str, Any]:
    """Return the bot's settings overridden by a server's stored defaults, as stored."""
    settings = bot.settings
    level = settings.level_for(ui.name)
    turn = settings.turn_seconds
    # A game whose rules fix a turn time (``GameUI.default_turn_seconds``: Dukes
    # Up!'s 180 s) has it unless this bot's configuration sets one.
    own = ui.default_turn_seconds
    if own is not None and "turn_seconds" not in settings.model_fields_set:
        turn = int(own)
    options: dict[str, Any] = {
        "turn_seconds": turn,
        "level": level if level in ui.game.levels else ui.game.default_level,
        "seating": "join",
        "pictures": settings.pictures,
        "hints": False,
    }
    options.update({k: server[k] for k in options if k in server})
    options["game"] = dict(TableOptions.from_json(server, game_fields(ui)).game)
    return options


async def _defaults(
    bot: Host, ui: GameUI, interaction: discord.Interaction, values: dict[str, Any]
) -> None:
    """Answer ``/<game> defaults``: save the ``values`` chosen (server
    managers only, and only defaults a table could start with) and show the server's."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise UserError("cog.defaults_need_server")
    store = bot.store
    current = await store.defaults(guild_id, ui.name)
    chosen = chosen_options(values, ui)
    if chosen:
        permissions = interaction.permissions
        if not (permissions and permissions.manage_guild):
            raise UserError("cog.defaults_managers_only")
        own = {**current.get("game", {}), **chosen.pop("game", {})}
        current.update(chosen)
        if own:
            current["game"] = own
        try:  # defaults no table could start with are refused, not saved
            engine_options(ui, TableOptions.from_json(compose_defaults(bot, ui, current)))
        except OptionsError as error:
            raise UserError.of(ui.refusal(error)) from error
        await store.set_defaults(
            guild_id, current, interaction.user.id, discord.utils.utcnow().timestamp(), ui.name
        )
    shown = compose_defaults(bot, ui, current)
    game_options = engine_options(ui, TableOptions.from_json(shown))
    lang = lang_of(interaction.locale)
    text = render.defaults_text(ui, shown, game_options, changed=bool(chosen), lang=lang)
    await interaction.response.send_message(text, ephemeral=True)


async def _rules(
    bot: Host, ui: GameUI, interaction: discord.Interaction, chosen: dict[str, Any]
) -> None:
    """Answer ``/<game> rules`` with the rules (``chosen``: the game's own
    choices, ``GameUI.rules_options``), with their picture where the server shows them."""
    lang = lang_of(interaction.locale)
    with_picture = (await table_defaults(bot, ui, interaction.guild_id))["pictures"]
    text, picture = ui.rules(lang, bool(with_picture), **chosen)
    text = suits.rich(text)
    if picture is None:
        await interaction.response.send_message(text, ephemeral=True)
        return
    data = await pictures.render_off_loop(picture)
    file = discord.File(io.BytesIO(data), filename=pictures.picture_filename("rules"))
    await interaction.response.send_message(text, file=file, ephemeral=True)


def game_group(bot: Host, ui: GameUI) -> app_commands.Group:
    """Return the ``/<game>`` command group of ``ui``'s game."""
    controller = bot.controller
    name = ui.name
    specs = shared_options(ui) + ui.options

    async def start(interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def run() -> None:
            options = await table_defaults(bot, ui, interaction.guild_id)
            chosen = chosen_options(values, ui)
            options["game"] = {**options["game"], **chosen.pop("game", {})}
            options.update(chosen)
            await controller.start_table(interaction, name, TableOptions.from_json(options))

        await controller.safely(interaction, run())

    async def defaults(interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await controller.safely(interaction, _defaults(bot, ui, interaction, values))

    # A game may ask for choices of its own (whist: which variant's rules): ``rules_options``
    # (``OptionSpec`` values); the chosen values reach ``ui.rules`` as keywords.
    rules_specs = ui.rules_options

    async def rules_with(interaction: discord.Interaction, values: dict[str, Any]) -> None:
        chosen = {k: v.value for k, v in values.items() if v is not None}
        await rules(interaction, **chosen)

    async def rules(interaction: discord.Interaction, **chosen: Any) -> None:
        await controller.safely(interaction, _rules(bot, ui, interaction, chosen))

    def delegate(
        method: Callable[[discord.Interaction, str], Awaitable[None]],
    ) -> Callable[[discord.Interaction], Awaitable[None]]:
        # The controller is told whose command it was: its refusals name this game.
        async def run(interaction: discord.Interaction) -> None:
            await controller.safely(interaction, method(interaction, name))

        return run

    group = app_commands.Group(
        name=command_text(f"{name}.command_name"),
        description=command_text(f"{name}.command_description"),
        guild_only=True,
    )
    key = f"{name}.command"
    for command in (
        _with_options(f"{key}_start_name", f"{key}_start_description", specs, start),
        _with_options(f"{key}_defaults_name", f"{key}_defaults_description", specs, defaults),
        _plain(
            f"{key}_hand_name", f"{key}_hand_description", delegate(controller.show_hand_command)
        ),
        _plain(f"{key}_status_name", f"{key}_status_description", delegate(controller.status)),
        _with_options(f"{key}_rules_name", f"{key}_rules_description", rules_specs, rules_with)
        if rules_specs
        else _plain(f"{key}_rules_name", f"{key}_rules_description", rules),
        _plain(
            f"{key}_cancel_name", f"{key}_cancel_description", delegate(controller.cancel_command)
        ),
        _plain(
            "commands.leave_name", "commands.leave_description", delegate(controller.leave_command)
        ),
    ):
        group.add_command(command)
    # A game may add commands of its own to its group (whist: ``duplicate``, the matches
    # over several tables): ``GameUI.subcommands``.
    for extra in ui.subcommands(bot):
        group.add_command(extra)
    return group
