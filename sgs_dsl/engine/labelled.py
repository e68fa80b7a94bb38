"""Labelled choices: a choice among effects, each option labelled by
what it does and offered only while its condition holds; choosing cards from a list or a
filtered zone; declaring (宣告) a card name from a set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import Card, Player
from ..core.native import mypyc_attr
from .decisions import Option
from .using import DONE

if TYPE_CHECKING:
    from .kernel import Game


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Labelled:
    """Choices among labelled effects and cards, and declaring a card name.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        del game


    def choose_option(self, chooser: Player, labels: list[str], offer: list[bool] | None,
                      prompt: str = "") -> str | None:
        """The label the chooser picks among the options offered; none when none is."""
        game = self.game
        offered = [label for i, label in enumerate(labels) if offer is None or (i < len(offer) and offer[i])]
        if not offered:
            return None
        label: str = game.ask(chooser, "option", prompt or "選擇一項", [Option(x, x) for x in offered]).value
        if game.logging:
            game.log(f"{chooser.label()}選擇了「{label}」")
        return label

    def declare(self, chooser: Player, names: list[str], prompt: str = "") -> str:
        game = self.game
        name: str = game.ask(chooser, "declare", prompt or "宣告一種牌名", [Option(f"【{n}】", n) for n in names]).value
        if game.logging:
            game.log(f"{chooser.label()}宣告了【{name}】")
        return name

    def choose_among(self, chooser: Player, pool: list[Card], least: int, most: int) -> list[Card]:
        """Between least and most of the cards, one at a time (fewer when there are fewer)."""
        chosen: list[Card] = []
        while len(chosen) < most:
            rest = [c for c in pool if c not in chosen]
            if not rest:
                break
            options = [Option(c.label(), c) for c in rest]
            if len(chosen) >= least:
                options.append(Option(DONE, None))
            pick = self.game.ask(chooser, "pick_card", f"選擇牌（{len(chosen) + 1}）", options).value
            if pick is None:
                break
            chosen.append(pick)
        return chosen
