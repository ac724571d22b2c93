"""A person at a text table, for the terminal tests: reads the screen and answers what it
asks (a script first, then a game's default answer)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from engine.play import main as play_main


class Typist(io.TextIOBase):
    """An input stream answering each question from what the screen shows since the last
    answer: ``script`` lines first, then ``default(screen)``; after ``limit`` answers the
    input ends (EOF)."""

    def __init__(
        self,
        out: io.StringIO,
        script: Sequence[str] = (),
        default: Callable[[str], str] = lambda screen: "1",
        limit: int = 20000,
    ) -> None:
        super().__init__()
        self.out = out
        self.script = list(script)
        self.default = default
        self.limit = limit
        self.answers = 0
        self._seen = 0

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        if self.answers > self.limit:
            return ""
        text = self.out.getvalue()
        screen, self._seen = text[self._seen :], len(text)
        if self.script:
            return self.script.pop(0) + "\n"
        return self.default(screen) + "\n"


def play(
    args: Sequence[str],
    script: Sequence[str] = (),
    default: Callable[[str], str] = lambda screen: "1",
    limit: int = 20000,
) -> tuple[int, str]:
    """Run ``python -m engine.play ARGS`` with a typist; return the exit code and screen."""
    out = io.StringIO()
    code = play_main(list(args), Typist(out, script, default, limit), out)
    return code, out.getvalue()


def after(screen: str, marker: str) -> str:
    """Return the screen from ``marker`` on (asserting it is there)."""
    assert marker in screen, marker
    return screen[screen.index(marker) :]
