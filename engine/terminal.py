"""The shell every game's text table shares: reading and writing lines, numbered choices,
the commands every table knows (help, score, table, hand, quit) and the command line.

A game's ``terminal.py`` subclasses :class:`TextTable` (its ``play`` loop and what its
commands show) and builds its flags with :class:`Flags`, so every table reads input, ends
and refuses a bad flag the same way: a bad flag is one sentence on stderr naming the game
and the values it accepts, exit code 2.
"""

from __future__ import annotations

import abc
import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, NoReturn, TextIO, TypeVar

from engine.cards import Card, by_suit
from engine.errors import EngineError
from engine.game import options_from_json

__all__ = [
    "COMMANDS",
    "BadFlag",
    "Choice",
    "EndOfInput",
    "Flags",
    "Parser",
    "Quit",
    "TextTable",
    "and_list",
    "cards_in_suits",
    "option_value",
    "or_list",
    "sentence",
    "start",
]

T = TypeVar("T")

QUIT_WORDS = frozenset({"quit", "exit", "q"})
YES = frozenset({"y", "yes"})
NO = frozenset({"n", "no"})
COMMANDS = "Commands: hand, table, score, help, quit."
"""The commands every table knows, as its help ends."""


class EndOfInput(Exception):
    """The input stream ended (Ctrl-D)."""


class Quit(Exception):
    """The person asked to leave the table."""


def and_list(names: Sequence[str]) -> str:
    """Return ``a, b and c``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def or_list(names: Sequence[str]) -> str:
    """Return ``a, b or c``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def cards_in_suits(cards: Iterable[Card]) -> list[Card]:
    """Return cards in the order hands are shown: by suit (♠ ♥ ♣ ♦), high first."""
    return sorted(cards, key=by_suit)


@dataclasses.dataclass(frozen=True)
class Choice(Generic[T]):
    """One numbered answer to a question: what is shown, and what it stands for."""

    label: str
    value: T


class TextTable(abc.ABC):
    """A text table's input and output, and the commands every table answers.

    A game's table overrides :meth:`play` and the ``*_lines`` methods the commands show.
    Input is read from ``stdin`` (echoed when it is not a terminal, so a transcript reads
    like a session), or with :func:`input` when ``interactive`` (line editing).
    """

    prompt = "> "

    def __init__(self, stdin: TextIO, stdout: TextIO, *, interactive: bool = False) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self._interactive = interactive
        isatty: Callable[[], bool] | None = getattr(stdin, "isatty", None)
        self._echo = not (isatty is not None and isatty())

    # --- what a game's table provides ------------------------------------------------

    @abc.abstractmethod
    def play(self) -> None:
        """Play the game to its end (raising :class:`EndOfInput` or :class:`Quit` to leave)."""

    def help_lines(self) -> list[str]:
        """Return what ``help`` shows at the current question."""
        return [COMMANDS]

    def score_lines(self) -> list[str]:
        """Return what ``score`` shows: the standings so far."""
        return ["There is no score yet."]

    def table_lines(self) -> list[str]:
        """Return what ``table`` shows: the table as the person sees it."""
        return self.hand_lines()

    def hand_lines(self) -> list[str]:
        """Return what ``hand`` shows: the person's cards."""
        return ["You hold no cards."]

    # --- input and output ------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Print the lines."""
        for line in lines:
            print(line, file=self._stdout)

    def ask(self, prompt: str | None = None) -> str:
        """Return the next line typed after ``prompt``, stripped; raise :class:`EndOfInput`
        at the end of the input and :class:`Quit` on ``quit``."""
        prompt = self.prompt if prompt is None else prompt
        if self._interactive:
            try:
                line = input(prompt)
            except EOFError:
                self._stdout.write("\n")
                raise EndOfInput from None
        else:
            self._stdout.write(prompt)
            self._stdout.flush()
            raw = self._stdin.readline()
            if not raw:
                self._stdout.write("\n")
                raise EndOfInput
            line = raw.rstrip("\r\n")
            if self._echo:
                self._stdout.write(line + "\n")
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit
        return text

    def command(self, text: str) -> bool:
        """Answer ``text`` if it is one of the shared commands; return whether it was."""
        word = text.strip().lower()
        shown = {
            "help": self.help_lines,
            "?": self.help_lines,
            "score": self.score_lines,
            "scores": self.score_lines,
            "totals": self.score_lines,
            "table": self.table_lines,
            "hand": self.hand_lines,
        }.get(word)
        if shown is None:
            return False
        self.say(*shown())
        return True

    def confirm(self, question: str, prompt: str = "(y/n)> ") -> bool:
        """Return the person's yes or no to ``question``, asking until it is one."""
        self.say(question)
        while True:
            answer = self.ask(prompt).lower()
            if answer in YES:
                return True
            if answer in NO:
                return False
            if not self.command(answer):
                self.say("Answer y (yes) or n (no).")

    def choose(
        self,
        choices: Sequence[Choice[T]],
        *,
        read: Callable[[str], T | None] | None = None,
        prompt: str | None = None,
        empty: str = "Type the number of your choice (help lists the commands).",
    ) -> T:
        """Return the value of the choice the person types: its number, or whatever
        ``read`` makes of the text (``None`` when ``read`` has already said why it is no
        choice). Commands are answered and the question asked again."""
        while True:
            text = self.ask(prompt)
            if not text:
                self.say(empty)
                continue
            if self.command(text):
                continue
            if text.isdigit():
                number = int(text)
                if 1 <= number <= len(choices):
                    return choices[number - 1].value
                if len(choices) == 1:
                    self.say(f"There is no choice {number}: type 1 (or the choice itself).")
                else:
                    self.say(f"There is no choice {number}: choose 1 to {len(choices)}.")
                continue
            if read is None:
                self.say(f"“{text}” is not a choice: type its number (help lists the commands).")
                continue
            value = read(text)
            if value is not None:
                return value

    def numbered(self, choices: Sequence[Choice[Any]], width: int = 78) -> list[str]:
        """Return the choices as numbered lines (``[1] 9♠  [2] K♠``), wrapped at ``width``."""
        lines: list[str] = []
        line = ""
        for number, choice in enumerate(choices, 1):
            item = f"[{number}] {choice.label}"
            if line and len(line) + 2 + len(item) > width:
                lines.append(line)
                line = ""
            line = f"{line}  {item}" if line else f"  {item}"
        if line:
            lines.append(line)
        return lines

    # --- running -----------------------------------------------------------------------

    def run(self, intro: Sequence[str] = ()) -> int:
        """Play to the end or until the person leaves; return the exit code: 0 when the game
        ends, on ``quit`` or at the end of the input, 130 on Ctrl-C."""
        try:
            self.say(*intro)
            self.play()
        except EndOfInput:
            self.say("End of input: goodbye.")
        except Quit:
            self.say("You leave the table. Goodbye.")
        except KeyboardInterrupt:
            self.say("", "Interrupted: goodbye.")
            return 130
        return 0


def start(table: TextTable, intro: Sequence[str], real: bool, stdout: TextIO) -> int:
    """Run ``table`` after ``intro``; return its exit code (1 when the reader of the output
    went away, as ``| head`` does)."""
    if table._interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
    try:
        return table.run(intro)
    except BrokenPipeError:
        if real:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 1


def is_interactive(real: bool, stdin: TextIO, stdout: TextIO) -> bool:
    """Return whether both streams are the person's terminal (line editing applies)."""
    return real and stdin.isatty() and stdout.isatty()


# --------------------------------------------------------------------------------------
# The command line


class BadFlag(Exception):
    """A flag's value the game does not accept; ``str()`` is the sentence to print."""


_COMMON_STARTS = frozenset({"The", "There", "A", "An", "Choose", "Unknown", "Write", "Play"})


def sentence(title: str, message: str) -> str:
    """Return ``error: <game>: <message>.`` as one sentence."""
    text = message.strip().rstrip(".")
    if text.startswith(title):
        return f"error: {text}."
    first = text.split(" ", 1)[0]
    if first in _COMMON_STARTS:
        text = text[0].lower() + text[1:]
    return f"error: {title}: {text}."


class Parser(argparse.ArgumentParser):
    """argparse, answering a bad command line with one sentence naming the game."""

    def __init__(self, title: str, games: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.games = list(games)

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument "):
            flag, _, why = message[len("argument ") :].partition(": ")
            flags = flag.split("/")
            if flags == ["game"] and why.startswith("invalid choice"):
                given = why.split("'")[1]
                message = f"there is no game “{given}”: choose {or_list(self.games)}"
            elif why.startswith("expected one argument"):
                message = f"{flags[-1]} needs a value"
            elif why.startswith("invalid int value"):
                message = f"{flags[-1]} takes a whole number, not {why.split(': ', 1)[1]}"
            else:
                message = why
        elif message.startswith("unrecognized arguments: "):
            words = message.split(": ", 1)[1].split()
            unknown = " ".join(w for w in words if w.startswith("-")) or " ".join(words)
            known = sorted({s for a in self._actions for s in a.option_strings if s != "-h"})
            message = f"there is no flag {unknown}: the flags are {', '.join(known)}"
        elif message.startswith("the following arguments are required"):
            message = message[0].upper() + message[1:]
        print(sentence(self.title, message), file=sys.stderr)
        raise SystemExit(2)


class Flags:
    """The flags of one game's text table (``python -m engine.play <game>``): the shared
    ones (``--seed``, ``--seat``, ``--level``, ``--variant``, ``--option``) under the same
    names in every game, and the game's own."""

    def __init__(self, name: str, title: str, description: str) -> None:
        self.title = title
        self.parser = Parser(title, prog=f"python -m engine.play {name}", description=description)

    def seed(self) -> None:
        """Add ``--seed S``."""
        self.parser.add_argument(
            "--seed", type=int, default=None, help="the game's seed (default: a random one, shown)"
        )

    def seat(self, read: Callable[[str], int], default: int, accepted: str) -> None:
        """Add ``--seat``: ``read`` turns the text into a seat or raises :class:`BadFlag`."""

        def seat(text: str) -> int:
            try:
                return read(text)
            except BadFlag as error:
                raise argparse.ArgumentTypeError(str(error)) from None

        self.parser.add_argument(
            "--seat", type=seat, default=default, help=f"your seat: {accepted}"
        )

    def level(self, levels: Iterable[str], default: str) -> None:
        """Add ``--level``: one of ``levels``."""
        names = list(levels)

        def level(text: str) -> str:
            if text not in names:
                raise argparse.ArgumentTypeError(
                    f"“{text}” is not a computer level: choose {or_list(names)}"
                )
            return text

        self.parser.add_argument(
            "--level",
            type=level,
            default=default,
            help=f"the computer players' level: {', '.join(names)} (default {default})",
        )

    def variant(self, variants: Sequence[str], default: str, word: str = "variant") -> None:
        """Add ``--variant`` (and ``--preset`` where the game calls its variants presets)."""

        def variant(text: str) -> str:
            if text not in variants:
                raise argparse.ArgumentTypeError(
                    f"“{text}” is not a {word}: choose {or_list(list(variants))}"
                )
            return text

        names = ["--variant"] + ([f"--{word}"] if word != "variant" else [])
        self.parser.add_argument(
            *names,
            dest="variant",
            type=variant,
            default=default,
            help=f"the {word}: {', '.join(variants)} (default {default})",
        )

    def option(self, example: str) -> None:
        """Add ``--option NAME=VALUE`` (repeatable)."""
        self.parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"a game option (repeatable), e.g. {example}",
        )

    def add(self, *names: str, **kwargs: Any) -> None:
        """Add one of the game's own flags (``argparse``'s ``add_argument``)."""
        self.parser.add_argument(*names, **kwargs)

    def parse(self, argv: Sequence[str] | None, stdout: TextIO) -> argparse.Namespace:
        """Return the parsed flags; ``--help`` goes to ``stdout``; a bad flag raises
        ``SystemExit(2)`` after its sentence on stderr."""
        with contextlib.redirect_stdout(stdout):
            return self.parser.parse_args(None if argv is None else list(argv))

    def fail(self, message: str) -> int:
        """Print one sentence naming the game on stderr; return exit code 2."""
        print(sentence(self.title, message), file=sys.stderr)
        return 2


def option_value(text: str) -> Any:
    """Return an option's value from the command line: a whole number, true/false, or text."""
    if text.lstrip("-").isdigit():
        return int(text)
    if text.lower() in ("true", "false", "on", "off"):
        return text.lower() in ("true", "on")
    return text


def options_from_flags(
    options_type: type[T], pairs: Sequence[str], fixed: Mapping[str, Any] | None = None
) -> T:
    """Return options of ``options_type`` from ``NAME=VALUE`` pairs and ``fixed`` values;
    raise :class:`BadFlag` naming what is wrong and what the game accepts."""
    names = [f.name for f in dataclasses.fields(options_type)]  # type: ignore[arg-type]
    values: dict[str, Any] = dict(fixed or {})
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise BadFlag(f"“{pair}” is not an option: write NAME=VALUE, like {names[0]}=…")
        name = name.strip()
        if name not in names:
            raise BadFlag(f"there is no option “{name}”: the options are {', '.join(names)}")
        values[name] = option_value(value.strip())
    try:
        return options_from_json(options_type, values)
    except (EngineError, TypeError, ValueError) as error:
        raise BadFlag(str(error)) from None


def variant_field(options_type: type[Any]) -> str | None:
    """Return the option ``--variant`` sets in a game: ``variant`` (whist), ``preset``
    (Doppelkopf), or ``None`` for a game without variants."""
    names = {f.name for f in dataclasses.fields(options_type)}
    return next((name for name in ("variant", "preset") if name in names), None)
