"""Give & Take (cards): a war game in a ring. Every player turns up the top card of
both their piles at once; the duet with the lowest difference captures the board.

Rulings implemented (RULINGS.md, Give & Take (card game)):
- 2–5 players, one 52-card deck. Each player gets two piles (a give pile and a take
  pile) of equal size, as large as the deck allows; the remainder starts in the
  centre as leftovers.
- Seating is a ring. A player's duet is their take-pile card plus the give-pile card
  of the player to their right. With two players A's duet is A.take + B.give and B's
  is B.take + A.give.
- Values: 2–10 face value, J 11, Q 12, K 13; an ace counts 1 or 14, whichever gives
  the lower difference (`duet_difference`).
- The lowest difference captures every card on the board plus the leftovers. A tie
  for the lowest difference is a fight: every player still in reveals again on top,
  only the new top cards are compared, and the eventual winner takes all layers.
  Ties above the lowest difference don't matter (`resolve`).
- The capturer chooses which of their two piles gets the captured cards at its
  bottom; the default is the smaller pile (`default_action`). Captured cards go
  under in shuffled order (seeded), so games can't loop forever.
- A player with an empty give or take pile at the start of a turn is out; their
  remaining cards become leftovers. A player who runs out during a fight is out;
  their pile and the cards they played in that fight become leftovers; the ring
  closes and the fight is re-evaluated.
- The director cues each turn with ``go``. Option ``auto``: turns are revealed
  without a cue.
- Places are the reverse order of elimination. If all remaining players go out at
  once, the one with most cards left in piles wins; equal counts draw.
- Option ``turn_cap`` (default 500 turns): then the player with most cards wins.

Decisions where the rules are silent:
- Seats are the ring in seat order; "the player to your right" is the next seat still
  in (seat + 1, skipping players who are out), so the ring closes by itself.
- Dealing (also of the stacked ``deck`` option, top first): one card at a time to seat
  0's give pile, seat 0's take pile, seat 1's give pile, … round after round; a pile's
  first card is its top. The undealt rest are the leftovers. A stacked deck may be
  short (at least one card per pile); all cards must be distinct, no jokers.
- The director is the first seat, or the seated player named by option ``director``
  (the Discord side passes the host; a director who isn't seated falls back to the
  first seat). A director who is out hands the cue to the next seat still in.
- Actions: ``go`` (the director, in phase ``go``) reveals the next layer; ``give`` or
  ``take`` (the capturer, in phase ``choose``) puts the capture under that pile. With
  ``auto`` the reveal happens inside `apply` (and `new_game`) right after the previous
  step, fight layers included, so the only actions are the pile choices: the pause
  while the capturer chooses (or the adapter's timeout applying `default_action`) is
  what spaces the turns apart.
- Default pile: the smaller one, counted when the choice is made (after the reveals);
  equal sizes default to the give pile. Either pile may always be chosen, even one
  that leaves the capturer with an empty pile (and so out at the next turn start).
- A player "runs out during a fight" when a tie is on the board and they can't reveal
  the next layer (an empty give or take pile): they go out at once, before the next
  cue, their cards go to the leftovers, and the current top cards are compared again
  over the closed ring, which may settle the fight without another reveal. A player
  with an empty pile whose turn ends in a capture goes out at the next turn start,
  unless they captured and filled it.
- When only one player is left the game ends at once; cards still on the board stay
  there (they belong to nobody). When everyone left goes out at the same moment they
  are ranked by the cards that were in their piles (equal counts share the place);
  other players going out together share their place.
- A turn is one cue plus any fight layers and ends with the capture. The game ends
  when turn ``turn_cap`` ends, before the next turn's start check; the players still
  in are ranked by cards in their piles (equal counts share), above everyone out.
- Score: cards in the player's piles when the game ended, or when they went out.
  Places don't follow scores (they follow the elimination order).
- Every card a pile holds is face down: views show pile sizes, the face-up layers of
  the current turn, the duets, and only the count of leftovers and captured cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.engines.base import (
    Engine,
    GameError,
    IllegalAction,
    Outcome,
    PlayerId,
    SeededRng,
    TurnEngine,
    VersionedModel,
    check_player_count,
    parse_options,
)
from bot.engines.cards import Card, shuffled_deck

ACE = 14
ACE_LOW = 1
MAX_TURN_CAP = 100_000

Pile = Literal["give", "take"]
Phase = Literal["go", "choose", "over"]
Ending = Literal["last_standing", "all_out", "turn_cap"]


# --- Card values ----------------------------------------------------------------------


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    return Card.parse(card)


def card_values(card: Card | str) -> tuple[int, ...]:
    """The values a card may take: ``(1, 14)`` for an ace, its rank otherwise."""
    card = _card(card)
    if card.is_joker:
        raise GameError("Jokers are not used in Give & Take.")
    return (ACE_LOW, ACE) if card.rank == ACE else (card.rank,)


def duet_difference(a: Card | str, b: Card | str) -> int:
    """The difference of a duet; an ace counts 1 or 14, whichever is lower."""
    return min(abs(x - y) for x in card_values(a) for y in card_values(b))


def resolve(duets: Sequence[tuple[Card | str, Card | str]]) -> int | None:
    """The index of the duet with the lowest difference, or None when two or more
    share it (a fight). Ties above the lowest difference don't matter."""
    if not duets:
        raise ValueError("resolve needs at least one duet")
    differences = [duet_difference(a, b) for a, b in duets]
    lowest = min(differences)
    if differences.count(lowest) > 1:
        return None
    return differences.index(lowest)


# --- Options, actions, state ------------------------------------------------------------


class GiveAndTakeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    auto: bool = False
    """Reveal every layer without the director's cue; only the pile choices remain."""
    turn_cap: int = Field(default=500, ge=1, le=MAX_TURN_CAP)
    """After this many turns the player with most cards wins."""
    deck: list[str] | None = None
    """A stacked deck, top first, for tests and puzzles: dealt one card at a time to
    seat 0's give pile, seat 0's take pile, seat 1's give pile, …; the rest are the
    leftovers. Default: a shuffled 52-card deck."""
    director: PlayerId | None = None
    """Who cues each turn (the Discord side passes the host). Default or not seated:
    the first seat."""

    @field_validator("deck")
    @classmethod
    def _deck_is_distinct_cards(cls, deck: list[str] | None) -> list[str] | None:
        if deck is None:
            return None
        try:
            cards = [Card.parse(text) for text in deck]
        except GameError as error:
            raise ValueError(str(error)) from error
        if any(card.is_joker for card in cards):
            raise ValueError("Give & Take is played without jokers")
        if len(set(cards)) != len(cards):
            raise ValueError("the deck has a card twice")
        return [str(card) for card in cards]


class GiveAndTakeAction(VersionedModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["go", "give", "take"]
    """``go``: reveal the next layer (the director). ``give``/``take``: the capturer
    puts the capture under that pile."""

    def __str__(self) -> str:
        return self.kind


GO = GiveAndTakeAction(kind="go")
GIVE = GiveAndTakeAction(kind="give")
TAKE = GiveAndTakeAction(kind="take")
_ACTIONS = {"go": GO, "give": GIVE, "take": TAKE}


def parse_action(text: str) -> GiveAndTakeAction:
    """``"go"``, ``"give"`` or ``"take"`` (``"give pile"``/``"take pile"`` too)."""
    words = text.strip().lower().split()
    if len(words) == 2 and words[1] == "pile" and words[0] in ("give", "take"):
        words = words[:1]
    action = _ACTIONS.get(words[0]) if len(words) == 1 else None
    if action is None:
        raise IllegalAction(
            "{text} is not a Give & Take move; say go, give or take.", text=repr(text)
        )
    return action


def pile_action(pile: Pile) -> GiveAndTakeAction:
    return GIVE if pile == "give" else TAKE


class Elimination(BaseModel):
    """Players who went out at the same moment."""

    model_config = ConfigDict(extra="forbid")

    seats: list[int]
    cards: list[int]
    """The cards each had in their piles when going out (same order as ``seats``)."""
    turn: int
    in_fight: bool
    """Out during a fight (rather than at the start of a turn)."""


class Capture(BaseModel):
    """The latest capture."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    pile: Pile
    count: int
    difference: int
    turn: int
    layers: int
    """How many layers were revealed in that turn."""
    fight: bool
    """The turn had a tie for the lowest difference."""


class GiveAndTakeState(VersionedModel):
    players: list[PlayerId]
    give: list[list[Card]]
    """Each seat's face-down give pile, top first."""
    take: list[list[Card]]
    """Each seat's face-down take pile, top first."""
    played_give: list[list[Card]]
    """The face-up cards each seat turned from its give pile this turn, oldest first."""
    played_take: list[list[Card]]
    """The face-up cards each seat turned from its take pile this turn, oldest first."""
    leftovers: list[Card] = Field(default_factory=list)
    """The face-down cards in the centre."""
    out: list[bool]
    eliminations: list[Elimination] = Field(default_factory=list)
    """Who went out, in order."""
    phase: Phase = "go"
    capturer: int | None = None
    """The seat choosing a pile (phase ``choose``)."""
    turn: int = 1
    layers: int = 0
    """Layers revealed this turn."""
    fight: bool = False
    """A tie for the lowest difference happened this turn."""
    director: int = 0
    """The seat that cues turns (while it is in)."""
    auto: bool = False
    turn_cap: int = 500
    ended: Ending | None = None
    last_capture: Capture | None = None
    rng: SeededRng

    def alive(self) -> list[int]:
        return [seat for seat, gone in enumerate(self.out) if not gone]


# --- Views ------------------------------------------------------------------------------


class SeatView(BaseModel):
    player: PlayerId
    give_size: int
    take_size: int
    played_give: list[Card]
    """Face-up cards turned from the give pile this turn, oldest first (last = top)."""
    played_take: list[Card]
    out: bool
    director: bool
    right: PlayerId | None
    """The player whose give card completes this player's duet; None when out."""


class DuetView(BaseModel):
    player: PlayerId
    """Whose duet: the take card is theirs."""
    take_card: Card
    partner: PlayerId
    """The player to their right, whose give card completes the duet."""
    give_card: Card
    difference: int
    lowest: bool


class CaptureView(BaseModel):
    player: PlayerId
    pile: Pile
    count: int
    difference: int
    turn: int
    fight: bool


class EliminationView(BaseModel):
    players: list[PlayerId]
    cards: list[int]
    turn: int
    in_fight: bool


class GiveAndTakeView(BaseModel):
    viewer: PlayerId | None
    seats: list[SeatView]
    """In ring order: each player's right-hand neighbour is the next one still in."""
    duets: list[DuetView]
    """The duets of the top layer, face up; empty before the turn's first reveal."""
    layers: int
    fight: bool
    """A tie for the lowest difference happened this turn."""
    leftovers: int
    phase: Phase
    to_act: PlayerId | None
    director: PlayerId | None
    capturer: PlayerId | None
    capture_size: int
    """Cards the capturer is about to take (board plus leftovers), phase ``choose``."""
    default_pile: Pile | None
    """What the capturer gets if they don't choose, phase ``choose``."""
    last_capture: CaptureView | None
    eliminated: list[EliminationView]
    turn: int
    turn_cap: int
    auto: bool
    over: bool
    ended: Ending | None
    places: dict[PlayerId, int] | None = None
    scores: dict[PlayerId, int] | None = None
    my_give_size: int | None = None
    my_take_size: int | None = None


# --- Helpers ----------------------------------------------------------------------------


def deal(
    cards: Sequence[Card], players: int
) -> tuple[list[list[Card]], list[list[Card]], list[Card]]:
    """Give piles, take piles (top first) and leftovers, dealt one card at a time."""
    piles = 2 * players
    size = len(cards) // piles
    dealt = size * piles
    give = [list(cards[2 * seat : dealt : piles]) for seat in range(players)]
    take = [list(cards[2 * seat + 1 : dealt : piles]) for seat in range(players)]
    return give, take, list(cards[dealt:])


def right_of(state: GiveAndTakeState, seat: int) -> int:
    """The next seat still in after ``seat`` (``seat`` itself if nobody else is)."""
    count = len(state.players)
    for step in range(1, count + 1):
        other = (seat + step) % count
        if not state.out[other]:
            return other
    return seat


def current_director(state: GiveAndTakeState) -> int | None:
    """The seat that cues turns: the director, or the next seat in if they are out."""
    if not state.out[state.director]:
        return state.director
    alive = state.alive()
    return right_of(state, state.director) if alive else None


def top_duets(state: GiveAndTakeState) -> list[tuple[int, Card, int, Card]]:
    """``(seat, take card, partner seat, give card)`` for every seat in, top layer."""
    if state.layers == 0:
        return []
    duets = []
    for seat in state.alive():
        partner = right_of(state, seat)
        duets.append((seat, state.played_take[seat][-1], partner, state.played_give[partner][-1]))
    return duets


def default_pile(state: GiveAndTakeState) -> Pile | None:
    """The capturer's default: the smaller pile, the give pile on equal sizes."""
    if state.phase != "choose" or state.capturer is None:
        return None
    seat = state.capturer
    return "take" if len(state.take[seat]) < len(state.give[seat]) else "give"


def default_action(state: GiveAndTakeState) -> GiveAndTakeAction | None:
    """What to apply for the player to act when they don't act in time: the default
    pile when choosing, ``go`` when a cue is due, None once the game is over."""
    if state.phase == "go":
        return GO
    pile = default_pile(state)
    return None if pile is None else pile_action(pile)


def pile_cards(state: GiveAndTakeState, seat: int) -> int:
    return len(state.give[seat]) + len(state.take[seat])


def board_size(state: GiveAndTakeState) -> int:
    return sum(len(cards) for cards in state.played_give) + sum(
        len(cards) for cards in state.played_take
    )


# --- The engine -------------------------------------------------------------------------


class GiveAndTakeEngine(TurnEngine[GiveAndTakeState, GiveAndTakeAction, GiveAndTakeView]):
    name = "give_and_take"
    title = "Give & Take"
    min_players = 2
    max_players = 5
    hidden_information = True
    Options: ClassVar[type[GiveAndTakeOptions]] = GiveAndTakeOptions
    State = GiveAndTakeState
    Action = GiveAndTakeAction

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> GiveAndTakeState:
        check_player_count(self, players)
        opts = parse_options(self.Options, options)
        rng = SeededRng.from_seed(seed)
        count = len(players)
        if opts.deck is None:
            cards = shuffled_deck(rng)
        else:
            cards = [Card.parse(text) for text in opts.deck]
            if len(cards) < 2 * count:
                raise GameError(
                    "A stacked deck needs at least 2 cards per player: {needed} for "
                    "{count}, not {given}.",
                    needed=2 * count,
                    count=count,
                    given=len(cards),
                )
        give, take, leftovers = deal(cards, count)
        director = players.index(opts.director) if opts.director in players else 0
        state = GiveAndTakeState(
            players=list(players),
            give=give,
            take=take,
            played_give=[[] for _ in players],
            played_take=[[] for _ in players],
            leftovers=leftovers,
            out=[False] * count,
            director=director,
            auto=opts.auto,
            turn_cap=opts.turn_cap,
            rng=rng,
        )
        return self._advance(state)

    def is_over(self, state: GiveAndTakeState) -> bool:
        return state.phase == "over"

    def to_act(self, state: GiveAndTakeState) -> list[PlayerId]:
        if state.phase == "choose" and state.capturer is not None:
            return [state.players[state.capturer]]
        if state.phase == "go":
            director = current_director(state)
            if director is not None:
                return [state.players[director]]
        return []

    def legal_actions(self, state: GiveAndTakeState, player: PlayerId) -> list[GiveAndTakeAction]:
        if player not in self.to_act(state):
            return []
        return [GO] if state.phase == "go" else [GIVE, TAKE]

    def parse_text(self, text: str) -> GiveAndTakeAction:
        return parse_action(text)

    def _foreign_action(self) -> IllegalAction:
        return IllegalAction("That is not a Give & Take move.")

    def _check_turn(
        self, state: GiveAndTakeState, player: PlayerId, action: GiveAndTakeAction
    ) -> None:
        """Say why the player may not act: out, not the director, or not the capturer."""
        if state.out[state.players.index(player)]:
            raise IllegalAction("You are out of this game.")
        if state.phase == "go":
            if player not in self.to_act(state):
                raise IllegalAction("Only the director cues the next reveal.")
            if action.kind != "go":
                raise IllegalAction("Nothing has been captured: the next reveal is due.")
        else:
            if player not in self.to_act(state):
                raise IllegalAction("It's not your capture: wait for the capturer's choice.")
            if action.kind == "go":
                raise IllegalAction("Choose the give or the take pile for your capture first.")

    def _apply_action(
        self, state: GiveAndTakeState, player: PlayerId, action: GiveAndTakeAction
    ) -> GiveAndTakeState:
        """Apply ``go``, ``give`` or ``take``."""
        if action.kind == "go":
            return self._advance(self._reveal(state))
        return self._advance(self._capture(state, action.kind))

    # --- Steps ---------------------------------------------------------------------------

    def _advance(self, state: GiveAndTakeState) -> GiveAndTakeState:
        """With ``auto``, reveal every due layer at once."""
        while state.auto and state.phase == "go":
            state = self._reveal(state)
        return state

    def _reveal(self, state: GiveAndTakeState) -> GiveAndTakeState:
        """Every player still in turns the top card of both piles; then settle."""
        give, take = list(state.give), list(state.take)
        played_give, played_take = list(state.played_give), list(state.played_take)
        for seat in state.alive():
            played_give[seat] = [*played_give[seat], give[seat][0]]
            played_take[seat] = [*played_take[seat], take[seat][0]]
            give[seat] = give[seat][1:]
            take[seat] = take[seat][1:]
        revealed = state.model_copy(
            update={
                "give": give,
                "take": take,
                "played_give": played_give,
                "played_take": played_take,
                "layers": state.layers + 1,
            }
        )
        return self._settle(revealed)

    def _settle(self, state: GiveAndTakeState) -> GiveAndTakeState:
        """Compare the top layer: a capture, a fight (next layer due), or players out."""
        while True:
            if len(state.alive()) <= 1:
                return self._end(state, "last_standing" if state.alive() else "all_out")
            duets = top_duets(state)
            winner = resolve([(take, give) for _, take, _, give in duets])
            if winner is not None:
                return state.model_copy(update={"phase": "choose", "capturer": duets[winner][0]})
            state = state.model_copy(update={"fight": True})
            stuck = [seat for seat in state.alive() if not state.give[seat] or not state.take[seat]]
            if not stuck:
                return state.model_copy(update={"phase": "go", "capturer": None})
            state = self._eliminate(state, stuck, in_fight=True)

    def _eliminate(
        self, state: GiveAndTakeState, seats: Sequence[int], *, in_fight: bool
    ) -> GiveAndTakeState:
        """``seats`` go out together: piles and played cards become leftovers."""
        give, take = list(state.give), list(state.take)
        played_give, played_take = list(state.played_give), list(state.played_take)
        out = list(state.out)
        leftovers = list(state.leftovers)
        cards = []
        for seat in seats:
            cards.append(len(give[seat]) + len(take[seat]))
            leftovers += give[seat] + take[seat] + played_give[seat] + played_take[seat]
            give[seat], take[seat], played_give[seat], played_take[seat] = [], [], [], []
            out[seat] = True
        event = Elimination(seats=list(seats), cards=cards, turn=state.turn, in_fight=in_fight)
        return state.model_copy(
            update={
                "give": give,
                "take": take,
                "played_give": played_give,
                "played_take": played_take,
                "out": out,
                "leftovers": leftovers,
                "eliminations": [*state.eliminations, event],
            }
        )

    def _capture(self, state: GiveAndTakeState, pile: Pile) -> GiveAndTakeState:
        """The capturer takes the board and the leftovers under ``pile``, shuffled."""
        seat = state.capturer
        assert seat is not None
        partner = right_of(state, seat)
        difference = duet_difference(state.played_take[seat][-1], state.played_give[partner][-1])
        captured = [card for cards in state.played_give for card in cards]
        captured += [card for cards in state.played_take for card in cards]
        captured += state.leftovers
        rng = state.rng.model_copy()
        rng.shuffle(captured)
        piles = list(state.give if pile == "give" else state.take)
        piles[seat] = [*piles[seat], *captured]
        record = Capture(
            seat=seat,
            pile=pile,
            count=len(captured),
            difference=difference,
            turn=state.turn,
            layers=state.layers,
            fight=state.fight,
        )
        empty: list[list[Card]] = [[] for _ in state.players]
        captured_state = state.model_copy(
            update={
                pile: piles,
                "played_give": empty,
                "played_take": [[] for _ in state.players],
                "leftovers": [],
                "rng": rng,
                "capturer": None,
                "layers": 0,
                "fight": False,
                "last_capture": record,
            }
        )
        return self._next_turn(captured_state)

    def _next_turn(self, state: GiveAndTakeState) -> GiveAndTakeState:
        """End the turn: the cap, then the start-of-turn check, then the cue is due."""
        if state.turn >= state.turn_cap:
            return self._end(state, "turn_cap")
        state = state.model_copy(update={"turn": state.turn + 1, "phase": "go"})
        stuck = [seat for seat in state.alive() if not state.give[seat] or not state.take[seat]]
        if stuck:
            state = self._eliminate(state, stuck, in_fight=False)
        alive = state.alive()
        if len(alive) <= 1:
            return self._end(state, "last_standing" if alive else "all_out")
        return state

    def _end(self, state: GiveAndTakeState, ending: Ending) -> GiveAndTakeState:
        return state.model_copy(update={"phase": "over", "capturer": None, "ended": ending})

    # --- Results -------------------------------------------------------------------------

    def _ranking(self, state: GiveAndTakeState) -> tuple[dict[int, int], dict[int, int]]:
        """Places and scores by seat."""
        scores = {seat: pile_cards(state, seat) for seat in state.alive()}
        groups: list[list[int]] = []
        by_cards: list[list[int]] = [state.alive()]
        for event in state.eliminations:
            scores.update(zip(event.seats, event.cards, strict=True))
        events = list(reversed(state.eliminations))
        if not state.alive() and events:
            by_cards = [events.pop(0).seats]
        for seats in by_cards:
            counts = sorted({scores[seat] for seat in seats}, reverse=True)
            groups.extend([seat for seat in seats if scores[seat] == n] for n in counts)
        groups.extend(event.seats for event in events)
        places: dict[int, int] = {}
        ahead = 0
        for group in groups:
            for seat in group:
                places[seat] = ahead + 1
            ahead += len(group)
        return places, scores

    def outcome(self, state: GiveAndTakeState) -> Outcome:
        """Places by elimination order (see the module docstring); scores are cards."""
        places, scores = self._ranking(state)
        return Outcome(
            scores={player: scores[seat] for seat, player in enumerate(state.players)},
            places={player: places[seat] for seat, player in enumerate(state.players)},
        )

    def view(self, state: GiveAndTakeState, viewer: PlayerId | None) -> GiveAndTakeView:
        players = state.players
        over = self.is_over(state)
        director = None if over else current_director(state)
        seats = [
            SeatView(
                player=player,
                give_size=len(state.give[seat]),
                take_size=len(state.take[seat]),
                played_give=list(state.played_give[seat]),
                played_take=list(state.played_take[seat]),
                out=state.out[seat],
                director=seat == director,
                right=None if state.out[seat] else players[right_of(state, seat)],
            )
            for seat, player in enumerate(players)
        ]
        duets = top_duets(state)
        differences = [duet_difference(take, give) for _, take, _, give in duets]
        lowest = min(differences, default=None)
        capture = state.last_capture
        view = GiveAndTakeView(
            viewer=viewer,
            seats=seats,
            duets=[
                DuetView(
                    player=players[seat],
                    take_card=take,
                    partner=players[partner],
                    give_card=give,
                    difference=difference,
                    lowest=difference == lowest,
                )
                for (seat, take, partner, give), difference in zip(duets, differences, strict=True)
            ],
            layers=state.layers,
            fight=state.fight,
            leftovers=len(state.leftovers),
            phase=state.phase,
            to_act=next(iter(self.to_act(state)), None),
            director=None if director is None else players[director],
            capturer=None if state.capturer is None else players[state.capturer],
            capture_size=board_size(state) + len(state.leftovers) if state.phase == "choose" else 0,
            default_pile=default_pile(state),
            last_capture=None
            if capture is None
            else CaptureView(
                player=players[capture.seat],
                pile=capture.pile,
                count=capture.count,
                difference=capture.difference,
                turn=capture.turn,
                fight=capture.fight,
            ),
            eliminated=[
                EliminationView(
                    players=[players[seat] for seat in event.seats],
                    cards=list(event.cards),
                    turn=event.turn,
                    in_fight=event.in_fight,
                )
                for event in state.eliminations
            ],
            turn=state.turn,
            turn_cap=state.turn_cap,
            auto=state.auto,
            over=over,
            ended=state.ended,
        )
        if over:
            outcome = self.outcome(state)
            view.places = dict(outcome.places)
            view.scores = dict(outcome.scores)
        if viewer in players:
            seat = players.index(viewer)
            view.my_give_size = len(state.give[seat])
            view.my_take_size = len(state.take[seat])
        return view


ENGINE = GiveAndTakeEngine()
_CONTRACT: Engine[GiveAndTakeState, GiveAndTakeAction, GiveAndTakeView] = (
    ENGINE  # mypy checks the contract
)
