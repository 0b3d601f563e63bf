"""German texts for geschenkt: English template → German template (same placeholders)."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # --- rules, help, slash commands ---
    """\
**Goal:** the lowest score. Each card in front of you counts its number against you, \
but a run of consecutive cards counts only its lowest card. Each chip you hold counts \
one point in your favour.
**Your turn:** a card lies face up. **Take** it (with every chip on it), or press \
**No thanks** and put one of your chips on it; the next player decides. With no chips \
left you must take. Whoever takes turns the next card and decides again.
**Setup:** cards 3–35, 9 removed unseen (revealed at the end), 24 played. 11 chips \
each for 3–5 players, 9 for 6, 7 for 7. *Tactical:* 10 chips, 10/20/30 out first.
**Secret:** chip counts are private; **My hand** shows yours.
**End:** when the last card is taken. Example: 8, 9, 10 and 21 with 5 chips \
scores 8 + 21 − 5 = 24. Equal scores share the place.""": """\
**Ziel:** möglichst wenige Punkte. Jede Karte vor dir zählt ihren Wert gegen dich, \
eine Reihe aufeinanderfolgender Karten zählt aber nur ihre niedrigste Karte. Jeder Chip, \
den du hast, zählt einen Punkt zu deinen Gunsten.
**Dein Zug:** Eine Karte liegt offen. **Nehmen** (mit allen Chips darauf) oder \
**Nein danke** drücken und einen deiner Chips darauflegen; dann entscheidet der nächste \
Spieler. Hast du keine Chips mehr, musst du nehmen. Wer nimmt, deckt die nächste Karte \
auf und entscheidet erneut.
**Aufbau:** Karten 3–35, davon 9 ungesehen aussortiert (am Ende aufgedeckt), 24 im Spiel. \
Je 11 Chips bei 3–5 Spielern, 9 bei 6, 7 bei 7. *Taktisch:* 10 Chips, 10/20/30 \
vorab aussortiert.
**Geheim:** Wie viele Chips jemand hat, ist geheim; **Meine Hand** zeigt deine.
**Ende:** wenn die letzte Karte genommen ist. Beispiel: 8, 9, 10 und 21 mit 5 Chips \
ergibt 8 + 21 − 5 = 24 Punkte. Bei Gleichstand teilt man sich den Platz.""",
    "Take the card or pay a chip to refuse it; runs count only their lowest card.": (
        "Nimm die Karte oder zahl einen Chip, um sie abzulehnen; Reihen zählen nur "
        "ihre niedrigste Karte."
    ),
    "Open a Geschenkt table in this channel": "Öffne einen Geschenkt-Tisch in diesem Kanal",
    "Tactical variant: 10 chips each, 10/20/30 removed first": (
        "Taktische Variante: je 10 Chips, 10/20/30 vorab aussortiert"
    ),
    # --- table, panel, results ---
    "Take": "Nehmen",
    "No thanks": "Nein danke",
    (
        "**{card}** is face up with {pot} on it · {left}.\n"
        "It's **{name}**'s turn: Take, or No thanks."
    ): (
        "Offen liegt die **{card}** mit {pot} darauf · {left}.\n"
        "**{name}** ist am Zug: Nehmen oder Nein danke."
    ),
    "**{n}** chip": "**{n}** Chip",
    "**{n}** chips": "**{n}** Chips",
    "{n} card left": "noch {n} Karte",
    "{n} cards left": "noch {n} Karten",
    "**{name}**: {cards}": "**{name}**: {cards}",
    "no cards": "keine Karten",
    "Cards in front of each player": "Ausliegende Karten",
    "Chips: **{chips}**\nYour cards: {cards}\nScore right now: **{score}** (lower is better)": (
        "Chips: **{chips}**\nDeine Karten: {cards}\n"
        "Punktestand gerade: **{score}** (weniger ist besser)"
    ),
    "none yet": "noch keine",
    "**{place}.** {name}: {points} ({cards}: {card_points} − {chips})": (
        "**{place}.** {name}: {points} ({cards}: {card_points} − {chips})"
    ),
    "{n} card point": "{n} Kartenpunkt",
    "{n} card points": "{n} Kartenpunkte",
    # --- the line of recent events ---
    "said no thanks to {card} ({n} chip on it now)": (
        "sagte Nein danke zur {card} (jetzt {n} Chip darauf)"
    ),
    "said no thanks to {card} ({n} chips on it now)": (
        "sagte Nein danke zur {card} (jetzt {n} Chips darauf)"
    ),
    "took {card} (no chips)": "nahm die {card} (ohne Chips)",
    "took {card} (+{n} chip)": "nahm die {card} (+{n} Chip)",
    "took {card} (+{n} chips)": "nahm die {card} (+{n} Chips)",
    "**{n}** point": "**{n}** Punkt",
    "**{n}** points": "**{n}** Punkte",
    "{n} chip": "{n} Chip",
    "{n} chips": "{n} Chips",
    "Removed unseen": "Ungesehen aussortiert",
    "none": "keine",
    # --- engine errors ---
    "{move} is not a Geschenkt move; say take or refuse.": (
        "{move} ist kein Geschenkt-Zug; erlaubt sind take und refuse."
    ),
    "Cards {cards} are not in this variant's deck.": (
        "Die Karten {cards} gehören nicht zum Kartenspiel dieser Variante."
    ),
    "That is not a Geschenkt move.": "Das ist kein Geschenkt-Zug.",
    "You have no chips left, so you must take the card.": (
        "Du hast keine Chips mehr, also musst du die Karte nehmen."
    ),
    # --- the table image ---
    "POT": "POTT",
    "chip on the card": "Chip auf der Karte",
    "chips on the card": "Chips auf der Karte",
    "STACK": "STAPEL",
    "card to come": "Karte kommt noch",
    "cards to come": "Karten kommen noch",
    "TO ACT": "AM ZUG",
    "take the {card} or pay a chip": "{card} nehmen oder Chip zahlen",
    "no cards yet": "noch keine Karten",
    "− {n} chip": "− {n} Chip",
    "− {n} chips": "− {n} Chips",
    "with a score of {score} · the lowest score wins": (
        "mit Punktzahl {score} · die niedrigste gewinnt"
    ),
    "OUT OF PLAY": "AUSSORTIERT",
}

NAMES: dict[str, str] = {
    "tactical": "taktisch",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
