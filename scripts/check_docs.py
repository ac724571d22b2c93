"""Check the README and the pages under docs/: ``python scripts/check_docs.py``.

Prints one line per problem and exits 1, or exits 0 when every check holds:

- **README.md has at most 250 lines.** It is the front door; everything longer lives in
  ``docs/``.
- **Every relative link resolves.** Each link and image in README.md and ``docs/**/*.md``
  (``[text](target)``, ``![alt](target)``, ``[label]: target``, and ``src``/``href`` of
  inline HTML) that is not a URL must name a file or folder of the repository, relative to
  the page. An anchor (``page.md#section``, or ``#section`` within the page) must name a
  heading of that Markdown page, as GitHub spells its anchors (lower case, punctuation
  dropped, spaces as hyphens, ``-1``, ``-2`` … for repeated headings).
- **No link leaves the repository.** No absolute path, no ``..`` past the repository's root,
  and no URL — except ``https://`` links to the hosts in :data:`ALLOWED_HOSTS`: Discord's
  developer portal and developer documentation (``discord.com``), which an operator needs
  to create the bot and which the repository cannot hold. The rules of every game live in
  ``docs/rules/``, so no page points to an outside copy of them. Links and bare URLs inside
  code (fenced blocks and inline code) are not links and are not checked; a bare URL in the
  prose is.
- **Nothing mentions ``../shared``**, the folder outside the repository the project was
  first written from (code included: a reader cannot follow it either).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = [
    "ALLOWED_HOSTS",
    "README_MAX_LINES",
    "anchors",
    "links",
    "main",
    "pages",
    "problems",
]

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250
ALLOWED_HOSTS = frozenset({"discord.com"})

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
_INLINE = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_HTML = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_BARE_URL = re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s<>)\]\"'`]+", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def pages(root: Path) -> list[Path]:
    """Return the pages the checks read: README.md and every ``docs/**/*.md``."""
    found = [root / "README.md"] if (root / "README.md").is_file() else []
    return found + sorted((root / "docs").rglob("*.md"))


def _without_code(text: str) -> str:
    # Code shows commands and URLs a reader types or reads (an invite link's template, a
    # database URL); it links nowhere.
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    """Return every link target and bare URL of a Markdown text, outside code."""
    prose = _without_code(text)
    found = [
        m.group(1) for pattern in (_INLINE, _REFERENCE, _HTML) for m in pattern.finditer(prose)
    ]
    # a bare URL in the prose, or an autolink <https://…>, unless it was a target above
    found += [url for url in _BARE_URL.findall(prose) if url not in found]
    return found


def anchors(text: str) -> set[str]:
    """Return the anchors GitHub gives the headings of a Markdown text."""
    found: set[str] = set()
    for match in _HEADING.finditer(_FENCE.sub("", text)):
        heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))  # a link's text
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in found:
            n += 1
            anchor = f"{slug}-{n}"
        found.add(anchor)
    return found


def _outside_url(target: str) -> str | None:
    """Return why a URL target is refused, or None for an allowed one."""
    parts = urlsplit(target)
    if parts.scheme.lower() != "https" or (parts.hostname or "").lower() not in ALLOWED_HOSTS:
        allowed = ", ".join(sorted(ALLOWED_HOSTS))
        return f"links outside the repository ({target}); only https links to {allowed} are allowed"
    return None


def _link_problem(root: Path, page: Path, target: str) -> str | None:
    """Return what is wrong with one link of ``page``, or None."""
    if not target:
        return None
    if _SCHEME.match(target) or target.startswith("//"):
        return _outside_url(target)
    path, _, anchor = target.partition("#")
    path = unquote(path.split("?", 1)[0])
    if path.startswith("/"):
        return f"links to an absolute path ({target}); write it relative to the page"
    resolved = (page.parent / path).resolve() if path else page
    if not resolved.is_relative_to(root.resolve()):
        return f"links outside the repository ({target})"
    if not resolved.exists():
        return f"links to {target}, which does not exist"
    headed = anchor and resolved.suffix == ".md" and resolved.is_file()
    if headed and unquote(anchor) not in anchors(resolved.read_text(encoding="utf-8")):
        return f"links to {target}, whose page has no heading #{anchor}"
    return None


def problems(root: Path = ROOT) -> list[str]:
    """Return one sentence per broken rule, each naming its file (and line, for links)."""
    found: list[str] = []
    readme = root / "README.md"
    if readme.is_file():
        count = len(readme.read_text(encoding="utf-8").splitlines())
        if count > README_MAX_LINES:
            found.append(f"README.md: {count} lines; at most {README_MAX_LINES}")
    for page in pages(root):
        name = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if "../shared" in line:
                found.append(f"{name}:{number}: mentions ../shared, which is not in the repository")
        for target in links(text):
            problem = _link_problem(root, page, target)
            if problem is not None:
                found.append(f"{name}: {problem}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the problems of the repository (or of the folder given) and return 1 if any."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]).resolve() if args else ROOT
    found = problems(root)
    for line in found:
        print(line)
    if not found:
        print(f"docs ok: {len(pages(root))} pages, README.md within {README_MAX_LINES} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
