"""The README and docs/ as ``scripts/check_docs.py`` checks them: the README's length, every
relative link resolving inside the repository, no link leaving it, no ``../shared``."""

from __future__ import annotations

from pathlib import Path

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent


check = load_script("check_docs")


def _repo(tmp_path: Path, readme: str = "# Parlour\n", **docs: str) -> Path:
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    for name, text in docs.items():
        page = tmp_path / "docs" / f"{name.replace('__', '/')}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
    return tmp_path


def test_the_docs_pages_pass() -> None:
    assert [p for p in check.problems(ROOT) if not p.startswith("README.md")] == []


def test_the_readme_passes() -> None:
    # Fails until the README is cut to its front-door size (issue #30): the check is real.
    assert [p for p in check.problems(ROOT) if p.startswith("README.md")] == []


def test_every_game_has_a_rules_page_and_a_guide() -> None:
    for game in ("dupe", "doppelkopf", "whist", "dukes_up"):
        assert (ROOT / "docs" / "rules" / f"{game}.md").is_file()
        assert (ROOT / "docs" / "games" / f"{game}.md").is_file()


def test_a_clean_repository_passes(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        "# Parlour\n\n![lobby](docs/shot.md) [rules](docs/rules/dupe.md#scoring) [top](#parlour)\n"
        "[portal](https://discord.com/developers/applications)\n",
        shot="x",
        rules__dupe="# Dupe\n\n## Scoring\n\n[back](../../README.md) [guide](../games/dupe.md)\n",
        games__dupe="[rules][r]\n\n[r]: ../rules/dupe.md\n",
    )
    assert check.problems(root) == []
    assert check.main([str(root)]) == 0


def test_the_readme_may_have_250_lines_not_251(tmp_path: Path) -> None:
    assert check.problems(_repo(tmp_path, "line\n" * 250)) == []
    assert check.problems(_repo(tmp_path, "line\n" * 251)) == ["README.md: 251 lines; at most 250"]


def test_a_link_to_a_missing_file_is_named(tmp_path: Path) -> None:
    root = _repo(tmp_path, "[rules](docs/rules/dupe.md)\n", games__whist="![t](../shots/t.png)\n")
    assert check.problems(root) == [
        "README.md: links to docs/rules/dupe.md, which does not exist",
        "docs/games/whist.md: links to ../shots/t.png, which does not exist",
    ]
    assert check.main([str(root)]) == 1


def test_an_anchor_must_name_a_heading(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        "# Parlour\n\n[a](#parlour) [b](#nowhere) [c](docs/x.md#a-b-c-1) [d](docs/x.md#a-b-c-2)\n",
        x="## A `b`: c!\n\n```\n# not a heading\n```\n\n## A b c\n",
    )
    assert check.problems(root) == [
        "README.md: links to #nowhere, whose page has no heading #nowhere",
        "README.md: links to docs/x.md#a-b-c-2, whose page has no heading #a-b-c-2",
    ]
    assert check.anchors("# Playing Dukes Up! on Discord\n## 1. Short whist\n") == {
        "playing-dukes-up-on-discord",
        "1-short-whist",
    }


def test_links_leaving_the_repository_are_refused(tmp_path: Path) -> None:
    (tmp_path.parent / "outside.md").write_text("x", encoding="utf-8")
    root = _repo(
        tmp_path,
        "[a](../outside.md) [b](/etc/hosts) [c](http://discord.com/x) [d](https://example.org)\n"
        "See <https://www.parlettgames.uk/> or https://pypi.org/project/endplay/ too.\n"
        '<img src="https://example.org/x.png"> [e](mailto:a@b.c)\n',
    )
    problems = check.problems(root)
    assert len(problems) == 8, problems
    assert problems[0] == "README.md: links outside the repository (../outside.md)"
    assert problems[1].startswith("README.md: links to an absolute path (/etc/hosts)")
    for target in (
        "http://discord.com/x",
        "https://example.org",
        "https://www.parlettgames.uk/",
        "https://pypi.org/project/endplay/",
        "https://example.org/x.png",
        "mailto:a@b.c",
    ):
        assert any(f"outside the repository ({target})" in p for p in problems), target


def test_code_is_not_a_link(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        "Invite: `https://discord.com/oauth2/authorize?client_id=<ID>` or `[x](nowhere.md)`.\n\n"
        "```bash\ncurl https://example.org/  # [y](missing.md)\n```\n",
    )
    assert check.problems(root) == []


def test_the_shared_folder_is_never_mentioned(tmp_path: Path) -> None:
    root = _repo(tmp_path, "ok\n", rules__dupe="Source: `../shared/rules/dupe.md`.\n")
    assert check.problems(root) == [
        "docs/rules/dupe.md:1: mentions ../shared, which is not in the repository"
    ]
