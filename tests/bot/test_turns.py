"""A flood's presses are worked on a few at a time (``bot.lateness.Turns``): at most as many
as there are turns at once, in the order they asked, and a turn given back early lets the
next begin while the one that gave it goes on."""

from __future__ import annotations

import asyncio

from bot.lateness import Turns, give_turn_back


async def test_at_most_size_pieces_of_work_at_once_in_the_order_they_asked() -> None:
    turns = Turns(3)
    working, most, began = 0, 0, []

    async def work(n: int) -> None:
        nonlocal working, most
        async with turns.turn():
            began.append(n)
            working += 1
            most = max(most, working)
            for _ in range(5):
                await asyncio.sleep(0)
            working -= 1

    await asyncio.gather(*(work(n) for n in range(10)))
    assert most == 3
    assert began == list(range(10))


async def test_a_turn_given_back_early_lets_the_next_begin() -> None:
    turns = Turns(1)
    events: list[str] = []
    answered = asyncio.Event()

    async def first() -> None:
        async with turns.turn():
            events.append("first works")
            give_turn_back()  # its answer on its way: no turn needed for that
            give_turn_back()  # given back once, whoever asks again
            await answered.wait()
            events.append("first answered")

    async def second() -> None:
        async with turns.turn():
            events.append("second works")
            answered.set()

    async def third() -> None:
        async with turns.turn():
            events.append("third works")

    await asyncio.gather(first(), second(), third())
    assert events == ["first works", "second works", "third works", "first answered"]


async def test_without_a_turn_giving_back_does_nothing() -> None:
    give_turn_back()
    turns = Turns(1)
    async with turns.turn():
        pass
    async with turns.turn():  # the turn came back once, not twice (a bounded semaphore)
        pass
