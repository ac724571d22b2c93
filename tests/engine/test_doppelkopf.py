"""Doppelkopf's rules (``docs/rules/doppelkopf.md``): every worked example of the rules
file — T1–T9, H1–H8, both announcement-deadline tables and the house bidding example — and
the binding API's notation and refusals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.cards import parse_card, parse_cards
from engine.doppelkopf import (
    DoppelkopfOptions,
    DoppelkopfState,
    GameResult,
    Move,
    new_game,
    parse_action,
    replay,
)
from engine.doppelkopf.orders import ORDERS, card_points, double_pack, order_for
from engine.doppelkopf.scoring import Facts, score
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)

# --- scoring: the worked examples ------------------------------------------------------


def facts(
    re: int,
    *,
    re_said: tuple[str, ...] = (),
    contra_said: tuple[str, ...] = (),
    extras: tuple[tuple[str, str, int], ...] = (),
    re_tricks: int = 6,
    contra_tricks: int = 6,
) -> Facts:
    return Facts(
        {"re": re, "contra": 240 - re},
        {"re": re_tricks, "contra": contra_tricks},
        {"re": re_said, "contra": contra_said},
        extras,
    )


def total(items: list[tuple[str, str, int]], party: str) -> int:
    return sum(v for p, _, v in items if p == party)


def items(text: str) -> set[tuple[str, str, int]]:
    """Return score items written ``party key value, …``."""
    found = set()
    for part in text.split(","):
        party, key, value = part.split()
        found.add((party, key, int(value)))
    return found


CQ = "contra club-queens 1"
T_EXAMPLES = [
    # T1 normal; Contra only; 80 : 160 → Contra 5
    ("T1", facts(80, contra_said=("contra",)), True, "contra",
     items(f"contra won 1, contra below90 1, contra contra 2, {CQ}"), -5),
    # T2 normal; Re, No 90, No 60; 130 : 110 → Contra 7
    ("T2", facts(130, re_said=("re", "no90", "no60")), True, "contra",
     items(f"contra won 1, contra re 2, contra no90 1, contra no60 1, contra vs-no60 1, {CQ}"),
     -7),
    # T3 normal; none; 120 : 120 → Contra 2
    ("T3", facts(120), True, "contra", items(f"contra won 1, {CQ}"), -2),
    # T4 normal; Contra only; 120 : 120 → Re 3
    ("T4", facts(120, contra_said=("contra",)), True, "re", items("re won 1, re contra 2"), 3),
    # T5 normal; Re and Contra; 120 : 120 → Contra 6
    ("T5", facts(120, re_said=("re",), contra_said=("contra",)), True, "contra",
     items(f"contra won 1, contra re 2, contra contra 2, {CQ}"), -6),
    # T6 normal; none; Contra caught a fox, took a Doppelkopf and Charlie; 131 : 109 → R = −2
    ("T6", facts(131, extras=tuple(items("contra fox 1, contra doppelkopf 1, contra charlie 1"))),
     True, "re", items("re won 1, contra fox 1, contra doppelkopf 1, contra charlie 1"), -2),
    # T7 ♣ solo; Re; 185 : 55 → soloist 15 (R = 5)
    ("T7", facts(185, re_said=("re",)), False, "re",
     items("re won 1, re below90 1, re below60 1, re re 2"), 5),
    # T8 normal; Re + No 90, Contra + No 90; 140 : 100 → nobody; R = 1
    ("T8", facts(140, re_said=("re", "no90"), contra_said=("contra", "no90")), True, None,
     items("re vs-no90 1"), 1),
    # T9 normal; Contra + No 90; 95 : 145 → Re 4
    ("T9", facts(95, contra_said=("contra", "no90")), True, "re",
     items("re won 1, re contra 2, re no90 1"), 4),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "given", "normal", "winner", "items", "value"),
    T_EXAMPLES,
    ids=[e[0] for e in T_EXAMPLES],
)
def test_tournament_worked_examples(
    name: str,
    given: Facts,
    normal: bool,
    winner: str | None,
    items: set[tuple[str, str, int]],
    value: int,
) -> None:
    found_winner, found_items, found_value = score("tournament", given, normal=normal)
    assert found_winner == winner
    assert sorted(found_items) == sorted(items)
    assert found_value == value


H6_EXTRAS = tuple(items("re doppelkopf 1, contra fox 1, contra charlie 1"))
H_EXAMPLES = [
    # H1 Re announced; Contra takes 24 → Re +8
    ("H1", facts(216, re_said=("re",)), "re", 8),
    # H2 Re, No 90, No 60; Re takes 172 → Contra +12
    ("H2", facts(172, re_said=("re", "no90", "no60")), "contra", -12),
    # H3 as H2 without No 60 → Re +6
    ("H3", facts(172, re_said=("re", "no90")), "re", 6),
    # H4 as H2, only Re → Re +4
    ("H4", facts(172, re_said=("re",)), "re", 4),
    # H5 Re + No 90 vs Contra; Re takes 88 → Contra +20
    ("H5", facts(88, re_said=("re", "no90"), contra_said=("contra",)), "contra", -20),
    # H6 Re; Contra 87; Re Doppelkopf; Contra fox + Charlie → Re +4
    ("H6", facts(153, re_said=("re",), extras=H6_EXTRAS), "re", 4),
    # H7 jacks solo, Re announced, no extras; 130 : 110 → soloist +6, others −2 (R = 2)
    ("H7", facts(130, re_said=("re",)), "re", 2),
    # H8 Re + No 90, Contra + No 90; Re caught a fox; 140 : 100 → nobody, R = 1
    ("H8", facts(140, re_said=("re", "no90"), contra_said=("contra", "no90"),
                 extras=(("re", "fox", 1),)), None, 1),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "given", "winner", "value"), H_EXAMPLES, ids=[e[0] for e in H_EXAMPLES]
)
def test_house_worked_examples(name: str, given: Facts, winner: str | None, value: int) -> None:
    found_winner, items, found_value = score("house", given, normal=True)
    assert (found_winner, found_value) == (winner, value)
    if name == "H2":
        assert sorted(items) == sorted(
            [
                ("contra", "won", 1),
                ("contra", "club-queens", 1),
                ("contra", "failed-no90", 2),
                ("contra", "failed-no60", 2),
                ("contra", "re", 2),
            ]
        )


# --- card orders --------------------------------------------------------------------------


def test_the_pack_has_48_cards_and_240_points() -> None:
    pack = double_pack()
    assert len(pack) == 48 and len(set(pack)) == 24
    assert card_points(pack) == 240


@pytest.mark.parametrize(
    ("preset", "game", "trumps"),
    [
        ("tournament", "normal", 26),
        ("tournament", "solo:diamonds", 26),
        ("tournament", "solo:clubs", 26),
        ("tournament", "solo:hearts", 24),
        ("tournament", "solo:queens", 8),
        ("tournament", "solo:jacks", 8),
        ("tournament", "solo:fleshless", 0),
        ("house", "solo:trump", 26),
        ("house", "solo:spades", 24),
        ("house", "solo:diamonds", 24),
        ("house", "solo:international", 16),
        ("house", "solo:no-trump", 0),
    ],
)
def test_every_game_types_trumps(preset: str, game: str, trumps: int) -> None:
    order = order_for(preset, game)
    assert sum(1 for c in double_pack() if order.is_trump(c)) == trumps


def test_the_heart_ten_and_identical_cards() -> None:
    normal = ORDERS["normal"]
    th, qc, ah = parse_card("TH"), parse_card("QC"), parse_card("AH")
    assert normal.winner([qc, th]) == 1  # the ♥10 is the highest trump
    assert normal.winner([th, th]) == 0  # of two identical cards the first wins
    assert normal.winner([ah, ah, parse_card("9D")]) == 2  # a trump takes a side suit
    house = order_for("house", "solo:clubs")
    assert not house.is_trump(th) and house.winner([ah, th]) == 0  # an ordinary ♥10
    assert order_for("house", "solo:hearts").winner([parse_card("KH"), th]) == 1


# --- notation -------------------------------------------------------------------------------


def test_notation_round_trips_and_reads_every_card_form() -> None:
    assert str(parse_action("qc")) == "QC"
    assert str(parse_action("10H")) == "TH" == str(parse_action("10♥"))
    assert str(parse_action("Solo:Queens")) == "solo:queens"
    assert str(parse_action("poverty:TH, 9c,AD")) == "poverty:9C,TH,AD"
    assert str(parse_action("return:KS,9C,9C")) == "return:9C,9C,KS"
    assert str(parse_action("marriage:trump")) == "marriage:trump"
    assert str(Move.parse("3:healthy")) == "3:healthy"
    assert Move.parse("1:QC") == Move(0, parse_action("QC"))
    for bad in ("2C", "solo:diamond", "poverty:QC,QC", "hello", "return:9C,9C,9C,9C"):
        with pytest.raises(ParseError):
            parse_action(bad)


def test_options_are_checked() -> None:
    assert DoppelkopfOptions().length == 4
    assert DoppelkopfOptions(required_solos=True).length == 24
    assert DoppelkopfOptions(preset="house", players=5, rounds=2).length == 10
    for bad in (
        {"preset": "casino"},
        {"players": 5},
        {"games": 6},
        {"games": 4, "required_solos": True},
        {"preset": "house", "games": 8},
        {"preset": "house", "required_solos": True},
        {"rounds": 2},
        {"preset": "house", "rounds": 0},
    ):
        with pytest.raises(OptionsError):
            DoppelkopfOptions(**bad)  # type: ignore[arg-type]


# --- building a deal ------------------------------------------------------------------------


def deal(options: DoppelkopfOptions, hands: dict[int, str]) -> DoppelkopfState:
    """Return a new table whose first deal gives each listed seat those 12 cards (a test
    hook: the state is dealt, then its hands replaced before anyone has acted)."""
    state = new_game(1, options)
    cards = sorted(double_pack())
    for seat, text in hands.items():
        hand = parse_cards(text)
        assert len(hand) == 12
        for card in hand:
            cards.remove(card)
        state._hands[seat] = hand
    rest = [s for s in state.in_play if s not in hands]
    for i, seat in enumerate(rest):
        state._hands[seat] = cards[12 * i : 12 * i + 12]
    assert sum(len(state.hand(s)) for s in state.in_play) == 48
    return state


def legal(state: DoppelkopfState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def play_until(state: DoppelkopfState, done: Callable[[DoppelkopfState], bool]) -> None:
    """Play the lowest legal card of whoever is to play until ``done``."""
    while not done(state):
        seat = state.to_act[0]
        card = next(a for a in state.legal_actions(seat) if a.card is not None)
        state.apply(seat, card)


# seats: W deals the first deal here, so N, E, S, W are seats 1, 2, 3, 0
W, N, E, S = 0, 1, 2, 3


def test_tournament_announcement_deadlines_example() -> None:
    """§3.5's table: normal game; N and E are Re, S and W Contra; N leads trick 1."""
    state = deal(
        DoppelkopfOptions(),
        {
            N: "QC TH AS AS KS 9S AH KH 9H AC 10C KC",
            E: "QC JC JS JH JD QS QH QD AD 10D KD 9D",
        },
    )
    for seat in (N, E, S, W):
        state.apply(seat, parse_action("healthy"))
    assert state.game == "normal" and state.to_act == (N,)
    # 1. trick 1, no card played: N (12) says Re.
    assert "re" in legal(state, N)
    state.apply(N, parse_action("re"))
    # 2. trick 3, E has played twice: E (10) No 90, then No 60.
    play_until(state, lambda s: len(s.hand(E)) == 10)
    assert "no90" in legal(state, E)
    state.apply(E, parse_action("no90"))
    assert "no60" in legal(state, E)
    state.apply(E, parse_action("no60"))
    # 3. S with 10 cards: too late as a first Contra (11), legal as a reply to No 60 (8).
    play_until(state, lambda s: len(s.hand(S)) == 10)
    assert len(state.hand(S)) == 10 and "contra" in legal(state, S)
    state.apply(S, parse_action("contra"))
    # 4. same moment: No 90 refused, Contra's Contra came after its 11-card limit.
    assert "no90" not in legal(state, S)
    with pytest.raises(IllegalActionError):
        state.apply(S, parse_action("no90"))
    # 5. trick 4, N (9): No 60 is not offered, Re said it; No 30 is next.
    play_until(state, lambda s: len(s.hand(N)) == 9)
    assert "no60" not in legal(state, N) and "no30" in legal(state, N)
    # 6. trick 5, N has played four times: N (8) No 30 is legal, and not with 7.
    play_until(state, lambda s: len(s.hand(N)) == 8)
    assert "no30" in legal(state, N)
    play_until(state, lambda s: len(s.hand(N)) == 7)
    assert "no30" not in legal(state, N)


def test_house_announcement_deadlines_example() -> None:
    """§4.7's table: the later of "before trick 5" and "end of the first trick after the
    other party's latest announcement"."""
    state = deal(
        DoppelkopfOptions(preset="house"),
        {
            N: "QC TH AS AS KS 9S AH KH 9H AC 10C KC",
            E: "QC JC JS JH JD QS QH QD AD 10D KD 9D",
        },
    )
    for seat in (N, E, S, W):
        state.apply(seat, parse_action("no-reservation"))
    re_seat, contra_seat = N, S
    # during trick 2: Re says Re
    play_until(state, lambda s: s._played == 5)
    state.apply(re_seat, parse_action("re"))
    play_until(state, lambda s: s._played == 15)  # trick 4, three cards down
    assert "contra" in legal(state, contra_seat)  # before trick 5 beats end of trick 3
    # after trick 4, before trick 5: Re says No 90 (in time)
    play_until(state, lambda s: s._played == 16)
    assert "no90" in legal(state, re_seat)
    state.apply(re_seat, parse_action("no90"))
    # trick 5, 3 cards down: Contra says Contra, legal (until the end of trick 5)
    play_until(state, lambda s: s._played == 19)
    assert "contra" in legal(state, contra_seat)
    state.apply(contra_seat, parse_action("contra"))
    # trick 6: Contra wants No 90: refused, its deadline was before trick 5
    play_until(state, lambda s: s._played == 21)
    assert "no90" not in legal(state, contra_seat)


def test_house_bidding_example() -> None:
    """§4.2.4: W deals; N says No reservation; E, S, W reserve. E withdraws, S names
    Marriage, W names Poverty (outranks) → W plays Poverty."""
    state = deal(
        DoppelkopfOptions(preset="house"),
        {
            S: "QC QC AS AS KS 9S AH KH 9H AC 10C KC",
            W: "JD 9D 10D TS TS 9S KH AH 10C 9C KC AC",
        },
    )
    assert state.dealer == W and state.to_act == (N,)
    state.apply(N, parse_action("no-reservation"))
    for seat in (E, S, W):
        state.apply(seat, parse_action("reservation"))
    assert state.phase == "bidding" and state.to_act == (E,)
    state.apply(E, parse_action("withdraw"))
    state.apply(S, parse_action("marriage:trick"))
    assert "poverty" in legal(state, W) and "marriage:trick" not in legal(state, W)
    state.apply(W, parse_action("poverty"))
    assert state.phase == "poverty-offer" and state.to_act == (W,)
    # W's three trumps (J♦ 9♦ 10♦) are exactly the offer
    assert legal(state, W) == {"poverty:9D,TD,JD"}
    state.apply(W, parse_action("poverty:9D,TD,JD"))
    assert len(state.hand(W)) == 9 and state.to_act == (N,)
    state.apply(N, parse_action("decline"))
    state.apply(E, parse_action("accept"))
    assert len(state.hand(E)) == 15 and state.phase == "poverty-return"
    back = sorted(state.hand(E))[:3]
    state.apply(E, parse_action("return:" + ",".join(c.code for c in back)))
    assert len(state.hand(W)) == 12 and len(state.hand(E)) == 12
    assert state.game == "poverty" and state.to_act == (W,)  # the poverty player leads
    assert state.party(W) == state.party(E) == "re"
    assert state.party(N) == state.party(S) == "contra"


def test_all_declined_poverty_deals_again_by_the_same_dealer() -> None:
    state = deal(
        DoppelkopfOptions(preset="house"),
        {W: "JD 9D 10D TS TS 9S KH AH 10C 9C KC AC"},
    )
    for seat in (N, E, S):
        state.apply(seat, parse_action("no-reservation"))
    state.apply(W, parse_action("reservation"))
    state.apply(W, parse_action("poverty"))
    state.apply(W, parse_action("poverty:9D,TD,JD"))
    for seat in (N, E, S):
        state.apply(seat, parse_action("decline"))
    assert (state.deal, state.dealer, state.game_results) == (2, W, ())


# --- the binding API: refusals, the last trick, results ----------------------------------------


def test_refusals_change_nothing() -> None:
    state = new_game(3)
    before = (state.moves, state.to_act, [state.hand(s) for s in range(4)])
    with pytest.raises(InvalidActionError):
        state.apply(7, parse_action("healthy"))
    with pytest.raises(InvalidActionError):
        state.apply(1, object())  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError):
        state.apply(2, parse_action("healthy"))
    with pytest.raises(IllegalActionError):
        state.apply(1, parse_action("withdraw"))
    assert (state.moves, state.to_act, [state.hand(s) for s in range(4)]) == before


def test_the_twelfth_trick_plays_itself_and_the_next_deal_is_dealt() -> None:
    state = new_game(5)
    for seat in (1, 2, 3, 0):
        if "healthy" in legal(state, seat):
            state.apply(seat, parse_action("healthy"))
    play_until(state, lambda s: s.deal == 2 or s.is_over)
    (result,) = state.game_results
    assert isinstance(result, GameResult)
    assert sum(result.points) == 240 and sum(result.scores) == 0
    assert state.dealer == 1 and all(len(state.hand(s)) == 12 for s in range(4))
    assert len(state.moves) == 4 + 44  # the 12th trick logs no moves


def test_a_finished_table_refuses_everything() -> None:
    state = new_game(9)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert all(state.legal_actions(s) == () for s in range(4))
    with pytest.raises(GameOverError):
        state.apply(0, parse_action("QC"))
    assert len(state.game_results) == 4 and sum(state.totals) == 0
    again = replay(9, None, [str(m) for m in state.moves])
    assert again.totals == state.totals and again.game_results == state.game_results


# --- the terminal table -----------------------------------------------------------------------


def test_a_person_plays_a_whole_table_in_the_terminal() -> None:
    import io

    from engine.doppelkopf import terminal

    out = io.StringIO()
    code = terminal.main(["--seed", "3"], io.StringIO("1\n" * 3000), out)
    text = out.getvalue()
    assert code == 0 and "=== The table is over ===" in text
    assert "Your hand (12):" in text and "Your card:" in text
    # Only the person's own hand is ever printed: never another seat's cards.
    assert "seat 2's hand" not in text

    out = io.StringIO()
    code = terminal.main(
        ["--seed", "3", "--preset", "house", "--seats", "5", "--seat", "2"],
        io.StringIO("x\nquit\n"),
        out,
    )
    assert code == 0 and "“x” is not a Doppelkopf action." in out.getvalue()
    assert terminal.main(["--seats", "5"], io.StringIO(""), io.StringIO()) == 2  # tournament: 4
    assert terminal.main(["--seed", "3"], io.StringIO(""), io.StringIO()) == 0  # end of input


def test_required_solos_are_forced_at_the_end_of_the_round() -> None:
    """§3.1: with 8 games and nobody volunteering, the last 4 games are forced solos, one
    per player, nearest the dealer's left first; a forced solo counts and passes the deal."""
    state = new_game(11, DoppelkopfOptions(required_solos=True, games=8))
    forced: list[tuple[int, int]] = []
    while not state.is_over:
        seat = state.to_act[0]
        if state.phase == "forced":
            forced.append((state.deal, seat))
            assert legal(state, seat) == {
                f"solo:{t}"
                for t in ("diamonds", "hearts", "spades", "clubs", "queens", "jacks", "fleshless")
            }
            state.apply(seat, parse_action("solo:queens"))
        elif state.phase == "reservations":
            state.apply(seat, parse_action("healthy"))
        else:
            state.apply(seat, next(a for a in state.legal_actions(seat) if a.card is not None))
    assert len(state.game_results) == 8
    assert [deal for deal, _ in forced] == [5, 6, 7, 8]
    assert sorted(seat for _, seat in forced) == [0, 1, 2, 3]
    # each forced player is the owing seat nearest the dealer's left
    for deal, seat in forced:
        dealer = state.game_results[deal - 1].dealer
        assert seat == (dealer + 1) % 4
    assert [r.game for r in state.game_results[4:]] == ["solo:queens"] * 4
