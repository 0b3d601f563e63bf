"""TAKE as PNGs: the public table, and each player's own hand.

The table (`render_table`): a header with the stock (face down, its size, whether it
was turned over), the discard pile's top card and size, whose turn it is and to do
what, the hand number and target, the last action in words with small card tags
("Bob took run 3 from Alice with 8♣") and the last hand's result; then one lane per
seat with its name, dealer and floater marks, hand size (face-down backs and a count,
never faces), points laid this hand and the match total, and that player's runs as
overlapping face-up cards in trays, each with its id badge (players name runs by id)
and its points, locked runs outlined with a padlock. A joker is drawn as a joker with
the card it stands for small in its corner. The player to act is highlighted. Once the
match is over: the winner, a score sheet of the hands (who went out, laid and held
points) and the seats best first with places, their runs and the cards they were left
holding (public in the results).

Only public information reaches the table: ``viewer``, ``my_hand`` and ``my_moves``
are ignored, so it is the same picture for everyone.

The hand (`render_hand`): the viewer's cards face up, by suit then rank, the card just
taken from the discard pile marked, under each card the runs it could be added to;
beside them the discard pile's top and the stock size.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from bot.engines.base import GameError
from bot.engines.cards import Card
from bot.engines.take import (
    HandResultView,
    LastView,
    RunView,
    SeatView,
    TakeView,
    card_points,
)
from bot.render import audit
from bot.render.cards import (
    CardSize,
    card_stack,
    card_tag,
    fanned_backs,
    joker_card,
    plain_card,
    playing_card,
    rank_text,
)
from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, place_colour
from bot.render.shapes import (
    SUPERSAMPLE,
    Sprite,
    downsample,
    draw_rounded,
    new_panel,
    place,
    supersampled,
    triangle,
)
from bot.render.text import (
    MIN_CAPTION_SIZE,
    MIN_TEXT_SIZE,
    MINUS,
    TextStyle,
    badge,
    cut_name,
    display_name,
    fit_names,
    fit_text,
    join_words,
    number_text,
    pill,
    seat_name,
    signed,
    stamp_text,
    text_width,
    whole_lines,
    wrap_text,
)
from bot.render.words import Lang, plural, tr
from bot.texts import Picks

WIDTH = 800
MARGIN = 20
INSET = MARGIN + 14
"""Left edge of the header's content."""
RIGHT = WIDTH - MARGIN - 14

# --- header geometry ---
LABEL_Y = MARGIN + 6
PILE_CARD = CardSize(56, 78, 8, 26, 18)
CARDS_TOP = MARGIN + 34
CARDS_BOTTOM = CARDS_TOP + PILE_CARD.height
HEADER_HEIGHT = CARDS_BOTTOM + 26
STOCK_X = INSET
DISCARD_X = 210
INFO_X = 394
TURN_Y = CARDS_TOP + 12
"""Middle of the line saying who is to act."""
INFO_LINE = 27
"""Between the lines of the turn column (room for a card tag on each)."""
INFO_LINES = 5
"""Lines under the player to act at most: the card they took, the last action, the last
hand (the header grows below the piles for the fourth and fifth)."""

# --- final header geometry ---
TITLE_Y = MARGIN + 50
"""Middle of the winners' first line."""
TITLE_LINE = 36
TITLE_MIN_SIZE = 24
"""The winners' heading shrinks this far before it cuts a name."""
DETAIL_LINE = 23
SHEET_ROW = 28
"""A row of the score sheet: room for an OUT tag in every row."""
SHEET_ROWS = 6
"""Hands listed on the score sheet; earlier ones are summed up in one line."""
SHEET_HAND_WIDTH = 92
"""The least width of the sheet's first column (wider when the language's labels are)."""

# --- seat lanes ---
LANE_GAP = 8
INFO_HEIGHT = 44
"""The lane's top row: name, hand, points, total."""
NAME_X = MARGIN + 18
NAME_RIGHT = 262
HAND_X = 276
TINY_CARD = CardSize(18, 26, 3, 10, 8)
TINY_STEP = 7
LAID_X = 486
TOTAL_RIGHT = WIDTH - MARGIN - 16

RUN_TEXT = 20
"""Text size beside a run's card tags (their text is 2 px smaller): a run is drawn
as its ends ("9♦ – A♦"), not as a fan of small cards, so it reads on a phone."""
TRAY_PAD = 6
BADGE_RADIUS = 16
TRAY_HEIGHT = 2 * BADGE_RADIUS + 2 * TRAY_PAD
PART_GAP = 6
RUN_GAP = 10
RUN_LINE = TRAY_HEIGHT + 6
RUNS_LEFT = MARGIN + 10
RUNS_RIGHT = WIDTH - MARGIN - 10

# --- hand image ---
HAND_CARD = PILE_CARD
HAND_GAP = 6
"""Between two cards of the hand when they all fit without overlapping."""
SUIT_GAP = 10
"""Extra room between two suits."""
HAND_TOP = MARGIN + 40
HAND_RIGHT = 596
SIDE_X = 590
HINT_Y = HAND_TOP + HAND_CARD.height + 18
STATUS_Y = HINT_Y + 32
HAND_HEIGHT = STATUS_Y + 22 + MARGIN

LABEL = TextStyle(18, PALETTE.muted, bold=True)
NAME = TextStyle(19, PALETTE.text, bold=True)
DETAIL = TextStyle(18, PALETTE.muted)
PROSE = TextStyle(18, PALETTE.text)
CAPTION = TextStyle(MIN_CAPTION_SIZE, PALETTE.muted, bold=True, caption=True)
SMALL = TextStyle(18, PALETTE.muted, bold=True)
COUNT = TextStyle(20, PALETTE.text, bold=True)
BIG_NUMBER = TextStyle(28, PALETTE.text, bold=True)
TITLE = TextStyle(30, PALETTE.accent, bold=True)
TAG = TextStyle(18, PALETTE.accent_ink, bold=True)
RUN_STYLE = TextStyle(RUN_TEXT, PALETTE.text, bold=True)
RUN_POINTS = TextStyle(RUN_TEXT, PALETTE.muted, bold=True)

COUNT_LINE = 24
"""Between the lines of a count's caption."""

HAND_SUITS = "SHCD"
"""Suit order in a hand: alternating colours."""


# --- shared bits -------------------------------------------------------------------


@dataclass(frozen=True)
class _Names:
    view: TakeView
    names: Mapping[str, str]
    lang: Lang = "en"

    def __call__(self, player: str) -> str:
        players = [seat.player for seat in self.view.seats]
        return seat_name(player, players, self.names, self.lang)


def card_sprite(
    card: Card, size: CardSize, stands_for: Card | None = None, *, muted: bool = False
) -> Sprite:
    """A face-up card; a joker shows the card it stands for (when placed) small."""
    if card.is_joker:
        stand = None if stands_for is None else (rank_text(stands_for), stands_for.suit)
        return joker_card(size, stand, muted=muted)
    return playing_card(rank_text(card), card.suit, size, muted=muted)


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """By suit (♠ ♥ ♣ ♦, alternating colours), then rank, ace high; jokers last."""
    return sorted(
        cards,
        key=lambda c: (len(HAND_SUITS), 0) if c.is_joker else (HAND_SUITS.index(c.suit), c.rank),
    )


def _ends(run: RunView) -> tuple[int, int]:
    """A run's first and last position: 1 = low ace … 14 = high ace."""
    first, last = run.stands_for[0], run.stands_for[-1]
    return (1 if first.rank == 14 else first.rank), last.rank


def fits(card: Card, run: RunView) -> bool:
    """Whether ``card`` could be added to an end of ``run`` (a joker: any unlocked run
    with a free end). A card joining two runs fits an end of each."""
    if run.locked:
        return False
    low, high = _ends(run)
    if card.is_joker:
        return not (low == 1 and high == 14)
    if card.suit != run.suit:
        return False
    for spot in (1, 14) if card.rank == 14 else (card.rank,):
        if spot in (low - 1, high + 1) and not (min(low, spot) == 1 and max(high, spot) == 14):
            return True
    return False


def _draw_empty_slot(image: Image.Image, x: float, y: float, size: CardSize) -> None:
    box = (round(x), round(y), round(x) + size.width, round(y) + size.height)
    draw_rounded(image, box, size.radius, PALETTE.panel, PALETTE.faint, 1)


def _runs_text(lang: Lang, ids: Sequence[str], separator: str) -> str:
    """``run 3``, or ``runs 3 and 7`` (``runs 3, 7`` with the separator ``", "``; an
    empty separator joins the ids as words)."""
    if len(ids) == 1:
        return tr(lang, "run {id}", id=ids[0])
    joined = join_words(ids, lang) if not separator else separator.join(ids)
    return tr(lang, "runs {ids}", ids=joined)


def _draw_count(
    image: Image.Image, x: float, middle: float, number: str, caption: str, room: float = WIDTH
) -> None:
    """A big number with its caption below, the caption on two lines (the block moved
    up) when one is narrower than it."""
    lines = whole_lines(caption, CAPTION, room) or [fit_text(caption, CAPTION, room)]
    lines = lines if len(lines) <= 2 else [fit_text(caption, CAPTION, room)]
    lift = COUNT_LINE / 2 * (len(lines) - 1)
    stamp_text(image, (x, middle - 9 - lift), number, BIG_NUMBER, "lm")
    for k, line in enumerate(lines):
        stamp_text(image, (x, middle + 16 - lift + COUNT_LINE * k), line, CAPTION, "lm")


# --- prose with card tags ------------------------------------------------------------

Token = str | tuple[Card, Card | None]
"""A word, or a card (and what a joker stands for) drawn as a small tag."""


def _tag(token: tuple[Card, Card | None], style: TextStyle) -> Image.Image:
    card, stand = token
    size = max(MIN_TEXT_SIZE, style.size - 2)
    if card.is_joker:
        return card_tag("JK", "", size, None if stand is None else (rank_text(stand), stand.suit))
    return card_tag(rank_text(card), card.suit, size)


def _token_width(token: Token, style: TextStyle) -> float:
    return text_width(token, style) if isinstance(token, str) else _tag(token, style).width


def layout_prose(
    tokens: Sequence[Token], style: TextStyle, width: float, max_lines: int
) -> list[list[Token]]:
    """``tokens`` broken into at most ``max_lines`` lines no wider than ``width``;
    what doesn't fit is dropped and the last line ends with an ellipsis. A word too
    long for a line of its own is cut."""
    space = text_width(" ", style)
    lines: list[list[Token]] = []
    used = 0.0
    for token in tokens:
        token_width = _token_width(token, style)
        if lines and used + space + token_width <= width:
            lines[-1].append(token)
            used += space + token_width
            continue
        if len(lines) == max_lines:
            last = lines[-1]
            while last and used + space + text_width("…", style) > width:
                used -= _token_width(last.pop(), style) + space
            last.append("…")
            _note_cut(tokens, lines)
            return lines
        if isinstance(token, str) and token_width > width:
            token = fit_text(token, style, width)
            token_width = text_width(token, style)
        lines.append([token])
        used = token_width
    return lines


def _token_text(token: Token) -> str:
    return token if isinstance(token, str) else f"[{token[0]}]"


def _note_cut(tokens: Sequence[Token], lines: Sequence[Sequence[Token]]) -> None:
    """Note a sentence cut short (the end dropped for an ellipsis) for an open audit."""
    checking = audit.current()
    if checking is not None:
        whole = " ".join(_token_text(token) for token in tokens)
        shown = " / ".join(" ".join(_token_text(token) for token in line) for line in lines)
        checking.cuts.append((whole, shown))


def _stamp_prose(
    image: Image.Image, x: float, middle: float, line: Sequence[Token], style: TextStyle
) -> None:
    space = text_width(" ", style)
    for token in line:
        if isinstance(token, str):
            stamp_text(image, (x, middle), token, style, "lm")
        else:
            tag = _tag(token, style)
            image.alpha_composite(tag, dest=(round(x), round(middle - tag.height / 2)))
        x += _token_width(token, style) + space


def _placed(text: str) -> tuple[Card, Card | None] | None:
    """``8C`` or ``JK=8C`` as a card token; None if it isn't one."""
    try:
        if "=" in text:
            joker, stand = text.split("=", 1)
            return Card.parse(joker), Card.parse(stand)
        return Card.parse(text), None
    except (GameError, ValueError):
        return None


def _words(text: str) -> list[Token]:
    return list(text.split())


def sentence(template: str, **parts: Sequence[Token]) -> list[Token]:
    """A translated ``template`` (already in its language) as tokens: each word, and
    each ``{placeholder}`` standing alone as a word replaced by the tokens of its part.
    Lets the card tags sit where each language puts them."""
    tokens: list[Token] = []
    for word in template.split():
        if word.startswith("{") and word.endswith("}") and word[1:-1] in parts:
            tokens.extend(parts[word[1:-1]])
        else:
            tokens.append(word)
    return tokens


def last_action_sentence(
    last: LastView, lang: Lang, who: str, owners: Sequence[str] = ()
) -> list[Token]:
    """The last action as a sentence in ``lang``: its words, and each card as a card
    token ("Bob took run 3 from Alice with [8♣]"). ``who`` names the player who acted,
    ``owners`` those they took runs from. Shared by the table image and the embed."""
    who_part: list[Token] = [who]
    words = last.action.split()
    kind, rest = (words[0], words[1:]) if words else ("", [])
    cards = [_placed(word) for word in rest]
    if kind == "draw" and rest[:1] == ["stock"]:
        return sentence(tr(lang, "{who} drew from the stock"), who=who_part)
    if kind == "draw" and rest[:1] == ["discard"]:
        taken: list[Token] = [card for card in cards[1:] if card is not None]
        return sentence(
            tr(lang, "{who} took {cards} from the discard pile"),
            who=who_part,
            cards=taken or _words(tr(lang, "a card")),
        )
    if kind == "discard" and cards and cards[0] is not None:
        return sentence(tr(lang, "{who} discarded {card}"), who=who_part, card=[cards[0]])
    if kind == "meld" and cards and all(card is not None for card in cards):
        laid = [card for card in cards if card is not None]
        return sentence(tr(lang, "{who} laid down {cards}"), who=who_part, cards=laid)
    if kind == "add" and len(rest) >= 3 and cards[0] is not None:
        ids = rest[2].split("+")
        runs = _words(_runs_text(lang, ids, ""))
        card = [cards[0]]
        if owners:
            return sentence(
                tr(lang, "{who} took {runs} from {owners} with {card}"),
                who=who_part,
                runs=runs,
                owners=_words(join_words(list(owners), lang)),
                card=card,
            )
        if len(ids) == 1:
            return sentence(
                tr(lang, "{who} added {card} to {runs}"), who=who_part, card=card, runs=runs
            )
        return sentence(
            tr(lang, "{who} joined {runs} with {card}"), who=who_part, runs=runs, card=card
        )
    return [*who_part, *_words(last.action)]


def last_action_tokens(view: TakeView, name: _Names, room: float) -> list[Token]:
    """The last action in words, its names shortened to fit the image's ``room``."""
    last = view.last
    if last is None:
        return []
    who = cut_name(name(last.player), PROSE, room * 0.4)
    owners = [cut_name(name(p), PROSE, room * 0.3) for p in last.took_from]
    return last_action_sentence(last, name.lang, who, owners)


# --- the table -----------------------------------------------------------------------


def render_table(view: TakeView, names: Mapping[str, str], lang: Lang = "en") -> bytes:
    """The public table of ``view`` as PNG bytes, its words in ``lang``; ``names`` maps
    player ids to display names (missing ids print as themselves). The viewer's
    private fields are ignored."""
    name = _Names(view, names, lang)
    lanes = [_lane(view, name, seat, index) for index, seat in _seat_order(view)]
    header = _final_header_height(view, name) if view.over else _header_height(view, name)
    height = header + sum(lane.height for lane in lanes) + LANE_GAP * (len(lanes) - 1) + MARGIN
    image = new_panel(WIDTH, height)
    if view.over:
        _draw_final_header(image, view, name)
    else:
        _draw_stock(image, view, lang)
        _draw_discard(image, view, lang)
        _draw_turn(image, view, name, _turn_lines(view, name))
    top = header
    for lane in lanes:
        _draw_lane(image, lane, top, lang)
        top += lane.height + LANE_GAP
    return to_png(image)


# --- header --------------------------------------------------------------------------


def _draw_stock(image: Image.Image, view: TakeView, lang: Lang) -> None:
    stock = fit_text(tr(lang, "STOCK"), LABEL, DISCARD_X - STOCK_X - 8)
    stamp_text(image, (STOCK_X, LABEL_Y), stock, LABEL)
    stack, layers = card_stack(PILE_CARD, view.stock_size)
    if layers:
        place(image, stack, STOCK_X, CARDS_TOP)
    else:
        _draw_empty_slot(image, STOCK_X, CARDS_TOP, PILE_CARD)
    x = STOCK_X + PILE_CARD.width + 20
    middle = CARDS_TOP + 30
    if view.stock_size:
        caption = plural(lang, view.stock_size, "card", "cards")
    else:
        caption = tr(lang, "empty")
    _draw_count(image, x, middle, str(view.stock_size), caption, DISCARD_X - 10 - x)
    if view.turned_over:
        turned = tr(lang, "TURNED OVER")
        pill(image, (STOCK_X - 6, CARDS_BOTTOM - 2), turned, TAG, PALETTE.muted, 6, overlay=True)


def _draw_discard(image: Image.Image, view: TakeView, lang: Lang) -> None:
    stamp_text(image, (DISCARD_X, LABEL_Y), tr(lang, "DISCARD"), LABEL)
    under = min(3, max(0, view.discard_size - 1))
    for k in range(under):
        place(
            image, plain_card(PILE_CARD), DISCARD_X + 2 * (under - k), CARDS_TOP + 2 * (under - k)
        )
    if view.discard_top is None:
        _draw_empty_slot(image, DISCARD_X, CARDS_TOP, PILE_CARD)
    else:
        place(image, card_sprite(view.discard_top, PILE_CARD), DISCARD_X, CARDS_TOP)
    x = DISCARD_X + PILE_CARD.width + 18
    caption = tr(lang, "in pile")
    _draw_count(image, x, CARDS_TOP + 30, str(view.discard_size), caption, INFO_X - 10 - x)


Line = tuple[list[Token], TextStyle]


def _turn_lines(view: TakeView, name: _Names) -> list[Line]:
    """The lines under the player to act: the card they took, the last action and the
    last hand's result, each on as many lines as it needs."""
    room = RIGHT - INFO_X
    lang = name.lang
    lines: list[Line] = []
    drew = view.last is not None and view.last.action.split()[:2] == ["draw", "discard"]
    if view.taken is not None and not drew:
        taken = sentence(tr(lang, "took {card} from the discard pile"), card=[(view.taken, None)])
        lines += [(line, DETAIL) for line in layout_prose(taken, DETAIL, room, INFO_LINES)]
    last = last_action_tokens(view, name, room)
    lines += [(line, PROSE) for line in layout_prose(last, PROSE, room, INFO_LINES - len(lines))]
    if view.results and len(lines) < INFO_LINES:
        result = _result_tokens(view.results[-1], name, room)
        lines += [
            (line, DETAIL) for line in layout_prose(result, DETAIL, room, INFO_LINES - len(lines))
        ]
    return lines


def _header_height(view: TakeView, name: _Names) -> int:
    """`HEADER_HEIGHT`, or taller when the turn column has more lines than fit beside
    the piles."""
    below = TURN_Y + INFO_LINE * len(_turn_lines(view, name)) + 2 + INFO_LINE // 2 + 12
    return max(HEADER_HEIGHT, below)


def _draw_turn(image: Image.Image, view: TakeView, name: _Names, lines: Sequence[Line]) -> None:
    x, room = INFO_X, RIGHT - INFO_X
    lang = name.lang
    heading = tr(lang, "DEAL {hand} · FIRST TO {target} POINTS", hand=view.hand, target=view.target)
    stamp_text(image, (x, LABEL_Y), fit_text(heading, LABEL, room), LABEL)
    middle = TURN_Y
    if view.to_act is not None:
        image.alpha_composite(triangle(16, PALETTE.accent), dest=(x, round(middle - 8)))
        task = tr(lang, "to draw") if view.phase == "draw" else tr(lang, "to play")
        style = COUNT.but(fill=PALETTE.accent)
        task_style = COUNT.but(fill=PALETTE.text)
        task_width = text_width(" " + task, task_style)
        who = cut_name(name(view.to_act), style, room - 22 - task_width)
        stamp_text(image, (x + 22, middle), who, style, "lm")
        stamp_text(image, (x + 22 + text_width(who + " ", style), middle), task, task_style, "lm")
    for k, (line, line_style) in enumerate(lines):
        _stamp_prose(image, x, middle + INFO_LINE * (k + 1) + 2, line, line_style)


def _result_tokens(result: HandResultView, name: _Names, room: float) -> list[Token]:
    """The last hand: "Hand 6: Bob went out · Alice -55, Bob +60"."""
    lang = name.lang
    who = cut_name(name(result.went_out), DETAIL, room * 0.4) if result.went_out else ""
    out = tr(lang, "{name} went out", name=who) if who else tr(lang, "the stock ran out")
    scores = [
        f"{cut_name(name(player), DETAIL, room * 0.3)} {signed(score)}"
        for player, score in result.scores.items()
    ]
    joined = [f"{text}," for text in scores[:-1]] + scores[-1:]
    return [tr(lang, "Deal {hand}:", hand=result.hand), out, "·", *joined]


# --- header: match over ----------------------------------------------------------------


def _sheet_rows(view: TakeView) -> int:
    return min(len(view.results), SHEET_ROWS)


@dataclass(frozen=True)
class _FinalWords:
    """The final header's words, laid out: the winners' heading (on one or two lines,
    shrunk before a name is cut) and the detail under it (on one or two lines)."""

    title: list[str]
    title_style: TextStyle
    detail: list[str]

    @property
    def sheet_top(self) -> int:
        title_lines = max(1, len(self.title))
        detail_lines = max(1, len(self.detail))
        return TITLE_Y + TITLE_LINE * (title_lines - 1) + 34 + DETAIL_LINE * (detail_lines - 1) + 28


def _final_words(view: TakeView, name: _Names) -> _FinalWords:
    lang = name.lang
    if not view.seats:
        return _FinalWords([], TITLE, [])
    best = max(_final_score(view, seat) for seat in view.seats)
    winners = [name(s.player) for s in view.seats if _final_score(view, s) == best]

    def heading(shown: Sequence[str]) -> str:
        names = join_words(list(shown), lang)
        return plural(lang, len(shown), "{names} wins", "{names} win", names=names)

    room = RIGHT - INSET
    title, style = fit_names(heading, winners, TITLE, room, 2, TITLE_MIN_SIZE)
    detail = tr(
        lang,
        "{points} after {deals}, playing to {target} · a deal scores laid − held",
        points=plural(lang, best, "{n} point", "{n} points"),
        deals=plural(lang, len(view.results), "{n} deal", "{n} deals"),
        target=view.target,
    )
    return _FinalWords(title, style, wrap_text(detail, DETAIL, room, max_lines=2))


def _final_header_height(view: TakeView, name: _Names) -> int:
    top = _final_words(view, name).sheet_top
    if not view.results:
        return top
    return top + SHEET_ROW * (_sheet_rows(view) + 1) + 14


def _final_score(view: TakeView, seat: SeatView) -> int:
    return (view.scores or {}).get(seat.player, seat.total)


def _draw_final_header(image: Image.Image, view: TakeView, name: _Names) -> None:
    lang = name.lang
    stamp_text(image, (INSET, LABEL_Y), tr(lang, "MATCH OVER"), LABEL)
    words = _final_words(view, name)
    for k, line in enumerate(words.title):
        stamp_text(image, (INSET, TITLE_Y + TITLE_LINE * k), line, words.title_style, "lm")
    detail_y = TITLE_Y + TITLE_LINE * (len(words.title) - 1) + 34
    for k, line in enumerate(words.detail):
        stamp_text(image, (INSET, detail_y + DETAIL_LINE * k), line, DETAIL, "lm")
    if view.results:
        _draw_sheet(image, view, name, words.sheet_top)


@dataclass(frozen=True)
class _Columns:
    """The score sheet's columns: the hand labels', then one per seat."""

    hand_width: float
    seat_width: float

    def x(self, seat: int) -> float:
        return INSET + self.hand_width + seat * self.seat_width


def sheet_columns(view: TakeView, lang: Lang) -> _Columns:
    """The hand labels' column as wide as its longest label ("Durchgänge 1-12") needs,
    at least `SHEET_HAND_WIDTH`; the seats share the rest."""
    last = view.results[-1].hand if view.results else 1
    labels = [
        tr(lang, "Deal {hand}", hand=last),
        tr(lang, "Deals {first}-{last}", first=1, last=last),
    ]
    widest = max(text_width(label, DETAIL) for label in labels)
    widest = max(widest, text_width(tr(lang, "DEAL"), CAPTION))
    hand_width = max(SHEET_HAND_WIDTH, widest + 10)
    return _Columns(hand_width, (RIGHT - INSET - hand_width) / max(1, len(view.seats)))


def _draw_sheet(image: Image.Image, view: TakeView, name: _Names, top: int) -> None:
    """One row per hand (the latest ones), one column per seat: the hand's score, its
    laid and held points, and who went out."""
    seats = view.seats
    lang = name.lang
    columns = sheet_columns(view, lang)
    draw_rounded(
        image,
        (INSET - 8, top - 4, RIGHT + 8, top + SHEET_ROW * (_sheet_rows(view) + 1) + 4),
        10,
        PALETTE.lane,
    )
    middle = top + SHEET_ROW / 2
    stamp_text(image, (INSET, middle), tr(lang, "DEAL"), CAPTION, "lm")
    for k, seat in enumerate(seats):
        style = CAPTION.but(fill=PALETTE.text)
        text = cut_name(name(seat.player), style, columns.seat_width - 12)
        stamp_text(image, (columns.x(k), middle), text, style, "lm")
    results = view.results
    shown = results[-SHEET_ROWS:]
    if len(shown) < len(results):
        shown = results[-(SHEET_ROWS - 1) :]
        earlier = results[: len(results) - len(shown)]
        _draw_earlier(image, view, earlier, top + SHEET_ROW, columns, lang)
        top += SHEET_ROW
    for result in shown:
        top += SHEET_ROW
        _draw_sheet_row(image, view, result, top + SHEET_ROW / 2, columns, lang)


def _draw_earlier(
    image: Image.Image,
    view: TakeView,
    earlier: Sequence[HandResultView],
    top: float,
    columns: _Columns,
    lang: Lang,
) -> None:
    middle = top + SHEET_ROW / 2
    if len(earlier) > 1:
        label = tr(lang, "Deals {first}-{last}", first=1, last=earlier[-1].hand)
    else:
        label = tr(lang, "Deal {hand}", hand=1)
    label = fit_text(label, DETAIL, columns.hand_width - 1)
    stamp_text(image, (INSET, middle), label, DETAIL, "lm")
    for k, seat in enumerate(view.seats):
        x = columns.x(k)
        total = sum(result.scores.get(seat.player, 0) for result in earlier)
        stamp_text(image, (x, middle), signed(total), DETAIL.but(fill=PALETTE.text), "lm")


def _draw_sheet_row(
    image: Image.Image,
    view: TakeView,
    result: HandResultView,
    middle: float,
    columns: _Columns,
    lang: Lang,
) -> None:
    label = tr(lang, "Deal {hand}", hand=result.hand)
    label = fit_text(label, DETAIL, columns.hand_width - 1)
    stamp_text(image, (INSET, middle), label, DETAIL, "lm")
    for k, seat in enumerate(view.seats):
        player = seat.player
        x = columns.x(k)
        points = result.scores.get(player, 0)
        score = signed(points)
        style = DETAIL.but(fill=PALETTE.text)
        stamp_text(image, (x, middle), score, style, "lm")
        x += max(38, text_width(score, style) + 6)
        laid, held = result.laid.get(player, 0), result.held.get(player, 0)
        # Who went out held nothing: their score is what they laid, and OUT says so.
        if result.went_out != player or held or laid != points:
            parts = f"(+{laid} {MINUS}{held})"
            stamp_text(image, (x, middle), parts, SMALL, "lm")
            x += text_width(parts, SMALL) + 6
        if result.went_out == player:
            pill(image, (x, middle), tr(lang, "OUT"), TAG, PALETTE.accent, 5)


# --- seat lanes ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedRun:
    run: RunView | None
    """None: the cards a player was left holding at the end (``held``)."""
    x: int
    line: int
    width: int
    held: tuple[Card, ...] = ()


def run_parts(run: RunView | None, held: Sequence[Card] = ()) -> list[Image.Image | str]:
    """What a run's tray shows after its badge: its span as first card, a dash and the
    last card ("A♥ – 8♥"), then a joker's tag for each joker inside ("★5♥"), so the
    span never reads as a short set; the held cards all."""
    if run is None:
        return [_tag((card, None), RUN_STYLE) for card in held]
    tokens = list(zip(run.cards, run.stands_for, strict=True))
    inner = [token for token in tokens[1:-1] if token[0].is_joker]
    parts: list[Image.Image | str] = [_tag(tokens[0], RUN_STYLE)]
    if len(tokens) > 1:
        parts += ["–", _tag(tokens[-1], RUN_STYLE)]
    return parts + [_tag(token, RUN_STYLE) for token in inner]


def _part_width(part: Image.Image | str) -> float:
    return text_width(part, RUN_STYLE) if isinstance(part, str) else part.width


def _trailer(run: RunView | None) -> str:
    """The points after a run (a locked run shows a padlock instead)."""
    return "" if run is None or run.locked else str(run.points)


def run_width(run: RunView | None, held: Sequence[Card] = ()) -> int:
    parts = run_parts(run, held)
    width: float = 2 * TRAY_PAD + 2 * BADGE_RADIUS + PART_GAP
    width += sum(_part_width(part) + PART_GAP for part in parts)
    trailer = _trailer(run)
    width += text_width(trailer, RUN_POINTS) + PART_GAP if trailer else 0
    width += 16 + PART_GAP if run is not None and run.locked else 0
    return round(width)


def layout_runs(
    runs: Sequence[RunView],
    held: Sequence[Card] = (),
    left: int = RUNS_LEFT,
    right: int = RUNS_RIGHT,
) -> list[PlacedRun]:
    """Trays left to right, wrapping onto a new line when one doesn't fit; the held
    cards (if any) come last."""
    items: list[RunView | None] = list(runs)
    if held:
        items.append(None)
    placed = []
    x, line = left, 0
    for run in items:
        width = run_width(run, held)
        if x > left and x + width > right:
            x, line = left, line + 1
        placed.append(PlacedRun(run, x, line, width, () if run is not None else tuple(held)))
        x += width + RUN_GAP
    return placed


@dataclass(frozen=True)
class Lane:
    seat: SeatView
    name: str
    runs: list[PlacedRun]
    active: bool
    total: int
    lines: int
    place: int | None = None
    went_out: bool = False
    held: int = 0
    highlight: frozenset[int] = field(default_factory=frozenset)
    """Ids of runs the last action added to."""

    @property
    def height(self) -> int:
        return INFO_HEIGHT + (self.lines * RUN_LINE + 6 if self.lines else 0)


def _seat_order(view: TakeView) -> list[tuple[int, SeatView]]:
    """Seats in table order; once over, best total first (ties in table order)."""
    seats = list(enumerate(view.seats))
    if not view.over:
        return seats
    return sorted(seats, key=lambda item: -_final_score(view, item[1]))


def _highlighted_runs(view: TakeView) -> frozenset[int]:
    if view.last is None or view.over:
        return frozenset()
    words = view.last.action.split()
    if len(words) >= 4 and words[0] == "add":
        ids = [int(word) for word in words[3].split("+") if word.isdigit()]
        return frozenset(ids[:1])
    return frozenset()


def _lane(view: TakeView, name: _Names, seat: SeatView, index: int) -> Lane:
    runs = [run for run in view.runs if run.owner == seat.player]
    held: list[Card] = []
    place_ = None
    went_out = False
    held_points = 0
    total = seat.total
    if view.over:
        total = _final_score(view, seat)
        place_ = 1 + sum(1 for other in view.seats if _final_score(view, other) > total)
        if view.results:
            last = view.results[-1]
            held = hand_order(last.held_cards.get(seat.player, []))
            went_out = last.went_out == seat.player
            held_points = last.held.get(seat.player, 0)
    placed = layout_runs(runs, held)
    return Lane(
        seat=seat,
        name=display_name(seat.player, name.names, index, name.lang),
        runs=placed,
        active=seat.player == view.to_act,
        total=total,
        lines=1 + max((p.line for p in placed), default=-1),
        place=place_,
        went_out=went_out,
        held=held_points,
        highlight=_highlighted_runs(view),
    )


def _draw_lane(image: Image.Image, lane: Lane, top: int, lang: Lang) -> None:
    highlighted = lane.active or lane.place == 1
    fill = PALETTE.lane_active if highlighted else PALETTE.lane
    outline = PALETTE.accent if highlighted else None
    draw_rounded(image, (MARGIN, top, WIDTH - MARGIN, top + lane.height), 12, fill, outline, 2)
    middle = top + INFO_HEIGHT / 2 + 1
    points = _lane_points(lane, lang)
    _draw_lane_name(image, lane, middle, lang)
    _draw_lane_hand(image, lane, middle, lang, points.left)
    _draw_lane_points(image, middle, points)
    for placed in lane.runs:
        _draw_run(image, lane, placed, top + INFO_HEIGHT + placed.line * RUN_LINE, lang)


def _draw_lane_name(image: Image.Image, lane: Lane, middle: float, lang: Lang) -> None:
    x = NAME_X
    if lane.place is not None:
        colour = place_colour(lane.place)
        badge(image, (x + 12, middle), 12, str(lane.place), colour, PALETTE.accent_ink)
        x += 32
    elif lane.active:
        image.alpha_composite(triangle(14, PALETTE.accent), dest=(x - 2, round(middle - 7)))
        x += 16
    dealer = tr(lang, "DEALER") if lane.seat.dealer and lane.place is None else ""
    dealer_width = text_width(dealer, TAG) + 12 + 8 if dealer else 0
    style = NAME.but(fill=PALETTE.accent) if lane.active else NAME
    text = cut_name(lane.name, style, NAME_RIGHT - x - dealer_width)
    stamp_text(image, (x, middle), text, style, "lm")
    if dealer:
        pill(image, (x + text_width(text, style) + 8, middle), dealer, TAG, PALETTE.silver, 6)


def _draw_lane_hand(
    image: Image.Image, lane: Lane, middle: float, lang: Lang, right: float
) -> None:
    """The hand column, from `HAND_X` to ``right`` (where the points begin)."""
    seat = lane.seat
    tag = TAG
    if lane.place is not None:
        if lane.went_out:
            pill(image, (HAND_X, middle), tr(lang, "WENT OUT"), tag, PALETTE.accent, 8)
        else:
            held = tr(lang, "held {n}", n=lane.held) if seat.hand_size else tr(lang, "held nothing")
            stamp_text(image, (HAND_X, middle), held, DETAIL, "lm")
        return
    if seat.floater:
        pill(image, (HAND_X, middle), tr(lang, "FLOATER"), tag, PALETTE.accent, 8)
        return
    backs = fanned_backs(TINY_CARD, seat.hand_size, TINY_STEP)
    place(image, backs, HAND_X, middle - TINY_CARD.height / 2 - 1)
    x = HAND_X + backs.image.width - backs.dx + 4
    count = plural(lang, seat.hand_size, "{n} card", "{n} cards")
    stamp_text(image, (x, middle), fit_text(count, DETAIL, right - 8 - x), DETAIL, "lm")


@dataclass(frozen=True)
class _LanePoints:
    """A lane's points, right to left: the total (its number, its caption to the left),
    then the points laid ("laid 35", or "no runs"), at `LAID_X` or further left when
    the words are long."""

    total: str
    total_style: TextStyle
    total_caption: str
    laid_caption: str
    """Empty: no runs laid, ``laid`` says so in words."""
    laid: str
    left: float
    """Where the laid points begin."""


def _lane_points(lane: Lane, lang: Lang) -> _LanePoints:
    winner = lane.place == 1
    style = COUNT.but(size=24, fill=PALETTE.accent if winner else PALETTE.text)
    total = number_text(lane.total)
    caption = tr(lang, "score") if lane.place is not None else tr(lang, "total")
    total_left = TOTAL_RIGHT - text_width(total, style) - 8 - text_width(caption, CAPTION)
    if lane.runs or lane.place is not None:
        laid_caption, laid = tr(lang, "laid"), number_text(lane.seat.laid_points)
        width = max(30, text_width(laid_caption, CAPTION) + 6) + text_width(laid, COUNT)
    else:
        laid_caption, laid = "", tr(lang, "no runs")
        width = text_width(laid, DETAIL)
    left = min(LAID_X, total_left - 16 - width)
    return _LanePoints(total, style, caption, laid_caption, laid, left)


def _draw_lane_points(image: Image.Image, middle: float, points: _LanePoints) -> None:
    x = points.left
    if points.laid_caption:
        stamp_text(image, (x, middle + 1), points.laid_caption, CAPTION, "lm")
        number_x = x + max(30, text_width(points.laid_caption, CAPTION) + 6)
        stamp_text(image, (number_x, middle), points.laid, COUNT, "lm")
    else:
        stamp_text(image, (x, middle), points.laid, DETAIL, "lm")
    stamp_text(image, (TOTAL_RIGHT, middle), points.total, points.total_style, "rm")
    right = TOTAL_RIGHT - text_width(points.total, points.total_style) - 8
    stamp_text(image, (right, middle + 1), points.total_caption, CAPTION, "rm")


def _draw_run(image: Image.Image, lane: Lane, placed: PlacedRun, top: int, lang: Lang) -> None:
    run = placed.run
    locked = run is not None and run.locked
    outline = PALETTE.accent if locked else None
    box = (placed.x, top, placed.x + placed.width, top + TRAY_HEIGHT)
    draw_rounded(image, box, 8, PALETTE.panel, outline, 2)
    middle = top + TRAY_HEIGHT / 2
    badge_x = placed.x + TRAY_PAD + BADGE_RADIUS
    if run is None:
        label = tr(lang, "held")
        stamp_text(image, (placed.x + TRAY_PAD, middle), label, RUN_POINTS, "lm")
        x = placed.x + TRAY_PAD + text_width(label, RUN_POINTS) + PART_GAP
    else:
        fill = PALETTE.accent if run.id in lane.highlight else PALETTE.text
        badge(image, (badge_x, middle), BADGE_RADIUS, str(run.id), fill, PALETTE.ink)
        x = badge_x + BADGE_RADIUS + PART_GAP
    for part in run_parts(run, placed.held):
        if isinstance(part, str):
            stamp_text(image, (x, middle), part, RUN_STYLE, "lm")
        else:
            image.alpha_composite(part, dest=(round(x), round(middle - part.height / 2)))
        x += _part_width(part) + PART_GAP
    if run is not None and run.locked:
        lock = padlock(16, PALETTE.accent)
        image.alpha_composite(lock, dest=(round(x), round(middle - lock.height / 2)))
    elif trailer := _trailer(run):
        stamp_text(image, (x, middle), trailer, RUN_POINTS, "lm")


# --- the hand ------------------------------------------------------------------------


def render_panel(view: TakeView, names: Mapping[str, str], lang: Lang, picks: Picks) -> bytes:
    """The private panel's image (the adapter's ``render_private``): the viewer's hand.
    The cards picked show on the panel's select, not in the picture."""
    return render_hand(view, names, lang=lang)


def render_hand(view: TakeView, names: Mapping[str, str], *, lang: Lang = "en") -> bytes:
    """The viewer's own hand (``view.my_hand``, from ``ENGINE.view(state, player)``)
    as PNG bytes, its words in ``lang``: their cards face up by suit and rank, the
    card taken from the discard pile this turn marked, the runs each card could be
    added to, and the discard pile's top and stock size beside them. A view without a
    hand (a spectator's) gives a panel saying so."""
    name = _Names(view, names, lang)
    image = new_panel(WIDTH, HAND_HEIGHT)
    cards = hand_order(view.my_hand or [])
    points = sum(card_points(card) for card in cards)
    label = tr(lang, "YOUR HAND") if not view.over else tr(lang, "LEFT IN YOUR HAND")
    if cards:
        count = plural(lang, len(cards), "{n} CARD", "{n} CARDS")
        label += f" · {count} · {plural(lang, points, '{n} POINT', '{n} POINTS')}"
    stamp_text(image, (INSET, LABEL_Y), fit_text(label, LABEL, SIDE_X - 20 - INSET), LABEL)
    _draw_status(image, view, name)
    if cards:
        _draw_hand_cards(image, view, cards, lang)
    else:
        _draw_no_hand(image, view, lang)
    _draw_hand_side(image, view, lang)
    return to_png(image)


def _draw_status(image: Image.Image, view: TakeView, name: _Names) -> None:
    """Whose turn it is, on a line of its own under the hand."""
    lang = name.lang
    if view.over:
        text, style = tr(lang, "match over"), DETAIL
    elif view.to_act is None:
        return
    elif view.viewer is not None and view.to_act == view.viewer:
        if view.phase == "draw":
            text = tr(lang, "Your turn: draw")
        else:
            text = tr(lang, "Your turn: lay down, add, then discard")
        style = DETAIL.but(fill=PALETTE.accent)
    else:
        who = name(view.to_act)
        if view.phase == "draw":
            text = tr(lang, "{name} to draw", name=who)
        else:
            text = tr(lang, "{name} to play", name=who)
        style = DETAIL
    room = SIDE_X - 20 - INSET
    stamp_text(image, (INSET, STATUS_Y), fit_text(text, style, room), style, "lm")


def hand_layout(cards: Sequence[Card], left: int = INSET, right: int = HAND_RIGHT) -> list[int]:
    """Each card's left edge: side by side with a gap between suits, overlapping
    evenly when that doesn't fit."""
    breaks = [k for k in range(1, len(cards)) if _suit_key(cards[k]) != _suit_key(cards[k - 1])]
    count = len(cards)
    if not count:
        return []
    gaps = SUIT_GAP * len(breaks)
    step = HAND_CARD.width + HAND_GAP
    if count > 1:
        step = min(step, int((right - left - HAND_CARD.width - gaps) / (count - 1)))
    xs, x = [], left
    for k in range(count):
        if k in breaks:
            x += SUIT_GAP
        xs.append(x)
        x += step
    return xs


def _suit_key(card: Card) -> str:
    return "" if card.is_joker else card.suit


def _draw_hand_cards(image: Image.Image, view: TakeView, cards: Sequence[Card], lang: Lang) -> None:
    xs = hand_layout(cards)
    step = min((b - a for a, b in itertools.pairwise(xs)), default=HAND_CARD.width)
    runs = [] if view.over else view.runs
    taken_at = next((k for k, card in enumerate(cards) if card == view.taken), None)
    for k, (card, x) in enumerate(zip(cards, xs, strict=True)):
        if k == taken_at:
            box = (x - 3, HAND_TOP - 3, x + HAND_CARD.width + 3, HAND_TOP + HAND_CARD.height + 3)
            draw_rounded(image, box, HAND_CARD.radius + 3, PALETTE.accent)
        place(image, card_sprite(card, HAND_CARD), x, HAND_TOP)
        centre = x + min(step, HAND_CARD.width) / 2
        if k == taken_at:
            taken = tr(lang, "TAKEN")
            width = text_width(taken, TAG) + 10
            pill(image, (centre - width / 2, HINT_Y), taken, TAG, PALETTE.accent, 5)
            continue
        ids = [str(run.id) for run in runs if fits(card, run)]
        if ids:
            if card.is_joker and len(ids) > 2:
                hint = tr(lang, "any run")
            else:
                hint = _runs_text(lang, ids, ", ")
            style = SMALL.but(fill=PALETTE.text)
            stamp_text(image, (centre, HINT_Y), fit_text(hint, style, step - 4), style, "mm")


def _draw_no_hand(image: Image.Image, view: TakeView, lang: Lang) -> None:
    middle = HAND_TOP + HAND_CARD.height / 2
    _draw_empty_slot(image, INSET, HAND_TOP, HAND_CARD)
    x = INSET + HAND_CARD.width + 20
    if view.my_hand is None:
        title = tr(lang, "No hand to show")
        detail = tr(lang, "This view is not a player's own.")
    elif view.over:
        title = tr(lang, "Nothing left in hand")
        detail = tr(lang, "You held no cards at the end.")
    else:
        title = tr(lang, "No cards: you are a floater")
        detail = tr(lang, "Next turn you draw from the stock.")
    style = NAME.but(size=20)
    room = HAND_RIGHT - x
    stamp_text(image, (x, middle - 12), fit_text(title, style, room), style, "lm")
    stamp_text(image, (x, middle + 14), fit_text(detail, DETAIL, room), DETAIL, "lm")


def _draw_hand_side(image: Image.Image, view: TakeView, lang: Lang) -> None:
    x = SIDE_X
    stamp_text(image, (x, LABEL_Y), tr(lang, "DISCARD"), LABEL)
    if view.discard_top is None:
        _draw_empty_slot(image, x, HAND_TOP, HAND_CARD)
    else:
        place(image, card_sprite(view.discard_top, HAND_CARD), x, HAND_TOP)
    number_x = x + HAND_CARD.width + 12
    room = WIDTH - MARGIN - 8 - number_x
    _draw_count(image, number_x, HAND_TOP + 26, str(view.discard_size), tr(lang, "pile"), room)
    right = WIDTH - MARGIN - 8
    stock = tr(lang, "stock {n}", n=view.stock_size)
    stock_x = max(INSET, min(x, right - round(text_width(stock, SMALL))))
    stock = fit_text(stock, SMALL, right - stock_x)
    stamp_text(image, (stock_x, HINT_Y), stock, SMALL.but(fill=PALETTE.text), "lm")


# --- sprites only this game draws ------------------------------------------------


@lru_cache(maxsize=32)
def padlock(size: int, fill: RGBA) -> Image.Image:
    """A closed padlock ``size`` pixels tall (a little narrower): a "locked" mark.
    The keyhole is cut out (transparent)."""
    s = SUPERSAMPLE
    width = round(size * 0.8)
    image, draw = supersampled(width, size)
    w, h = width * s, size * s
    body_top = h * 0.42
    stroke = max(s, round(w * 0.16))
    arc = (w * 0.2, h * 0.04, w * 0.8 - 1, body_top + h * 0.3)
    draw.arc(arc, 180, 360, fill=fill, width=stroke)
    legs = body_top - (arc[1] + arc[3]) / 2 + 1
    for x in (arc[0], arc[2] - stroke + 1):
        draw.rectangle(
            (x, (arc[1] + arc[3]) / 2 - 1, x + stroke - 1, (arc[1] + arc[3]) / 2 + legs), fill
        )
    draw.rounded_rectangle((0, body_top, w - 1, h - 1), radius=round(w * 0.14), fill=fill)
    hole = w * 0.11
    cx, cy = w / 2, body_top + (h - body_top) * 0.42
    clear = (0, 0, 0, 0)
    draw.ellipse((cx - hole, cy - hole, cx + hole, cy + hole), fill=clear)
    draw.polygon([(cx - hole * 0.6, cy), (cx + hole * 0.6, cy), (cx, cy + hole * 2.6)], fill=clear)
    return downsample(image)
