"""Notes for translators, by message: what a short or ambiguous text is, where it shows.

The extraction (`bot.i18n.extract`) adds a message's note to its comments in
``messages.pot``, as it does with a ``# Translators:`` comment above the call in the code;
a note here suits texts written in many places or whose call can't carry a comment.
`tests/test_i18n.py` checks that every note belongs to a message of the template.
"""

from __future__ import annotations

NOTES: dict[str, str] = {
    # Every game
    "Join": "Button of a table's lobby: take a seat.",
    "Start": "Button of a table's lobby: the host starts the game.",
    "{n} s": "Seconds of a turn clock, abbreviated.",
    "easy": "A computer player's level, as chosen in the lobby's menu.",
    "{title}: {panel}": "A private panel's title: the game's title, then the panel's name.",
    "Just now": "Heading of the last moves on a private panel.",
    "The turn ends <t:{at}:R>.": (
        "<t:{at}:R> is a Discord timestamp that Discord shows as a relative time "
        "in the reader's language (in 2 minutes)."
    ),
    " · rating **{rating}**": "Appended to a stats line; keep the leading space.",
    "**{place}.** {name}: {reason}": "A line of the results: place, player, how they placed.",
    "{option}: {value}": (
        "A lobby option: its name, then its value (Rules: Give and Take; Turn limit: 500)."
    ),
    "yes": "The value of a lobby option that is on (Tactical variant: yes).",
    "no": "The value of a lobby option that is off (Tactical variant: no).",
    "Deck": "A lobby option: the cards a table plays, stacked in advance (tests, puzzles).",
    "stacked, {n} card": "The Deck option's value: the cards come in a set order, unshuffled.",
    # Draughts
    "Give and Take": (
        "The name of a draughts ruleset (the default); may stay in English as a name."
    ),
    "{text!r} is not a draughts action; write a move like c3-c4 or c4xc6xc8, or resign, "
    "offer draw, accept draw.": (
        "resign, offer draw and accept draw are typed as written (in English) in "
        "/draughts move: keep them."
    ),
    "crowns": "Part of a move's description: the moving man becomes a king.",
    "by {name}": "Under the last move in the board image: who played it.",
    # Escalation
    "pass": ("Escalation: a 2 or 3 passes the value in force on unchanged; label under the card."),
    "reverse": "Escalation: a 3 also reverses the direction of play; label under the card.",
    "Lead": "Escalation: the player who starts a round (plays the first card).",
    "{text} is not an Escalation move; say take or play <cards>, e.g. play 9H 9S.": (
        "take and play are typed as written (in English); 9H is the nine of hearts."
    ),
    # Geschenkt
    "said no thanks to {card} ({n} chip on it now)": (
        "{n} counts the chips lying on the card {card} now, never the player's own chips "
        "(those are secret): say that they are on the card."
    ),
    "Take": "Geschenkt: the button to take the face-up card with its chips.",
    "POT": "Geschenkt image: the chips lying on the face-up card.",
    "STACK": "Geschenkt image: the face-down cards still to come.",
    "{move} is not a Geschenkt move; say take or refuse.": (
        "take and refuse are typed as written (in English)."
    ),
    # Give & Take
    "Go!": ("Give & Take: the director's button that makes everyone turn up their top cards."),
    "give": "Give & Take image: the label of a player's give pile (left).",
    "take": "Give & Take image: the label of a player's take pile (right).",
    "{pointer}**{name}**{marks}: give {give} · take {take}": (
        "{pointer} and {marks} are symbols (▶, ⚔); give and take are the two piles."
    ),
    " (the lowest)": "Appended to a duet's difference; keep the leading space.",
    "Automatic reveal": "Lobby option: turns are turned up without the director's Go.",
    "{text} is not a Give & Take move; say go, give or take.": (
        "go, give and take are typed as written (in English)."
    ),
    # TAKE
    "TAKE": "The game's name: keep it.",
    "FLOATER": "TAKE: a player who laid down every card and holds none; they play on.",
    "laid": "TAKE scores: points of the runs the player owns.",
    "held": "TAKE scores: points of the cards left in hand, counted against the player.",
    "pile": "TAKE image: under the discard pile, how many cards it holds.",
    "{text} is not a TAKE move; say draw stock, draw discard, meld <cards> (JK=7H for a "
    "joker), add <card> to <run> (two runs as 3+7) or discard <card>.": (
        "draw stock, draw discard, meld, add … to and discard are typed as written "
        "(in English); translate only the words in angle brackets."
    ),
}
