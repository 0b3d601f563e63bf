"""German texts for take: English template → German template (same placeholders).

Words: a run is a *Reihe*, a hand (one deal) a *Durchgang* (as in Escalation), the
stock the *Nachziehstapel*, the discard pile the *Ablagestapel*; to meld is *auslegen*,
to add *anlegen*, to take a run *übernehmen*; a floater (no cards left) is *blank*. The
move notation (``draw stock``, ``meld 5H JK=6H 7H``, ``add 8C to 3``) stays as it is."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # --- rules, help, slash commands ---
    """\
**Goal:** reach the target score over several hands. Runs you own at the end of a \
hand score their cards (2–9: 5, 10–K: 10, A: 15, joker: 20); \
cards left in your hand count against you.
**Your turn:** draw from the stock or take the discard, then lay down **runs** (3+ \
cards of one suit in sequence; ace low or high, not both; a joker stands for one card \
and keeps it), add cards to any run on the table, and end by discarding.
**Take:** adding to someone else's run makes it yours, and with it its points. \
Example: Alice owns 5♥ 6♥ 7♥; you add 8♥ and take all four. A 13-card run is \
**locked** and can't be taken.
**Discards:** not the card you just took, and never a card that could go on the table.
**My hand** opens your panel: draw, pick cards and confirm each meld or add, then \
press the card to discard.""": """\
**Ziel:** über mehrere Durchgänge die Zielpunktzahl erreichen. Reihen, die dir am Ende \
eines Durchgangs gehören, zählen ihre Karten (2–9: 5, 10–K: 10, A: 15, Joker: 20); Karten, die du \
dann noch auf der Hand hast, zählen gegen dich.
**Dein Zug:** Zieh vom Nachziehstapel oder nimm die oberste Karte vom Ablagestapel, leg dann \
**Reihen** aus (3+ Karten einer Farbe in Folge; Ass niedrig oder hoch, nicht beides; ein \
Joker steht für eine Karte und bleibt dabei), leg Karten an beliebige Reihen auf dem \
Tisch an und beende den Zug, indem du eine Karte abwirfst.
**Take:** Legst du an die Reihe eines anderen an, gehört sie dir, und mit ihr ihre Punkte. \
Beispiel: Alice gehört 5♥ 6♥ 7♥; du legst 8♥ an und übernimmst alle vier. Eine Reihe aus \
13 Karten ist **gesperrt** und kann nicht übernommen werden.
**Abwerfen:** nicht die Karte, die du gerade genommen hast, und nie eine Karte, die auf \
den Tisch passen würde.
**Meine Hand** öffnet dein Panel: Zieh, wähle Karten und bestätige jedes Auslegen oder \
Anlegen, dann drück die Karte, die du abwirfst.""",
    "A rummy of runs where adding to someone else's run takes it from them.": (
        "Ein Rommé mit Reihen: Wer an eine fremde Reihe anlegt, übernimmt sie."
    ),
    "Open a TAKE table in this channel": "Öffne einen TAKE-Tisch in diesem Kanal",
    "Cards dealt to each player (10 only with 2 players)": (
        "Karten, die jeder bekommt (10 nur zu zweit)"
    ),
    "Points that win the match": "Punkte, mit denen man die Partie gewinnt",
    # --- moves on the hand panel ---
    "Draw from the stock": "Vom Nachziehstapel ziehen",
    "Take the discard": "Ablagekarte nehmen",
    "Discard {cards} (ends your turn)": "{cards} abwerfen (beendet deinen Zug)",
    "Meld {cards}": "{cards} auslegen",
    "Meld {cards} (joker as {joker})": "{cards} auslegen (Joker als {joker})",
    "TAKE {runs} from {owners} with {cards}": "TAKE: {runs} von {owners} mit {cards}",
    "TAKE {runs} from {owners} with {cards} (joker as {joker})": (
        "TAKE: {runs} von {owners} mit {cards} (Joker als {joker})"
    ),
    "Add {cards} to {runs}": "{cards} an {runs} anlegen",
    "Add {cards} to {runs} (joker as {joker})": "{cards} an {runs} anlegen (Joker als {joker})",
    "run {id}": "Reihe {id}",
    "runs {ids}": "Reihen {ids}",
    # --- table, panel, results ---
    "empty": "leer",
    "Deal {hand} · target {target}. **{name}** draws.": (
        "Durchgang {hand} · Ziel {target}. **{name}** zieht."
    ),
    "Deal {hand} · target {target}. **{name}** plays.": (
        "Durchgang {hand} · Ziel {target}. **{name}** spielt."
    ),
    "Discard pile: **{top}** ({size}) · stock: {stock}.": (
        "Ablagestapel: **{top}** ({size}) · Nachziehstapel: {stock}."
    ),
    "**{name}**: {cards} · laid {laid} · total {total}": (
        "**{name}**: {cards} · ausgelegt {laid} · gesamt {total}"
    ),
    "Runs": "Reihen",
    "Last move": "Letzter Zug",
    "Last deal": "Letzter Durchgang",
    "The match is over.": "Die Partie ist vorbei.",
    "It's {name}'s turn; this panel follows the game.": (
        "{name} ist am Zug; dieses Panel folgt dem Spiel."
    ),
    "Draw a card to start your turn.": "Zieh eine Karte, um deinen Zug zu beginnen.",
    "Pick cards to meld or add to a run, or press a discard.": (
        "Wähl Karten zum Auslegen oder Anlegen, oder drück eine Karte zum Abwerfen."
    ),
    "Discard {card}": "{card} abwerfen",
    # --- recent moves and the summary of a deal ---
    "went out discarding {card}": "ging raus und warf {card} ab",
    "ended the deal": "beendete den Durchgang",
    "Deal {hand} ended: the stock ran out.": (
        "Durchgang {hand} ist vorbei: der Nachziehstapel ist aufgebraucht."
    ),
    "Deal {hand} ended: **{name}** went out.": "Durchgang {hand} ist vorbei: **{name}** ging raus.",
    "**{name}**: laid {laid} − held {held} = **{score}** · total {total}": (
        "**{name}**: ausgelegt {laid} − auf der Hand {held} = **{score}** · gesamt {total}"
    ),
    "Scores": "Punkte",
    "Final runs": "Reihen am Ende",
    "No move uses exactly these cards; change your pick.": (
        "Kein Zug passt genau zu diesen Karten; ändere deine Auswahl."
    ),
    "Pick cards": "Karten wählen",
    "Choose the move": "Zug wählen",
    "Confirm": "Bestätigen",
    "Confirm: {move}": "Bestätigen: {move}",
    "**{place}.** {name}: **{n}** point": "**{place}.** {name}: **{n}** Punkt",
    "**{place}.** {name}: **{n}** points": "**{place}.** {name}: **{n}** Punkte",
    "Deal {hand}: {scores}": "Durchgang {hand}: {scores}",
    "**{names}** wins the match!": "**{names}** gewinnt die Partie!",
    "**{names}** win the match!": "**{names}** gewinnen die Partie!",
    # --- engine errors ---
    "{text} is not a TAKE move; say draw stock, draw discard, meld <cards> "
    "(JK=7H for a joker), add <card> to <run> (two runs as 3+7) or discard <card>.": (
        "{text} ist kein TAKE-Zug; schreib draw stock, draw discard, meld <Karten> "
        "(JK=7H für einen Joker), add <Karte> to <Reihe> (zwei Reihen als 3+7) "
        "oder discard <Karte>."
    ),
    "Only a joker stands for another card, not {card}.": (
        "Nur ein Joker steht für eine andere Karte, nicht {card}."
    ),
    "Say which card the joker stands for, e.g. JK=7H.": (
        "Sag, für welche Karte der Joker steht, z. B. JK=7H."
    ),
    "Hands of {hand_size} cards are for two players only; "
    "with {count} players start again with 7.": (
        "Hände mit {hand_size} Karten gibt es nur zu zweit; mit {count} Spielern starte neu mit 7."
    ),
    "A stacked deck needs {needed} cards for {count} players with {hand_size} cards each "
    "(a starting discard and a stock card), not {given}.": (
        "Ein vorgegebenes Kartenspiel braucht {needed} Karten für {count} Spieler mit je "
        "{hand_size} Karten (dazu eine erste Ablagekarte und eine Karte für den "
        "Nachziehstapel), nicht {given}."
    ),
    "That is not a TAKE move.": "Das ist kein TAKE-Zug.",
    "Draw first: from the stock or the discard pile.": (
        "Zieh zuerst: vom Nachziehstapel oder vom Ablagestapel."
    ),
    "You can lay down every card you hold, so you must: that play would leave cards "
    "you couldn't lay down.": (
        "Du kannst alle deine Karten auslegen, also musst du das auch: Nach diesem Zug "
        "blieben dir Karten, die du nicht mehr auslegen könntest."
    ),
    "You have drawn already: lay down cards or discard.": (
        "Du hast schon gezogen: Leg Karten aus oder wirf eine ab."
    ),
    "A floater draws from the stock only.": ("Wer blank ist, zieht nur vom Nachziehstapel."),
    "The discard pile is empty: draw from the stock.": (
        "Der Ablagestapel ist leer: Zieh vom Nachziehstapel."
    ),
    "You took {card} from the discard pile: discard a different card.": (
        "Du hast {card} vom Ablagestapel genommen: Wirf eine andere Karte ab."
    ),
    "{card} can be added to a run on the table: play it instead.": (
        "{card} passt an eine Reihe auf dem Tisch: Leg sie dort an."
    ),
    "You can lay down every card you hold, so you must (and become a floater): no discard.": (
        "Du kannst alle deine Karten auslegen, also musst du das auch (und bist dann "
        "blank): kein Abwerfen."
    ),
    "A run needs at least {n} cards.": "Eine Reihe braucht mindestens {n} Karten.",
    "A run needs at least two natural cards (not jokers).": (
        "Eine Reihe braucht mindestens zwei echte Karten (keine Joker)."
    ),
    "A run is one suit: these cards are of different suits.": (
        "Eine Reihe hat nur eine Farbe: Diese Karten haben verschiedene Farben."
    ),
    "A joker can't stand for a card already in the run.": (
        "Ein Joker kann nicht für eine Karte stehen, die schon in der Reihe liegt."
    ),
    "{cards} is not a sequence of one suit "
    "(the ace is low or high, never both, and there is no wrap-around).": (
        "{cards} ist keine Folge in einer Farbe (das Ass liegt unten oder oben, nie "
        "beides, und über das Ass hinaus geht es nicht weiter)."
    ),
    "You hold {card}: meld it as itself instead of a joker standing for it.": (
        "Du hast {card} selbst: Leg die Karte aus statt eines Jokers, der für sie steht."
    ),
    "There is no run {run} on the table.": "Auf dem Tisch liegt keine Reihe {run}.",
    "Run {run} ({cards}) is locked: no one can add to it or take it.": (
        "Reihe {run} ({cards}) ist gesperrt: Niemand kann anlegen oder sie übernehmen."
    ),
    "{card} doesn't join run {first} ({first_cards}) and run {second} "
    "({second_cards}) into one run.": (
        "{card} verbindet Reihe {first} ({first_cards}) und Reihe {second} "
        "({second_cards}) nicht zu einer Reihe."
    ),
    "{card} joins run {run} ({cards}) to run {other}: add it to {both}.": (
        "{card} verbindet Reihe {run} ({cards}) mit Reihe {other}: Leg sie an {both} an."
    ),
    "{card} doesn't fit on either end of run {run} ({cards}).": (
        "{card} passt an kein Ende von Reihe {run} ({cards})."
    ),
    # --- the table image ---
    "STOCK": "NACHZIEHSTAPEL",
    "TURNED OVER": "UMGEDREHT",
    "DISCARD": "ABLAGE",
    "in pile": "abgelegt",
    "DEAL {hand} · FIRST TO {target} POINTS": "DURCHGANG {hand} · ZIEL: {target} PUNKTE",
    "to draw": "zieht",
    "took {card} from the discard pile": "nahm {card} vom Ablagestapel",
    "{who} drew from the stock": "{who} zog vom Nachziehstapel",
    "{who} took {cards} from the discard pile": "{who} nahm {cards} vom Ablagestapel",
    "a card": "eine Karte",
    "{who} discarded {card}": "{who} warf {card} ab",
    "{who} laid down {cards}": "{who} legte {cards} aus",
    "{who} took {runs} from {owners} with {card}": (
        "{who} übernahm {runs} von {owners} mit {card}"
    ),
    "{who} added {card} to {runs}": "{who} legte {card} an {runs} an",
    "{who} joined {runs} with {card}": "{who} verband {runs} mit {card}",
    "Deal {hand}:": "Durchgang {hand}:",
    "{name} went out": "{name} ist raus",
    "the stock ran out": "der Nachziehstapel ist leer",
    "MATCH OVER": "PARTIE VORBEI",
    "{points} after {hands}, playing to {target} · a hand scores laid minus held (laid-held)": (
        "{points} nach {hands}, Ziel {target} · Wertung: ausgelegt minus Hand (ausgelegt-Hand)"
    ),
    "{n} point": "{n} Punkt",
    "{n} points": "{n} Punkte",
    "{n} hand": "{n} Durchgang",
    "{n} hands": "{n} Durchgängen",  # only in "nach {hands}" (dative)
    "DEAL": "DURCHGANG",
    "Deal {hand}": "Durchgang {hand}",
    "Deals {first}-{last}": "Durchgänge {first}-{last}",
    "OUT": "RAUS",
    "DEALER": "GEBER",
    "WENT OUT": "IST RAUS",
    "held {n}": "behielt {n}",
    "held nothing": "behielt nichts",
    "FLOATER": "BLANK",
    "laid": "ausgelegt",
    "no runs": "keine Reihen",
    "held": "Rest",
    # --- the hand image ---
    "YOUR HAND": "DEINE HAND",
    "LEFT IN YOUR HAND": "REST AUF DEINER HAND",
    "{n} CARD": "{n} KARTE",
    "{n} CARDS": "{n} KARTEN",
    "{n} POINT": "{n} PUNKT",
    "{n} POINTS": "{n} PUNKTE",
    "match over": "Partie vorbei",
    "Your turn: draw": "Dein Zug: ziehen",
    "Your turn: lay down, add, then discard": "Dein Zug: auslegen, anlegen, abwerfen",
    "{name} to draw": "{name} zieht",
    "{name} to play": "{name} spielt",
    "TAKEN": "GENOMMEN",
    "any run": "jede Reihe",
    "No hand to show": "Keine Hand zu zeigen",
    "This view is not a player's own.": "Das ist nicht die Ansicht eines Spielers.",
    "Nothing left in hand": "Nichts mehr auf der Hand",
    "You held no cards at the end.": "Am Ende hattest du keine Karten mehr.",
    "No cards: you are a floater": "Keine Karten: Du bist blank",
    "Next turn you draw from the stock.": "Im nächsten Zug ziehst du vom Nachziehstapel.",
    "pile": "abgelegt",
    "stock {n}": "Nachziehstapel {n}",
}

NAMES: dict[str, str] = {
    "hand_size": "kartenzahl",
    "target": "ziel",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
