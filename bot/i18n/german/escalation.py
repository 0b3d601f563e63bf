"""German texts for escalation: English template → German template (same placeholders)."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # Rules, /help and the slash command
    "**Goal:** get rid of your cards; the others pay you for what they still hold.\n"
    "**Your turn:** play one card, or several of equal value, worth more in total than "
    "the value in force. Values: A 14, K 13, Q 12, J 11, 10–7 as printed; 4, 5 and 6 are "
    "all worth 6 and mix freely (4+6+5 is 18). A **2** or **3** is always allowed, alone: "
    "it passes the value on unchanged, and a 3 also reverses the direction. Can't or won't "
    "play? **Take the pile**: the round's cards go face down onto your penalty stack and "
    "you lead the next round with anything. Refill to 6 cards from the stock after playing.\n"
    "**Example:** J is in force (11). You may beat it with Q, or 7+7 (14), or pass it on "
    "with a 2; a 10 won't do.\n"
    "**End:** when the stock is out and someone plays their last card. Everyone pays the "
    "winner a chip per card in hand and in their penalty stack.\n"
    "**My hand** opens your private panel: pick cards in the menu, then Play.": (
        "**Ziel:** Werde deine Karten los; die anderen zahlen dir für alles, was sie noch "
        "haben.\n"
        "**Dein Zug:** Spiel eine Karte oder mehrere gleichwertige, die zusammen mehr wert "
        "sind als der geltende Wert. Werte: A (Ass) 14, K (König) 13, Q (Dame) 12, "
        "J (Bube) 11, 10–7 wie aufgedruckt; 4, 5 und 6 sind alle 6 wert und dürfen gemischt "
        "werden (4+6+5 ergibt 18). Eine **2** oder **3** geht immer, aber nur allein: Sie "
        "gibt den Wert unverändert weiter, eine 3 kehrt außerdem die Richtung um. Du kannst "
        "oder willst nicht spielen? **Ablage nehmen**: Die Karten der Runde kommen verdeckt "
        "auf deinen Strafstapel, und du eröffnest die nächste Runde mit einer beliebigen "
        "Karte. Nach dem Spielen ziehst du vom Nachziehstapel auf 6 Karten nach.\n"
        "**Beispiel:** J liegt (11). Du kannst mit Q schlagen oder mit 7+7 (14), oder mit "
        "einer 2 weitergeben; eine 10 reicht nicht.\n"
        "**Ende:** wenn der Nachziehstapel leer ist und jemand seine letzte Karte spielt. "
        "Alle zahlen dem Gewinner einen Chip pro Karte auf der Hand und im Strafstapel.\n"
        "**Meine Hand** öffnet dein privates Fenster: Wähl im Menü Karten aus, dann Spielen."
    ),
    "Beat the value in force with higher sets, or take the pile; 2s and 3s pass it on.": (
        "Überbiete den geltenden Wert mit gleichwertigen Karten oder nimm die Ablage; "
        "2 und 3 geben ihn weiter."
    ),
    "Open an Escalation table in this channel": "Einen Eskalations-Tisch in diesem Kanal öffnen",
    "How many deals to play, with running totals (1–10)": (
        "Wie viele Durchgänge gespielt werden, mit laufendem Punktestand (1–10)"
    ),
    # The table embed
    "**{name}** leads the next round.": "**{name}** eröffnet die nächste Runde.",
    "**{name}** must beat **{value}**, play a 2 or 3, or take the pile.": (
        "**{name}** muss **{value}** schlagen, eine 2 oder 3 spielen oder die Ablage nehmen."
    ),
    "Direction: {direction} · stock: {stock} · deal {deal} of {deals}.": (
        "Richtung: {direction} · Nachziehstapel: {stock} · Durchgang {deal} von {deals}."
    ),
    "clockwise": "im Uhrzeigersinn",
    "counterclockwise": "gegen den Uhrzeigersinn",
    "Press **{button}** to see your cards and play.": (
        "Drück **{button}**, um deine Karten zu sehen und zu spielen."
    ),
    "**{name}**: {hand} in hand · {taken} taken · {chips} chips": (
        "**{name}**: {hand} auf der Hand · {taken} im Strafstapel · {chips} Chips"
    ),
    "This round": "Diese Runde",
    "Last take": "Zuletzt genommen",
    "{name} took {n} card": "{name} hat {n} Karte genommen",
    "{name} took {n} cards": "{name} hat {n} Karten genommen",
    # Results
    "**{place}.** {name}: **{chips}** chips": "**{place}.** {name}: **{chips}** Chips",
    "Deals": "Durchgänge",
    "Deal {deal}: {name} won; {payments}": "Durchgang {deal}: {name} gewinnt; {payments}",
    # Recent moves and the summary of a deal
    "took the pile ({n} card)": "nahm den Stapel ({n} Karte)",
    "took the pile ({n} cards)": "nahm den Stapel ({n} Karten)",
    "played {cards} and went out": "spielte {cards} und hat keine Karten mehr",
    "played {cards}, passing the value on": "spielte {cards} und gibt den Wert weiter",
    "played {cards} ({value})": "spielte {cards} ({value})",
    "**{name}** went out and wins deal {deal} of {deals}.": (
        "**{name}** hat keine Karten mehr und gewinnt Durchgang {deal} von {deals}."
    ),
    "**{name}**: {chips} this deal · {total} in all": (
        "**{name}**: {chips} in diesem Durchgang · {total} insgesamt"
    ),
    "Chips": "Chips",
    # The private panel
    "Your hand is empty.": "Deine Hand ist leer.",
    "It's not your turn; you can pick cards ready for it.": (
        "Du bist nicht am Zug; du kannst schon Karten dafür auswählen."
    ),
    "You lead: play any card or set of equal value.": (
        "Du eröffnest: Spiel eine beliebige Karte oder mehrere gleichwertige."
    ),
    "Beat **{value}**, play a 2 or 3, or take the pile.": (
        "Schlag **{value}**, spiel eine 2 oder 3 oder nimm die Ablage."
    ),
    "{cards} passes the value on.": "{cards} gibt den Wert weiter.",
    "{cards} passes the value on and reverses direction.": (
        "{cards} gibt den Wert weiter und kehrt die Richtung um."
    ),
    "Leads at {value}.": "Eröffnet mit {value}.",
    "{value} beats {in_force}.": "{value} schlägt {in_force}.",
    "{value} doesn't beat {in_force}.": "{value} schlägt {in_force} nicht.",
    "Pick the cards to play": "Wähl die Karten aus, die du spielen willst",
    "Play {cards}": "{cards} spielen",
    "Play": "Spielen",
    "Take the pile": "Ablage nehmen",
    # Engine errors
    "Jokers are not used in Escalation.": "Joker gibt es bei Eskalation nicht.",
    "{card} is a pass-through card and has no value of its own.": (
        "{card} gibt nur weiter und hat keinen eigenen Wert."
    ),
    "Play at least one card.": "Spiel mindestens eine Karte.",
    "A card can be played only once.": "Jede Karte kann nur einmal gespielt werden.",
    "2s and 3s are played alone, so {card} can't be in a set.": (
        "2 und 3 werden nur allein gespielt, {card} kann also nicht mit anderen Karten "
        "zusammen gespielt werden."
    ),
    "A set must be cards of equal value: {cards}.": (
        "Mehrere Karten müssen gleich viel wert sein: {cards}."
    ),
    "{text} is not an Escalation move; say take or play <cards>, e.g. play 9H 9S.": (
        "{text} ist kein Zug bei Eskalation; schreib take oder play <Karten>, z. B. play 9H 9S."
    ),
    "A stacked deck needs {per_player} cards per player: {needed} for {players}, not {given}.": (
        "Ein vorgegebenes Kartenspiel braucht {per_player} Karten pro Spieler: {needed} "
        "für {players}, nicht {given}."
    ),
    "That is not an Escalation move.": "Das ist kein Zug bei Eskalation.",
    "Take without cards; you lead after taking.": (
        "Nimm die Ablage ohne Karten; danach eröffnest du."
    ),
    "There is nothing to take: lead a card or a set.": (
        "Es gibt nichts zu nehmen: Eröffne mit einer Karte oder mehreren gleichwertigen."
    ),
    "Lead an ordinary card or set: a 2 or 3 may lead only when you hold nothing else.": (
        "Eröffne mit einer normalen Karte oder mehreren gleichwertigen: Mit einer 2 oder 3 "
        "darfst du nur eröffnen, wenn du nichts anderes hast."
    ),
    "{cards} ({value}) does not beat {in_force}.": "{cards} ({value}) schlägt {in_force} nicht.",
    # The table image
    "to lead": "eröffnet",
    "to beat {value}": "muss {value} schlagen",
    "won {n} deal": "{n} Sieg",
    "won {n} deals": "{n} Siege",
    "went out": "gewinnt",
    "paid {n}": "{n} gezahlt",
    "took {n} card last": "nahm zuletzt {n} Karte",
    "took {n} cards last": "nahm zuletzt {n} Karten",
    "in hand": "Hand",
    "penalty": "Strafstapel",
    "THIS ROUND": "DIESE RUNDE",
    "THIS ROUND · {n} PLAY": "DIESE RUNDE · {n} ZUG",
    "THIS ROUND · {n} PLAYS": "DIESE RUNDE · {n} ZÜGE",
    "earlier": "davor",
    "reverse": "Umkehr",
    # The private hand image
    "game over": "Spiel vorbei",
    "{name} to act": "{name} ist am Zug",
    "you lead": "du eröffnest",
    "to beat": "zu schlagen",
    "pass": "weiter",
    "REVERSE": "UMKEHR",
    "PASS": "WEITER",
    "onto their penalty stack": "auf den Strafstapel",
    "No cards in play": "Keine Karten im Spiel",
    "deal {deal} starts": "Durchgang {deal} beginnt",
    "the game starts": "die Partie beginnt",
    "NEW ROUND": "NEUE RUNDE",
    "TO BEAT": "ZU SCHLAGEN",
    "Lead": "Frei",
    "DEAL {deal} OF {deals}": "DURCHGANG {deal} VON {deals}",
    "in stock": "im Nachziehstapel",
    "stock empty": "Nachziehstapel leer",
    "{chips} chips": "{chips} Chips",
    "{n} deal": "{n} Durchgang",
    "{n} deals": "{n} Durchgänge",
    "highest score wins": "die meisten Punkte gewinnen",
    "DEALS": "DURCHGÄNGE",
    "THE DEAL": "DER DURCHGANG",
    "+{n} more deal": "+{n} weiterer Durchgang",
    "+{n} more deals": "+{n} weitere Durchgänge",
    "Deal {deal}": "Durchgang {deal}",
}

NAMES: dict[str, str] = {
    "deals": "durchgänge",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
