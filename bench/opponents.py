"""Opponent pools for `bench.ai`: tables of players our levels were not tuned on.

``normal``'s weights were tuned against ``normal`` and ``easy``; the ``hard`` players
weigh a few kinds of player for each other seat (Geschenkt's `bot.ai.geschenkt.KINDS`,
the ``no-thanks`` rule among them; Escalation's and TAKE's ``OTHER_KINDS``).
A pool seats one kind of player in every other seat, so `bench.ai --pool` can show
how much of ``hard``'s lead over ``normal`` survives a table that plays otherwise.

Every game's pools: ``easy`` and ``normal`` (our own levels), ``random`` (a uniformly
random legal action, `bot.ai.random_player.choose_uniform`, as the bench's
``random``). Then, per game:

- geschenkt: ``no-thanks``, the outside player: the `HeuristicPlayer` of the
  ``no-thanks`` package on PyPI (MIT; the peer of `bench.engines`), its own
  ``take_proba`` read off our view (`no_thanks_heuristic`); ``greedy`` and
  ``cautious``, style players (`geschenkt_greedy`, `geschenkt_cautious`). Geschenkt's
  ``hard`` counts the HeuristicPlayer's rule among its kinds (``casual``), so the
  ``no-thanks`` table is one it knows; ``cautious`` and ``easy`` are like none of its
  kinds exactly.
- escalation: ``shedder`` (`escalation_shedder`).
- take: ``hoarder`` (`take_hoarder`).
- draughts: ``greedy`` (`draughts_greedy`), ``wary`` (`draughts_wary`) and ``guide``
  (`draughts_guide`, from published advice for Turkish draughts).

No outside player is known to us for the other games: we found no package on PyPI
that plays Escalation or TAKE. For draughts, ``pydraughts`` (in the bench extra) ships
no player of its own: its engines (`HubEngine`, `DXPEngine`, `CheckerBoardEngine`)
drive engine programs that no package ships, and those play international, English
or Russian draughts, not the orthogonal rules of ours. ``py-draughts`` has its own
search but none of the orthogonal variants, and ``kish`` (a Turkish draughts engine)
is a Rust source package that can't be built here (no crate registry). So draughts'
outside player is `draughts_guide`: published advice, written here as a rule.

Each style player below is a short rule, written here (none is from a published
strategy unless its docstring names one); each sees its seat's view only, as our
levels do.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from bot.ai import Chooser, Level
from bot.ai.draughts import draw_offered, material, position_and_moves
from bot.ai.take import PLAYERS as TAKE_PLAYERS
from bot.engines.base import GameError, SeededRng
from bot.engines.cards import JOKER_RANK, Card
from bot.engines.draughts import (
    ACCEPT_DRAW,
    BLACK_KING,
    WHITE_KING,
    DraughtsView,
    Move,
    Position,
)
from bot.engines.escalation import TAKE as ESCALATION_TAKE
from bot.engines.escalation import EscalationAction, EscalationView, card_value, is_pass_through
from bot.engines.geschenkt import REFUSE, TAKE, GeschenktAction, GeschenktView
from bot.engines.take import TakeAction, TakeView, card_points
from bot.engines.take import parse_action as parse_take_action


class PoolUnavailable(Exception):
    """The pool's player can't be built here (a package is missing); the message says
    why and how to install it."""


@dataclass(frozen=True)
class Pool:
    """One kind of player in every seat but the measured one."""

    name: str
    about: str
    """One line for the bench's notes."""
    make: Callable[[], Chooser | None]
    """Builds its chooser (an outside player imports its package here, and raises
    `PoolUnavailable` when it can't): the choice from the seat's view, or None for a
    uniformly random legal action, drawn from the state as the bench's ``random``."""


def _seat(view: Any) -> int:
    seats = [seat.player for seat in view.seats]
    if view.viewer not in seats or view.to_act != view.viewer:
        raise ValueError("a player chooses only on its own turn")
    return seats.index(view.viewer)


def _unit(rng: SeededRng) -> float:
    """A uniform float in [0, 1) from the seat's generator."""
    return rng.next_u64() / 2**64


# --- Geschenkt -------------------------------------------------------------------------


def no_thanks_heuristic() -> Chooser:
    """The ``no-thanks`` package's `HeuristicPlayer` (Markus Shepherd, MIT, version
    0.2.2), on our view.

    Its rule (``HeuristicPlayer.take_proba``): with ``value = card - pot - 1``, take
    for sure at no chips or ``value <= 0``; else take with probability
    ``1 - value / 20`` (0.05 from a value of 20 up), times ``1 + 1 / chips``, doubled
    when a neighbour of the card is in front of it, at most 1. Its own method is
    called on a `HeuristicPlayer` whose game, chips and cards are set from the view
    (the card, pot, own chips and own cards are all it reads, and the view shows each);
    only the coin it tosses comes from the seat's generator instead of the module's
    `random`, so a game is repeatable. The package's rules are ours (cards 3–35, 9
    removed, 11 chips each for 3–5 players, 9 for 6, 7 for 7), so nothing else needs
    translating. The package is imported as `bench.engines` does for its peer: it is
    optional (``pip install -e '.[bench]'``)."""
    try:
        players = importlib.import_module("no_thanks.players")
    except Exception as error:  # not installed, or broken on import
        raise PoolUnavailable(
            f"the no-thanks package can't be imported ({error}); "
            "install it with: pip install -e '.[bench]'"
        ) from error
    seat = players.HeuristicPlayer("tablebot seat")

    def choose(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
        me = _seat(view)
        if view.current_card is None or view.my_chips is None:
            raise ValueError("a Geschenkt player chooses only while a card is face up")
        seat.game = SimpleNamespace(draw_pile=[view.current_card], tokens_on_card=view.pot)
        seat.tokens = view.my_chips
        seat.cards = set(view.seats[me].cards)
        proba = float(seat.take_proba())
        # As `HeuristicPlayer.action`: TAKE if tokens <= 0 or random() <= proba.
        return TAKE if seat.tokens <= 0 or _unit(rng) <= proba else REFUSE

    return choose


GREEDY_CHIPS = 3
"""`geschenkt_greedy` takes any card with at least this many chips on it: with three
players, one round of refusals."""


def geschenkt_greedy(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
    """A chip-hungry Geschenkt player (a style of our own, no published source): it
    takes any card as soon as `GREEDY_CHIPS` chips lie on it, whatever the card, and
    a card next to one it holds at once (it costs at most nothing); otherwise it
    refuses, and with no chips it must take. ``normal`` weighs a card's cost against
    the pot and its chips; this one never lets a pot grow, so the big cards go
    cheaply and early and chips stay scarce around the table."""
    me = _seat(view)
    card, chips = view.current_card, view.my_chips
    if card is None or chips is None:
        raise ValueError("a Geschenkt player chooses only while a card is face up")
    mine = set(view.seats[me].cards)
    fits = card - 1 in mine or card + 1 in mine
    return TAKE if chips <= 0 or fits or view.pot >= GREEDY_CHIPS else REFUSE


CAUTIOUS_SHARE = 0.5
"""`geschenkt_cautious` takes a card once the pot is worth this share of its cost."""
CAUTIOUS_LOW = 3
"""`geschenkt_cautious` takes at a quarter of the cost once down to this many chips."""


def geschenkt_cautious(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
    """A careful Geschenkt player (a style of our own, no published source): it takes a
    card that fits one of its runs at once (so no one else gets it), and any other card
    only once the pot pays half of what the card costs its score (a quarter when it is
    down to `CAUTIOUS_LOW` chips); with no chips it must take. It weighs the pot
    against the card's cost, as ``normal`` does, but in proportion rather than by a
    chip value and a threshold, and never lets a fitting card go round for chips."""
    me = _seat(view)
    card, chips = view.current_card, view.my_chips
    if card is None or chips is None:
        raise ValueError("a Geschenkt player chooses only while a card is face up")
    mine = set(view.seats[me].cards)
    if chips <= 0 or card - 1 in mine or card + 1 in mine:
        return TAKE
    share = CAUTIOUS_SHARE if chips > CAUTIOUS_LOW else CAUTIOUS_SHARE / 2
    return TAKE if view.pot >= share * card else REFUSE


# --- Escalation ------------------------------------------------------------------------


def escalation_shedder(view: EscalationView, rng: SeededRng) -> EscalationAction:
    """An Escalation player who sheds cards as fast as it can (a style of our own, no
    published source): it plays the legal set with the most cards (of equal sizes the
    lowest value), leading its largest set too; with no set that beats the value in
    force it passes a 2 or 3 through; only then does it take. ``normal`` keeps its
    sets and high cards while the stock lasts; ``easy`` (the defensive player of the
    rule text's notes) beats with the cheapest play, one card where one will do."""
    hand = view.my_hand or []
    in_force = None if view.must_lead else view.value_in_force
    groups: dict[int, list[Card]] = {}
    for card in sorted(hand):
        if not is_pass_through(card):
            groups.setdefault(card_value(card), []).append(card)
    specials = sorted(card for card in hand if is_pass_through(card))
    sets = [
        (-count, value, cards[:count])
        for value, cards in groups.items()
        for count in range(1, len(cards) + 1)
        if in_force is None or value * count > in_force
    ]
    if sets:
        return EscalationAction(kind="play", cards=tuple(min(sets)[2]))
    if specials:  # beaten, or a hand of 2s and 3s only leading
        return EscalationAction(kind="play", cards=(specials[0],))
    if in_force is None:
        raise GameError("There is no legal move to choose from.")
    return ESCALATION_TAKE


def escalation_collector(view: EscalationView, rng: SeededRng) -> EscalationAction:
    """An Escalation player from the "Notes on Strategy" of the rule text (pagat.com,
    "Escalation", designed by Charles Pierce; `shared/rules/escalation.md`), its
    aggressive player: while the stock lasts it collects a hand for the endgame, sets
    of equal value, and spends what is of little use there. It passes a 2 or 3 through
    whenever it must beat (they "are of little use for winning the endgame since they
    can only be played singly"), beats otherwise only with a single card that belongs
    to no set, and takes the pile rather than break a set. Leading, it plays its lowest
    card that belongs to no set. Once the stock is out it sheds as fast as it can
    (`escalation_shedder`)."""
    hand = view.my_hand or []
    if view.stock_size == 0:
        return escalation_shedder(view, rng)
    counts: dict[int, int] = {}
    for card in hand:
        if not is_pass_through(card):
            counts[card_value(card)] = counts.get(card_value(card), 0) + 1
    lone = sorted(
        (card_value(card), card)
        for card in hand
        if not is_pass_through(card) and counts[card_value(card)] == 1
    )
    specials = sorted(card for card in hand if is_pass_through(card))
    if view.must_lead:
        if lone:
            return EscalationAction(kind="play", cards=(lone[0][1],))
        return escalation_shedder(view, rng)  # only sets (or 2s and 3s): shed one
    in_force = view.value_in_force or 0
    if specials:
        return EscalationAction(kind="play", cards=(specials[0],))
    beating = [card for value, card in lone if value > in_force]
    if beating:
        return EscalationAction(kind="play", cards=(beating[0],))
    return ESCALATION_TAKE


# --- TAKE ------------------------------------------------------------------------------


def take_hoarder(view: TakeView, rng: SeededRng) -> Any:
    """A TAKE player who keeps its runs in hand (the classic rummy habit of holding
    melds back until one can go out at once; a style, no published source): it draws
    and discards as ``normal`` does and takes another player's run whenever it can,
    but never melds or lays off onto its own runs while a discard is legal, so it lays
    down only when the rules make it (every card it holds can go). ``normal`` melds
    its longest runs at once; ``hard`` holds a run back only when laying it down would
    likely feed a take."""
    normal = TAKE_PLAYERS["normal"]
    moves = view.my_moves or []
    if view.phase != "play" or any(move.takes_from for move in moves):
        return normal(view, rng)  # the draw, or normal's best take
    discards = [move for move in moves if move.kind == "discard"]
    if not discards:
        return normal(view, rng)  # it must lay down: normal's way
    return normal(view.model_copy(update={"my_moves": discards}), rng)


def _near(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` could join a run with another card of ``hand`` (``card`` itself
    left out once): a joker either way, or a card of its suit two ranks away or less."""
    others = list(hand)
    if card in others:
        others.remove(card)
    if card.rank == JOKER_RANK:
        return bool(others)
    return any(
        other.rank == JOKER_RANK or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)
        for other in others
    )


def take_discarder(view: TakeView, rng: SeededRng) -> TakeAction:
    """A TAKE player from published rummy advice (Junglee Rummy, "Rummy tips and
    tricks": "to maintain low points, players usually discard cards of higher values",
    and keep the cards that can still make a sequence). It takes the face-up discard
    only when it fits a run in the making (its suit, two ranks or less from a card it
    holds), lays down and takes whatever it can (the first meld or take on offer), and
    discards its highest-scoring card that fits no run in the making, or else its
    highest-scoring card. ``normal`` weighs draws and discards by what they leave for
    runs and what they feed the other player."""
    moves = view.my_moves or []
    hand = view.my_hand or []
    if view.phase == "draw":
        top = view.discard_top
        if top is not None and _near(top, hand) and any(m.action == "draw discard" for m in moves):
            return parse_take_action("draw discard")
        return parse_take_action(next(m.action for m in moves if m.kind == "draw"))
    lays = [m for m in moves if m.kind in ("meld", "add")]
    if lays:
        return parse_take_action(max(lays, key=lambda m: len(m.cards)).action)
    discards = [m for m in moves if m.kind == "discard"]
    loose = [m for m in discards if not _near(m.cards[0], hand)] or discards
    best = max(loose, key=lambda m: (card_points(m.cards[0]), m.cards[0].rank))
    return parse_take_action(best.action)


# --- Draughts --------------------------------------------------------------------------


def _best(scored: list[tuple[float, Move]], rng: SeededRng) -> str:
    top = max(score for score, _ in scored)
    best = [move for score, move in scored if score == top]
    return str(best[rng.below(len(best))])


def draughts_greedy(view: DraughtsView, rng: SeededRng) -> str:
    """The greedy capturer (a style of our own, no published source): one ply, the
    move that leaves the most material (a king three men, `bot.ai.draughts.material`),
    so the capture of the most material; ties at random. It is ``easy`` without
    ``easy``'s random move one time in four. Offered a draw, it accepts unless ahead
    on material, as ``easy`` does."""
    position, moves = position_and_moves(view)
    side = position.side
    if draw_offered(view) and material(position, side) <= 0:
        return str(ACCEPT_DRAW)
    return _best([(material(position.play(move), side), move) for move in moves], rng)


def draughts_wary(view: DraughtsView, rng: SeededRng) -> str:
    """A cautious material player (a style of our own, no published source): two
    plies of material only, so the move whose worst reply leaves it the most material
    (a move that leaves the other side no move wins outright); ties at random. It sees
    the recapture that ``greedy`` walks into, but nothing of position. Offered a draw,
    it accepts unless ahead on material."""
    position, moves = position_and_moves(view)
    side = position.side
    if draw_offered(view) and material(position, side) <= 0:
        return str(ACCEPT_DRAW)
    scored: list[tuple[float, Move]] = []
    for move in moves:
        after = position.play(move)
        replies = after.legal_moves()
        if not replies:
            scored.append((float("inf"), move))
            continue
        scored.append((min(material(after.play(reply), side) for reply in replies), move))
    return _best(scored, rng)


GUIDE_KING = 5
"""A king is worth this many men to `draughts_guide`: "the value of a king is equal to
five men" (the Turkish draughts learning guide cited there)."""
GUIDE_CENTRE = 0.1
"""`draughts_guide`'s bonus per own man on the centre files c–f."""
GUIDE_ISOLATED = 0.2
"""`draughts_guide`'s cost per own man with no own piece beside, before or behind it."""


def guide_value(position: Position, side: int) -> float:
    """`draughts_guide`'s view of a position for ``side``: material with a king as
    `GUIDE_KING` men, men on the centre files a little more, isolated men a little less
    (each term for ``side`` less the same for the other side)."""
    board = position.board
    total = 0.0
    for square, piece in enumerate(board):
        if not piece:
            continue
        own = 1 if piece * side > 0 else -1
        if piece in (WHITE_KING, BLACK_KING):
            total += own * GUIDE_KING
            continue
        value = 1.0
        file, rank = square % 8, square // 8
        if 2 <= file <= 5:
            value += GUIDE_CENTRE
        neighbours = [
            board[square + step]
            for step, ok in ((-1, file > 0), (1, file < 7), (-8, rank > 0), (8, rank < 7))
            if ok
        ]
        if not any(other * piece > 0 for other in neighbours):
            value -= GUIDE_ISOLATED
        total += own * value
    return total


def draughts_guide(view: DraughtsView, rng: SeededRng) -> str:
    """A player from published advice for Turkish draughts (Dama), read as a rule: two
    plies (the move whose worst reply leaves it best off; a move that leaves the other
    side no move wins outright), valuing a position by `guide_value`. The advice: "the
    value of a king is equal to five men", so that giving up to five men for a king is
    sound ("Turkish Draughts (Dama): Rules of Game and Learning Guide", section 3, "The
    pieces and their values"), and "control the center" and "keep your pieces from
    becoming isolated and vulnerable to multi-jumps" (GameXpla.in, "Turkish Draughts,
    Dama", strategic tips). Our levels count a king as three men (``easy``) or
    three men and its open lines (the search's evaluation); this one plays for kings
    harder. Ties at random. Offered a draw, it accepts unless ahead by its own
    count."""
    position, moves = position_and_moves(view)
    side = position.side
    if draw_offered(view) and guide_value(position, side) <= 0:
        return str(ACCEPT_DRAW)
    scored: list[tuple[float, Move]] = []
    for move in moves:
        after = position.play(move)
        replies = after.legal_moves()
        if not replies:
            scored.append((float("inf"), move))
            continue
        scored.append((min(guide_value(after.play(reply), side) for reply in replies), move))
    return _best(scored, rng)


# --- The pools -------------------------------------------------------------------------

OWN_LEVELS: tuple[Level, ...] = ("easy", "normal")


def _fixed(chooser: Chooser | None) -> Callable[[], Chooser | None]:
    return lambda: chooser


def pools_for(game: str, players: Mapping[Level, Chooser]) -> dict[str, Pool]:
    """The game's pools by name: its own ``easy`` and ``normal``, ``random``, then its
    outside player (where there is one) and its style players."""
    pools: dict[str, Pool] = {
        level: Pool(level, f"our {level} level", _fixed(players[level]))
        for level in OWN_LEVELS
        if level in players
    }
    pools["random"] = Pool("random", "a uniformly random legal action", _fixed(None))
    for pool in POOLS.get(game, ()):
        pools[pool.name] = pool
    return pools


POOLS: dict[str, tuple[Pool, ...]] = {
    "geschenkt": (
        Pool("no-thanks", "HeuristicPlayer of the no-thanks package", no_thanks_heuristic),
        Pool(
            "greedy",
            f"takes any card with {GREEDY_CHIPS}+ chips, or next to its own",
            _fixed(geschenkt_greedy),
        ),
        Pool(
            "cautious",
            "takes a card next to its own at once, others when the pot pays half the card",
            _fixed(geschenkt_cautious),
        ),
    ),
    "escalation": (
        Pool(
            "shedder",
            "plays its largest set, takes only when it must",
            _fixed(escalation_shedder),
        ),
        Pool(
            "collector",
            "keeps its sets for the endgame, spends 2s and 3s (the rule text's notes)",
            _fixed(escalation_collector),
        ),
    ),
    "take": (
        Pool("hoarder", "never melds or lays off until it must", _fixed(take_hoarder)),
        Pool(
            "discarder",
            "discards high cards that fit no run, lays down at once (published advice)",
            _fixed(take_discarder),
        ),
    ),
    "draughts": (
        Pool("greedy", "one ply, the most material", _fixed(draughts_greedy)),
        Pool("wary", "two plies of material", _fixed(draughts_wary)),
        Pool(
            "guide",
            f"two plies, a king {GUIDE_KING} men, centre and no isolated men (published advice)",
            _fixed(draughts_guide),
        ),
    ),
}
"""Game -> its outside and style players' pools (beyond easy, normal and random)."""
