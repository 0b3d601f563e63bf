"""German texts for Give & Take: English template → German template (same placeholders).

Words: give pile → Gebestapel, take pile → Nehmestapel, director → Spielleitung,
duet → Duett, fight → Kampf, capture → erbeuten/Beute, turn → Runde,
leftovers → Restkarten, Go! → Los!
"""

from __future__ import annotations

GERMAN: dict[str, str] = {
    "At most {n} turns": "Höchstens {n} Runden",
    "Turns revealed without the director's Go": "Runden werden ohne „Los!“ aufgedeckt",
    # --- rules, help, slash commands ---
    """\
**Goal:** be the last player standing.
**Setup:** everyone gets two face-down piles: the **give** pile on their left and the \
**take** pile on their right. Nobody looks at their cards.
**A turn:** the director presses **Go**; everyone turns up the top card of both piles. \
Your **duet** is your take card plus the give card of the player to your right. Values: \
2–10, J 11, Q 12, K 13, A 1 or 14 (whichever helps). The lowest difference **captures** \
every card on the table plus the leftovers, and chooses the pile they go under \
(**Give pile** or **Take pile**; after a while the smaller pile is chosen for them).
**Example:** your duet is 7 and 5 (difference 2), your neighbour's K and 3 (10): you \
capture. A tie for the lowest is a **fight**: everyone turns up again on top.
**Out:** a player with an empty pile at the start of a turn (or during a fight) is out; \
their cards go to the middle. Places follow the order players go out.""": """\
**Ziel:** als Letzte oder Letzter im Spiel bleiben.
**Aufbau:** Alle bekommen zwei verdeckte Stapel: links den **Gebestapel**, rechts den \
**Nehmestapel**. Niemand sieht sich seine Karten an.
**Eine Runde:** Die Spielleitung drückt **Los!**; alle decken die oberste Karte beider \
Stapel auf. Dein **Duett** ist deine Nehmekarte plus die Gebekarte des Spielers rechts \
von dir. Werte: 2–10, J (Bube) 11, Q (Dame) 12, K (König) 13, A (Ass) 1 oder 14 (was \
günstiger ist). Die kleinste Differenz **erbeutet** alle Karten auf dem Tisch samt den \
Restkarten und wählt, unter welchen Stapel sie kommen (**Gebestapel** oder \
**Nehmestapel**; nach einer Weile wird der kleinere Stapel automatisch gewählt).
**Beispiel:** Dein Duett ist 7 und 5 (Differenz 2), das deines Nachbarn K und 3 (10): \
Du erbeutest alles. Teilen sich mehrere die kleinste Differenz, gibt es einen **Kampf**: \
Alle decken obendrauf erneut auf.
**Raus:** Wer zu Beginn einer Runde (oder während eines Kampfs) einen leeren Stapel hat, \
scheidet aus; seine Karten kommen in die Mitte. Die Plätze richten sich nach der \
Reihenfolge des Ausscheidens.""",
    "A war game in a ring: the lowest duet captures everything on the table.": (
        "Krieg im Kreis: Das niedrigste Duett erbeutet alles auf dem Tisch."
    ),
    "Open a Give & Take table in this channel": "Öffne einen Give-&-Take-Tisch in diesem Kanal",
    "Reveal every turn without waiting for the director's Go": (
        "Jede Runde aufdecken, ohne auf „Los!“ der Spielleitung zu warten"
    ),
    "After this many turns the player with most cards wins": (
        "Nach so vielen Runden gewinnt, wer die meisten Karten hat"
    ),
    # --- table, panel, results ---
    "My piles": "Meine Stapel",
    "Go!": "Los!",
    "Give pile ({n})": "Gebestapel ({n})",
    "Take pile ({n})": "Nehmestapel ({n})",
    "~~{name}~~ out": "~~{name}~~ raus",
    "~~{name}~~ out (turn {turn})": "~~{name}~~ raus (Runde {turn})",
    "{pointer}**{name}**{marks}: give {give} · take {take}": (
        "{pointer}**{name}**{marks}: geben {give} · nehmen {take}"
    ),
    "**{capturer}** captures **{n}** cards: under the give or the take pile?": (
        "**{capturer}** erbeutet **{n}** Karten: unter den Gebe- oder den Nehmestapel?"
    ),
    "**{capturer}** captures **{n}** cards after a fight: under the give or the take pile?": (
        "**{capturer}** erbeutet nach einem Kampf **{n}** Karten: unter den Gebe- oder "
        "den Nehmestapel?"
    ),
    "Turns are revealed automatically.": "Die Runden werden automatisch aufgedeckt.",
    "Waiting for **{director}** to press Go.": "Warten, bis **{director}** auf „Los!“ drückt.",
    "Waiting for the director to press Go.": "Warten, bis die Spielleitung auf „Los!“ drückt.",
    "Duets": "Duette",
    "Middle": "Mitte",
    "Turn {turn} of at most {cap}": "Runde {turn} von höchstens {cap}",
    "{n} leftover card · {turn}": "{n} Restkarte · {turn}",
    "{n} leftover cards · {turn}": "{n} Restkarten · {turn}",
    "Your give pile: **{n}** card": "Dein Gebestapel: **{n}** Karte",
    "Your give pile: **{n}** cards": "Dein Gebestapel: **{n}** Karten",
    "Your take pile: **{n}** card": "Dein Nehmestapel: **{n}** Karte",
    "Your take pile: **{n}** cards": "Dein Nehmestapel: **{n}** Karten",
    "the last player standing wins": "wer als Letzter übrig bleibt, gewinnt",
    "everyone left went out at once: most cards wins": (
        "alle Übrigen schieden gleichzeitig aus: die meisten Karten gewinnen"
    ),
    "the turn limit ({cap}) was reached: most cards wins": (
        "das Rundenlimit ({cap}) ist erreicht: die meisten Karten gewinnen"
    ),
    "**{winners}** wins! ({how})": "**{winners}** gewinnt! ({how})",
    "**{winners}** win! ({how})": "**{winners}** gewinnen! ({how})",
    # --- engine errors ---
    "Jokers are not used in Give & Take.": "Give & Take wird ohne Joker gespielt.",
    "{text} is not a Give & Take move; say go, give or take.": (
        "{text} ist kein Give-&-Take-Zug; erlaubt sind go, give und take."
    ),
    "A stacked deck needs at least 2 cards per player: {needed} for {count}, not {given}.": (
        "Ein vorgegebenes Kartenspiel braucht mindestens 2 Karten pro Spieler: {needed} "
        "für {count}, nicht {given}."
    ),
    "That is not a Give & Take move.": "Das ist kein Give-&-Take-Zug.",
    "You are out of this game.": "Du bist aus dieser Partie ausgeschieden.",
    "Only the director cues the next reveal.": (
        "Nur die Spielleitung gibt das Zeichen zum nächsten Aufdecken."
    ),
    "Nothing has been captured: the next reveal is due.": (
        "Es wurde nichts erbeutet: Als Nächstes wird aufgedeckt."
    ),
    "It's not your capture: wait for the capturer's choice.": (
        "Das ist nicht deine Beute: Warte, bis der Stapel gewählt ist."
    ),
    "Choose the give or the take pile for your capture first.": (
        "Wähle zuerst den Gebe- oder den Nehmestapel für deine Beute."
    ),
    # --- the table image ---
    "give": "Geben",
    "take": "Nehmen",
    "DIRECTOR": "SPIELLEITUNG",
    "CAPTURE": "BEUTE",
    "TIE": "GLEICHSTAND",
    "{name} captures {n} card": "{name} erbeutet {n} Karte",
    "{name} captures {n} cards": "{name} erbeutet {n} Karten",
    "Give or take pile?": "Gebe- oder Nehmestapel?",
    "Give or take pile? (default: give)": "Welcher Stapel? (Standard: Geben)",
    "Give or take pile? (default: take)": "Welcher Stapel? (Standard: Nehmen)",
    "Tie at {lowest}: everyone turns up again": "Gleichstand bei {lowest}: neu aufdecken",
    "Everyone turns up both top cards": "Alle decken ihre zwei obersten Karten auf",
    "Revealing the next cards": "Karten werden aufgedeckt",
    "Waiting for {name}: Go": "Warten auf {name}: Los",
    "TURN {turn} OF {cap}": "RUNDE {turn} VON {cap}",
    "TURN {turn} OF {cap} · AUTO": "RUNDE {turn} VON {cap} · AUTO",
    "Fight!": "Kampf!",
    "leftover in the centre": "Restkarte in der Mitte",
    "leftovers in the centre": "Restkarten in der Mitte",
    "NO CAPTURE YET": "NOCH KEINE BEUTE",
    "LAST CAPTURE · TURN {turn}": "LETZTE BEUTE · RUNDE {turn}",
    "LAST CAPTURE · TURN {turn} · FIGHT": "LETZTE BEUTE · RUNDE {turn} · KAMPF",
    "{name} took {n} card (give pile)": "{name} nahm {n} Karte (Gebestapel)",
    "{name} took {n} cards (give pile)": "{name} nahm {n} Karten (Gebestapel)",
    "{name} took {n} card (take pile)": "{name} nahm {n} Karte (Nehmestapel)",
    "{name} took {n} cards (take pile)": "{name} nahm {n} Karten (Nehmestapel)",
    "OUT OF THE GAME": "AUSGESCHIEDEN",
    "out": "raus",
    "out on turn {turn}": "raus in Runde {turn}",
    "out in a fight, turn {turn}": "raus im Kampf, Runde {turn}",
    "GAME OVER · TURN {turn}": "PARTIE VORBEI · RUNDE {turn}",
    "{name} wins": "{name} gewinnt",
    "Draw: {names}": "Unentschieden: {names}",
    "Game over": "Partie vorbei",
    "Last one standing · the others placed by the order they went out": (
        "Nur noch eine Person im Spiel · die anderen nach der Reihenfolge ihres "
        "Ausscheidens platziert"
    ),
    "Everyone left went out at once: most cards wins": (
        "Alle Übrigen schieden gleichzeitig aus: die meisten Karten gewinnen"
    ),
    "Turn cap of {cap} reached: most cards wins": (
        "Rundenlimit von {cap} erreicht: die meisten Karten gewinnen"
    ),
    "The game is over": "Die Partie ist vorbei",
    "last one standing": "bis zuletzt im Spiel",
    "went out on turn {turn}": "in Runde {turn} ausgeschieden",
    "went out in a fight on turn {turn}": "in Runde {turn} im Kampf ausgeschieden",
    "card": "Karte",
    # --- the private panel ---
    (
        "Your duet: your take card + **{right}**'s give card. Your give card goes to "
        "**{left}**'s duet."
    ): (
        "Dein Duett: deine Nehmekarte + die Gebekarte von **{right}**. Deine Gebekarte "
        "kommt ins Duett von **{left}**."
    ),
    "On the table: {take} + {give}, difference **{difference}**{lowest}.": (
        "Auf dem Tisch: {take} + {give}, Differenz **{difference}**{lowest}."
    ),
    " (the lowest)": " (die kleinste)",
    "The game is over: {reason}.": "Die Partie ist vorbei: {reason}.",
    "You went out on turn {turn}; the others play on.": (
        "Du bist in Runde {turn} ausgeschieden; die anderen spielen weiter."
    ),
    # --- the pile choice, results and the line of recent events ---
    "If the clock runs out first, the bot picks the smaller: the give pile.": (
        "Läuft die Zeit vorher ab, wählt der Bot den kleineren: den Gebestapel."
    ),
    "If the clock runs out first, the bot picks the give pile (both are as big).": (
        "Läuft die Zeit vorher ab, wählt der Bot den Gebestapel (beide sind gleich groß)."
    ),
    "If the clock runs out first, the bot picks the smaller: the take pile.": (
        "Läuft die Zeit vorher ab, wählt der Bot den kleineren: den Nehmestapel."
    ),
    "put {n} card under the give pile": "legte {n} Karte unter den Gebestapel",
    "put {n} cards under the give pile": "legte {n} Karten unter den Gebestapel",
    "put {n} card under the take pile": "legte {n} Karte unter den Nehmestapel",
    "put {n} cards under the take pile": "legte {n} Karten unter den Nehmestapel",
    "pressed Go: {name} captures {n} card": "drückte Los: {name} erbeutet {n} Karte",
    "pressed Go: {name} captures {n} cards": "drückte Los: {name} erbeutet {n} Karten",
    "pressed Go: a tie at {lowest}, everyone turns up again": (
        "drückte Los: Gleichstand bei {lowest}, alle decken erneut auf"
    ),
    "pressed Go": "drückte Los",
    "Fight! A tie for the lowest difference: **{director}** presses Go to turn up again.": (
        "Kampf! Gleichstand bei der kleinsten Differenz: **{director}** drückt „Los!“, "
        "um erneut aufzudecken."
    ),
    "**{place}.** {name}: {reason}": "**{place}.** {name}: {reason}",
    "**{place}.** {name}: {reason} ({n} card)": "**{place}.** {name}: {reason} ({n} Karte)",
    "**{place}.** {name}: {reason} ({n} cards)": "**{place}.** {name}: {reason} ({n} Karten)",
    "most cards at the turn limit": "die meisten Karten beim Rundenlimit",
    "fewer cards at the turn limit": "weniger Karten beim Rundenlimit",
    "most cards when all went out (turn {turn})": (
        "die meisten Karten, als alle ausschieden (Runde {turn})"
    ),
    "fewer cards when all went out (turn {turn})": (
        "weniger Karten, als alle ausschieden (Runde {turn})"
    ),
    "Tied again at {lowest}: turn up again": "Wieder gleich bei {lowest}: aufdecken",
    "FIRST CAPTURE OF THE GAME": "ERSTE BEUTE DER PARTIE",
    "PREVIOUS · TURN {turn} · FIGHT": "ZUVOR · RUNDE {turn} · KAMPF",
    "PREVIOUS · TURN {turn}": "ZUVOR · RUNDE {turn}",
}

NAMES: dict[str, str] = {
    "auto": "automatisch",
    "turn_cap": "rundenlimit",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
