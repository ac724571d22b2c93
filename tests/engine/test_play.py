"""The terminal table: whole games driven through its input stream, and what it shows."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

from engine.cards import DECK, Card, by_suit, parse_card
from engine.dupe import (
    SEAT_NAMES,
    SEATS,
    Distribute,
    DupeOptions,
    DupeState,
    Play,
    new_game,
)
from engine.dupe.players import make_player
from engine.dupe.terminal import CARD_PROMPT, CONFIRM_PROMPT, DISTRIBUTE_PROMPT, DupeTable
from engine.play import main

PROMPTS = (CARD_PROMPT, DISTRIBUTE_PROMPT, CONFIRM_PROMPT)
DEFAULTS = {CARD_PROMPT: "1", DISTRIBUTE_PROMPT: "1 2 3 4", CONFIRM_PROMPT: "y"}
CARD_TOKEN = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


class Responder(io.TextIOBase):
    """An input stream that reads the screen and answers the prompt shown, like a person.

    ``scripts[prompt]`` lists the answers to give to that prompt first, in order; then the
    default answer (the first card listed, the trick's cards in seat order, "y"). After
    ``limit`` answers the stream ends (EOF), and ``on_read`` may interrupt instead.
    """

    def __init__(
        self,
        out: io.StringIO,
        scripts: dict[str, list[str]] | None = None,
        *,
        limit: int | None = None,
        on_read: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__()
        self.out = out
        self.scripts = {prompt: list(lines) for prompt, lines in (scripts or {}).items()}
        self.limit = limit
        self.on_read = on_read
        self.reads = 0
        self.asked: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        if self.on_read is not None:
            self.on_read(self.reads)
        if self.limit is not None and self.reads >= self.limit:
            return ""
        self.reads += 1
        screen = self.out.getvalue()
        prompt = next((p for p in PROMPTS if screen.endswith(p)), None)
        assert prompt is not None, f"input read without a prompt: {screen[-200:]!r}"
        self.asked.append(prompt)
        queue = self.scripts.get(prompt)
        answer = queue.pop(0) if queue else DEFAULTS[prompt]
        return answer + "\n"


def run_table(
    seed: int = 5,
    seat: int = 2,
    *,
    level: str = "random",
    memory: str = "strict",
    state: DupeState | None = None,
    **responder: object,
) -> tuple[DupeState, str, Responder]:
    """Play at a table built like ``main`` builds it; return the state, the screen, the input."""
    if state is None:
        state = new_game(seed, DupeOptions(memory=memory))  # type: ignore[arg-type]
    players = {s: make_player(level, seed * 4 + s) for s in SEATS if s != seat}
    out = io.StringIO()
    stdin = Responder(out, **responder)  # type: ignore[arg-type]
    table = DupeTable(state, seat, players, stdin, out, order_seed=seed)
    assert table.run() == 0
    return state, out.getvalue(), stdin


def run_main(args: list[str], **responder: object) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=Responder(out, **responder), stdout=out)  # type: ignore[arg-type]
    return code, out.getvalue()


def first_listed(hand: tuple[Card, ...]) -> Card:
    return sorted(hand, key=by_suit)[0]


def before_scoring(screen: str, deal: int) -> str:
    """Return the part of the screen shown during ``deal``, before it was scored."""
    start = screen.index(f"=== Deal {deal} of 4 ===")
    return screen[start : screen.index(f"=== Deal {deal} scored ===")]


# --------------------------------------------------------------------------------------
# Whole games


def test_a_whole_game_is_played_to_the_final_standings() -> None:
    state, screen, stdin = run_table(seed=11, seat=2)
    assert state.is_over
    assert len(state.results) == 4
    assert "=== Final standings ===" in screen
    for deal in range(1, 5):
        assert f"=== Deal {deal} scored ===" in screen
    # the person answered every card prompt with the first card listed: check the log
    replayed = new_game(11)
    for move in state.moves:
        if move.seat == 2 and isinstance(move.action, Play):
            view = replayed.view(2)
            assert move.action.card == first_listed(view.hand)
        replayed.apply(move.seat, move.action)
    # the last card of each deal is played without asking
    assert stdin.asked.count(CARD_PROMPT) == 4 * 12
    assert screen.count("You play your last card") == 4


def test_standings_list_every_seat_by_total_and_name_the_winners() -> None:
    state, screen, _ = run_table(seed=2, seat=0, level="greedy")
    standings = screen.split("=== Final standings ===", 1)[1].strip().splitlines()
    rows = standings[:4]
    totals = [int(row.split()[-1]) for row in rows]
    assert totals == sorted(state.totals, reverse=True)
    names = " and ".join(SEAT_NAMES[s] + (" (you)" if s == 0 else "") for s in state.winners)
    assert standings[4].startswith(names)
    assert str(state.totals[state.winners[0]]) in standings[4]


def test_each_deal_shows_identity_cards_breakdowns_credits_and_totals() -> None:
    state, screen, _ = run_table(seed=3, seat=1)
    for result in state.results:
        section = screen.split(f"=== Deal {result.deal} scored ===", 1)[1]
        section = section.split("===", 1)[0]
        for seat in SEATS:
            assert f"{result.identities[seat]}  dupe: {SEAT_NAMES[result.dupe(seat)]}" in section
            credited_to = next(s for s in SEATS if result.dupe(s) == seat)
            assert f"{result.scores[seat]}  → scores for {SEAT_NAMES[credited_to]}" in section
        totals = "   ".join(
            f"{SEAT_NAMES[s]}{' (you)' if s == 1 else ''} {result.totals[s]}" for s in SEATS
        )
        assert f"Totals after deal {result.deal}: {totals}" in section


def test_main_plays_a_whole_game_and_the_seed_reproduces_it() -> None:
    args = ["dupe", "--seed", "42", "--seat", "W", "--level", "random"]
    code, screen = run_main(args)
    assert code == 0
    assert "Dupe, seed 42" in screen
    assert "You sit West (♦)" in screen
    assert "=== Final standings ===" in screen
    assert run_main(args) == (0, screen)
    other_code, other = run_main(["dupe", "--seed", "43", "--seat", "W", "--level", "random"])
    assert other_code == 0
    assert other != screen


def test_the_seed_deals_the_same_cards_as_new_game() -> None:
    _, screen = run_main(["dupe", "--seed", "8", "--seat", "e", "--level", "random"], limit=0)
    hand = sorted(new_game(8).hand(1), key=by_suit)
    first_hand = screen.split("Your hand (13 cards):", 1)[1].split(CARD_PROMPT, 1)[0]
    assert [parse_card(r + s) for r, s in CARD_TOKEN.findall(first_hand)] == hand


# --------------------------------------------------------------------------------------
# What the person is shown


@pytest.mark.parametrize("memory", ["strict", "open"])
def test_before_the_reveal_only_the_persons_own_cards_are_shown(memory: str) -> None:
    seat = 3
    state, screen, _ = run_table(seed=21, seat=seat, memory=memory)
    replayed = new_game(21, DupeOptions(memory=memory))  # type: ignore[arg-type]
    blocks = screen.split("--- Deal ")[1:]
    assert len(blocks) == 52
    moves = list(state.moves)
    for block in blocks:
        hidden_part = block.split("Revealed:", 1)[0]
        mine = set(replayed.hand(seat)) | set(replayed.won_cards(seat))
        shown = {parse_card(r + s) for r, s in CARD_TOKEN.findall(hidden_part)}
        assert shown <= mine
        # advance the replay to the next trick
        trick = replayed.trick, replayed.deal
        while moves and (replayed.trick, replayed.deal) == trick:
            move = moves.pop(0)
            replayed.apply(move.seat, move.action)
    assert replayed.is_over


def test_won_cards_are_shown_only_under_open_memory() -> None:
    _, strict, _ = run_table(seed=4, memory="strict")
    _, open_, _ = run_table(seed=4, memory="open")
    assert "Your won cards" not in strict
    assert "Your won cards (0): none yet" in open_
    assert "Your won cards (12):" in open_


def test_other_seats_identity_cards_are_never_shown_before_scoring() -> None:
    _, screen, _ = run_table(seed=9, seat=2)
    for deal in range(1, 5):
        part = before_scoring(screen, deal)
        for line in part.splitlines():
            if "identity card" in line:
                assert line.startswith("Your identity card is ")
        assert "Identity cards:" not in part
        assert not re.search(r"[♠♥♦♣]  dupe: ", part)


def test_what_is_shown_does_not_depend_on_other_seats_identity_cards() -> None:
    # Swap two computer players' hidden identity cards: random players never look at
    # them, so everything up to the scoring must read the same, letter for letter.
    plain = new_game(31)
    swapped = new_game(31)
    first, *rest = swapped._identities
    ids = list(first)
    ids[0], ids[1] = ids[1], ids[0]
    swapped._identities = (tuple(ids), *rest)
    swapped._identity = swapped._identities[0]  # the current deal's, kept beside them
    assert swapped.identity(0) != plain.identity(0)
    _, screen_plain, _ = run_table(seed=31, seat=2, state=plain)
    _, screen_swapped, _ = run_table(seed=31, seat=2, state=swapped)
    cut = screen_plain.index("=== Deal 1 scored ===")
    assert screen_swapped[:cut] == screen_plain[:cut]
    assert screen_swapped != screen_plain


def test_identity_card_and_hand_are_shown_every_trick() -> None:
    state, screen, _ = run_table(seed=6, seat=0)
    blocks = screen.split("--- Deal ")[1:]
    for block in blocks:
        deal = int(block.split(",", 1)[0])
        suit = state.results[deal - 1].identities[0]
        assert f"Your identity card is {suit}" in block.split("Revealed:", 1)[0]
        assert "Your hand (" in block
        assert "Chosen: you …" in block  # asked before choosing
    marks = re.findall(r"Chosen: .*", screen)
    assert any("East ✓" in m for m in marks)
    assert any("East …" in m for m in marks)


def test_every_trick_is_revealed_with_its_taker_and_distribution() -> None:
    me = 1
    state, screen, _ = run_table(seed=12, seat=me)
    assert screen.count("Revealed: ") == 52
    keeps = screen.count("each keeps their own card")
    gives = re.findall(r"^(?:You give|\w+ gives) .*\.$", screen, re.MULTILINE)
    distributions = [m for m in state.moves if isinstance(m.action, Distribute)]
    assert keeps + len(distributions) == 52
    assert len(gives) == len(distributions)
    for line, move in zip(gives, distributions, strict=True):
        assert isinstance(move.action, Distribute)
        taker = "You" if move.seat == me else SEAT_NAMES[move.seat]
        assert line.startswith(taker)
        for seat, card in enumerate(move.action.cards):
            if seat == move.seat:
                whom = "yourself" if seat == me else "themself"
            else:
                whom = "you" if seat == me else SEAT_NAMES[seat]
            assert f"{card} to {whom}" in line


# --------------------------------------------------------------------------------------
# Input


def test_a_card_may_be_typed_in_any_spelling_or_by_its_number() -> None:
    hand = sorted(new_game(14).hand(2), key=by_suit)
    spellings = [
        hand[0].code.lower(),  # "ts"
        str(hand[1]),  # "10♠"
        f"  {hand[2].rank.symbol}{hand[2].suit.letter}  ",  # "10S"
        "4",  # the fourth card listed once three are gone
        f"{hand[7].rank.symbol} {hand[7].suit.letter.lower()}",  # "10 s"
    ]
    state, _, _ = run_table(seed=14, seat=2, scripts={CARD_PROMPT: spellings})
    played = [m.action.card for m in state.moves if m.seat == 2 and isinstance(m.action, Play)]
    assert played[:5] == [hand[0], hand[1], hand[2], hand[6], hand[7]]


def test_bad_card_input_reprompts_with_a_clear_message_and_changes_nothing() -> None:
    state = new_game(17)
    mine = state.hand(2)
    not_mine = next(c for c in state.hand(0) if c not in mine)
    bad = ["", "zz", "QX", "99", "0", "KS 2H 3C", "1 2", not_mine.code, "help", "hand"]
    out = io.StringIO()
    stdin = Responder(out, {CARD_PROMPT: bad}, limit=len(bad))
    table = DupeTable(
        state, 2, {s: make_player("random", s) for s in (0, 1, 3)}, stdin, out, order_seed=17
    )
    assert table.run() == 0
    screen = out.getvalue()
    assert screen.count(CARD_PROMPT) == len(bad) + 1
    assert "Type a card (like 10S or Q♥) or its number" in screen
    assert "“zz” is not a card" in screen
    assert "“QX” is not a card: the suit must be one of" in screen
    assert "There is no card number 99: choose 1 to 13." in screen
    assert "There is no card number 0: choose 1 to 13." in screen
    assert "“KS 2H 3C” is more than one card" in screen
    assert "“1 2” is more than one card" in screen
    assert f"{not_mine} is not in your hand." in screen
    assert "Who takes: the single highest rank" in screen
    assert screen.count("Your hand (13 cards):") == 2
    assert "Traceback" not in screen
    assert screen.rstrip().endswith("End of input: goodbye.")
    assert all(move.seat != 2 for move in state.moves)
    assert state.hand(2) == mine
    assert not state.view(2).chosen[2]


def test_end_of_input_mid_game_says_goodbye_with_code_zero() -> None:
    code, screen = run_main(["dupe", "--seed", "1", "--level", "random"], limit=5)
    assert code == 0
    assert screen.rstrip().endswith("End of input: goodbye.")
    assert "Traceback" not in screen
    assert "Final standings" not in screen


def test_quit_leaves_the_table_with_code_zero() -> None:
    code, screen = run_main(
        ["dupe", "--seed", "1", "--level", "random"], scripts={CARD_PROMPT: ["1", "quit"]}
    )
    assert code == 0
    assert screen.rstrip().endswith("You leave the table. Goodbye.")
    assert screen.count(CARD_PROMPT) == 2


def test_ctrl_c_exits_with_code_130_and_no_traceback() -> None:
    def interrupt(reads: int) -> None:
        if reads == 3:
            raise KeyboardInterrupt

    code, screen = run_main(["dupe", "--seed", "1", "--level", "random"], on_read=interrupt)
    assert code == 130
    assert screen.rstrip().endswith("Interrupted: goodbye.")


def test_bad_arguments_exit_with_code_two(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["dupe", "--seat", "X"], stdin=io.StringIO(), stdout=out) == 2
    assert "“X” is not a seat" in capsys.readouterr().err
    assert main(["dupe", "--level", "genius"], stdin=io.StringIO(), stdout=out) == 2
    assert main(["chess"], stdin=io.StringIO(), stdout=out) == 2


def test_a_missing_computer_player_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(level: str, seed: int) -> object:
        raise ModuleNotFoundError("No module named 'engine.dupe.players.expert'")

    monkeypatch.setattr("engine.dupe.terminal.make_player", missing)
    assert main(["dupe", "--seed", "1"], stdin=io.StringIO(), stdout=io.StringIO()) == 2
    assert "the expert computer player is not available" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# Distribution


def first_human_distribution(state: DupeState, seat: int) -> tuple[Distribute, tuple[Card, ...]]:
    """Return the person's first distribution and the trick's cards in seat order."""
    played: dict[int, Card] = {}
    for move in state.moves:
        if isinstance(move.action, Play):
            played[move.seat] = move.action.card
        elif move.seat == seat:
            return move.action, tuple(played[s] for s in SEATS)
        else:
            played = {}
    raise AssertionError("the person never took a trick")


def test_distribution_is_confirmed_before_it_is_applied() -> None:
    answers = ["4 3 2 1", "1 2 3 4"]
    confirms = ["maybe", "n", "y"]
    state, screen, _ = run_table(
        seed=5, seat=2, scripts={DISTRIBUTE_PROMPT: answers, CONFIRM_PROMPT: confirms}
    )
    action, cards = first_human_distribution(state, 2)
    assert action.cards == cards  # the confirmed "1 2 3 4", not the refused "4 3 2 1"
    first = screen.index(DISTRIBUTE_PROMPT)
    part = screen[first:]
    n, e, s, w = cards
    assert f"Give {w} to North, {s} to East, {e} to yourself and {n} to West?" in part
    assert "Answer y (give the cards like this) or n (choose again)." in part
    assert "Not given. Distribute again." in part
    confirmed = f"You give {n} to North, {e} to East, {s} to yourself and {w} to West."
    assert confirmed in part
    assert part.index("Not given.") < part.index(confirmed)
    assert f"You give {w} to North" not in part


def test_distribution_by_seat_names_in_any_order() -> None:
    state = new_game(5)
    probe, _, _ = run_table(seed=5, seat=2)
    _, cards = first_human_distribution(probe, 2)
    n, e, s, w = cards
    typed = f"w={n.code.lower()} South={e} E:{w.code} n={s}"
    state, screen, _ = run_table(seed=5, seat=2, state=state, scripts={DISTRIBUTE_PROMPT: [typed]})
    action, _ = first_human_distribution(state, 2)
    assert action.cards == (s, w, e, n)
    assert f"You give {s} to North, {w} to East, {e} to yourself and {n} to West." in screen


def test_bad_distributions_reprompt_with_a_clear_message() -> None:
    probe, _, _ = run_table(seed=5, seat=2)
    _, cards = first_human_distribution(probe, 2)
    n, e, s, w = cards
    outsider = next(c for c in DECK if c not in cards)
    bad = [
        "",
        "1 2 3",
        "1 1 2 3",
        "1 2 3 9",
        f"N={n.code} E={e.code} S={s.code}",
        f"N={n.code} N={e.code} S={s.code} W={w.code}",
        f"N={n.code} E={e.code} S={s.code} X={w.code}",
        f"N={n.code} {e.code} {s.code} {w.code}",
        f"{outsider.code} {e.code} {s.code} {w.code}",
        "N=ZZ E=1 S=2 W=3",
        "help",
        "hand",
    ]
    state, screen, stdin = run_table(seed=5, seat=2, scripts={DISTRIBUTE_PROMPT: bad})
    part = screen[screen.index(DISTRIBUTE_PROMPT) :]
    part = part[: part.index(CONFIRM_PROMPT)]
    assert part.count(DISTRIBUTE_PROMPT) == len(bad) + 1
    for message in [
        "Give one card to each seat, like N=KS E=2H S=3C W=4D",
        "Give exactly four cards, one per seat in the order N E S W (you gave 3).",
        f"{n} is given twice",
        "There is no trick card number 9: choose 1 to 4.",
        "Give a card to every seat: West got none.",
        "North is given more than one card.",
        "“X” is not a seat: use N, E, S or W.",
        "Use either SEAT=CARD for all four seats or four cards in seat order, not both.",
        f"{outsider} is not one of the trick's cards",
        "“ZZ” is not a card",
        "You took the trick: give exactly one of its four cards",
        "Your hand (",
    ]:
        assert message in part
    action, played = first_human_distribution(state, 2)
    assert action.cards == played
    assert stdin.asked.count(CONFIRM_PROMPT) >= 1
