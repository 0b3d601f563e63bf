"""Standard playing cards: text form ``"10H"``, ``"AS"``, ``"QD"``, jokers ``"JK"``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from bot.engines.base import GameError, SeededRng

SUITS = "CDHS"
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANKS_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()}
JOKER_TEXT = "JK"
JOKER_RANK = 0


class Card:
    """An immutable playing card. Ranks 2–10, J=11, Q=12, K=13, A=14; joker rank 0.

    Stored in JSON as its text form, so ``Card`` fields in pydantic models
    serialize to ``"10H"`` and parse back.
    """

    __slots__ = ("rank", "suit")

    rank: int
    suit: str

    def __init__(self, rank: int, suit: str) -> None:
        if rank == JOKER_RANK:
            if suit != "":
                raise ValueError("a joker has no suit")
        elif not 2 <= rank <= 14 or suit not in SUITS or len(suit) != 1:
            raise ValueError(f"no such card: rank {rank}, suit {suit!r}")
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        """Pickle as the constructor call (the slots can't be set after creation)."""
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        """Immutable, so a copy is the card itself (copy.deepcopy, model_copy(deep=True))."""
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10H"``, ``"AS"``, ``"qd"`` or ``"JK"``; raise `GameError` otherwise."""
        cleaned = text.strip().upper()
        if cleaned == JOKER_TEXT:
            return cls.joker()
        rank_text, suit = cleaned[:-1], cleaned[-1:]
        rank = RANKS_BY_NAME.get(rank_text)
        if rank is None and rank_text.isdigit():
            rank = int(rank_text)
        if rank is None or not 2 <= rank <= 14 or suit not in SUITS or not suit:
            raise GameError("{text!r} is not a card.", text=text)
        return cls(rank, suit)

    @classmethod
    def joker(cls) -> Card:
        return cls(JOKER_RANK, "")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TEXT
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit) < (other.rank, other.suit)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        from_text = core_schema.no_info_plain_validator_function(_card_from_any)
        return core_schema.json_or_python_schema(
            json_schema=from_text,
            python_schema=from_text,
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )


def _card_from_any(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise ValueError(f"expected a card, got {value!r}")


def standard_deck(jokers: int = 0) -> list[Card]:
    """A fresh 52-card deck in a fixed order, plus ``jokers`` jokers."""
    deck = [Card(rank, suit) for suit in SUITS for rank in range(2, 15)]
    deck.extend(Card.joker() for _ in range(jokers))
    return deck


def shuffled_deck(rng: SeededRng, jokers: int = 0) -> list[Card]:
    deck = standard_deck(jokers)
    rng.shuffle(deck)
    return deck


def parse_cards(texts: Iterable[str | Card]) -> list[Card]:
    return [_card_from_any(text) for text in texts]
