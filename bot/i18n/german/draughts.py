"""German texts for draughts: English template → German template (same placeholders)."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # Slash commands
    "Open a draughts board in this channel": "Ein Damebrett in diesem Kanal öffnen",
    "Give and Take (default) or classic Turkish draughts": (
        "Give and Take (Standard) oder klassische türkische Dame"
    ),
    "The side you play (the other player gets the other one)": (
        "Deine Farbe (der andere Spieler bekommt die andere)"
    ),
    "Make a move, e.g. c3-c4 or c4xc6xc8": "Einen Zug machen, z. B. c3-c4 oder c4xc6xc8",
    "The move in notation: c3-c4, or every landing square c4xc6xc8": (
        "Der Zug in Notation: c3-c4, oder jedes Landefeld c4xc6xc8"
    ),
    "Give and Take": "Give and Take",
    "Turkish": "Türkisch",
    "Turkish draughts": "Türkische Dame",
    "Random": "Zufällig",
    "White": "Weiß",
    "Black": "Schwarz",
    # Help and rules
    "Turkish-style draughts: men step sideways too, kings fly, captures chain.": (
        "Dame nach türkischer Art: Steine ziehen auch seitwärts, Damen fliegen, "
        "Schläge gehen in Serie."
    ),
    "**Board:** 8×8, every square used. White starts on ranks 2–3, Black on 6–7; White "
    "moves first. **Men** step one square forward or sideways; **kings** fly any distance "
    "along ranks and files.\n"
    "**Captures:** jump an adjacent enemy piece (kings from afar) to the empty square "
    "behind, and keep jumping while you can; 90° and 180° turns are allowed and taken "
    "pieces leave at once. Capturing is optional, except that if the piece your opponent "
    "just moved can be taken, you must take it first.\n"
    "**Kings:** a man reaching the far rank is crowned when its move ends; your last man "
    "becomes a king at once.\n"
    "**End:** no legal move loses. Draws: one piece each (once the side to move can't "
    "capture), threefold repetition, 100 plies without a capture or forward man move, or "
    "agreement. *Turkish* ruleset: captures are "
    "mandatory, the longest one must be taken, no 180° turns, no last-man promotion.\n"
    "**Example:** `c4xc6xc8` jumps from c4 over c5 to c6, then over c7 to c8.\n"
    "**Move** opens your panel: pick a piece, then its move; or type "
    "`/draughts move c3-c4`.": (
        "**Brett:** 8×8, alle Felder werden benutzt. Weiß beginnt auf den Reihen 2–3, "
        "Schwarz auf 6–7; Weiß zieht zuerst. **Steine** ziehen ein Feld vorwärts oder "
        "seitwärts; **Damen** ziehen beliebig weit entlang Reihen und Linien.\n"
        "**Schlagen:** Überspringe einen benachbarten gegnerischen Stein (Damen auch aus "
        "der Ferne) auf das leere Feld dahinter und schlag weiter, solange du kannst; "
        "Wendungen um 90° und 180° sind erlaubt, geschlagene Steine verschwinden sofort. "
        "Schlagen ist freiwillig – nur wenn der Stein, den dein Gegner gerade gezogen "
        "hat, geschlagen werden kann, musst du zuerst ihn schlagen.\n"
        "**Damen:** Ein Stein, der die gegnerische Grundreihe erreicht, wird am Ende "
        "seines Zugs zur Dame; dein letzter Stein wird sofort zur Dame.\n"
        "**Ende:** Wer nicht mehr ziehen kann, verliert. Remis: nur noch ein Stein pro Seite "
        "(sobald die Seite am Zug nicht schlagen kann), dreifache Stellungswiederholung, "
        "100 Halbzüge ohne Schlagen oder Vorwärtszug eines Steins, oder "
        "Einigung. *Türkische* Regeln: Schlagzwang, der längste Schlag muss genommen "
        "werden, keine 180°-Wendungen, keine Dame aus dem letzten Stein.\n"
        "**Beispiel:** `c4xc6xc8` springt von c4 über c5 nach c6, dann über c7 nach c8.\n"
        "**Zug** öffnet dein Panel: Wähle einen Stein, dann seinen Zug; oder tippe "
        "`/draughts zug c3-c4`."
    ),
    # The table
    "Move": "Zug",
    "**{name}** (White) to move.": "**{name}** (Weiß) ist am Zug.",
    "**{name}** (Black) to move.": "**{name}** (Schwarz) ist am Zug.",
    "Last move: `{move}`.": "Letzter Zug: `{move}`.",
    "A capture is required.": "Es herrscht Schlagzwang.",
    "{name} offers a draw.": "{name} bietet Remis an.",
    "Press **{button}** or type `/draughts move c3-c4`.": (
        "Drück **{button}** oder tippe `/draughts zug c3-c4`."
    ),
    "Rules": "Regeln",
    "{n} man": "{n} Stein",
    "{n} men": "{n} Steine",
    "{n} king": "{n} Dame",
    "{n} kings": "{n} Damen",
    # The Move panel
    "You play **White**.": "Du spielst **Weiß**.",
    "You play **Black**.": "Du spielst **Schwarz**.",
    "You play **no side**.": "Du spielst **keine Seite**.",
    "It's your opponent's move; this panel shows your moves when your turn comes.": (
        "Dein Gegner ist am Zug; dieses Panel zeigt deine Züge, sobald du dran bist."
    ),
    "You must capture: {squares}.": "Du musst schlagen: {squares}.",
    "This piece has {n} moves; type the others with /draughts move.": (
        "Dieser Stein hat {n} Züge; tippe die übrigen mit /draughts zug ein."
    ),
    "Pick a piece": "Wähle einen Stein",
    "Pick its move": "Wähle seinen Zug",
    "takes {n}": "schlägt {n}",
    "crowns": "wird Dame",
    "Play {move}": "{move} ziehen",
    "Play move": "Zug ausführen",
    "Accept draw": "Remis annehmen",
    "Offer draw": "Remis anbieten",
    "Resign": "Aufgeben",
    # Results
    "**Draw.**": "**Remis.**",
    "**{name}** wins!": "**{name}** gewinnt!",
    "Moves played": "Gespielte Züge",
    "White wins: Black has no pieces left.": "Weiß gewinnt: Schwarz hat keine Steine mehr.",
    "Black wins: White has no pieces left.": "Schwarz gewinnt: Weiß hat keine Steine mehr.",
    "White wins: Black has no legal move.": "Weiß gewinnt: Schwarz kann nicht mehr ziehen.",
    "Black wins: White has no legal move.": "Schwarz gewinnt: Weiß kann nicht mehr ziehen.",
    "White wins: Black resigned.": "Weiß gewinnt: Schwarz hat aufgegeben.",
    "Black wins: White resigned.": "Schwarz gewinnt: Weiß hat aufgegeben.",
    "Draw by agreement.": "Remis durch Einigung.",
    "Draw: one piece each.": "Remis: Beide haben nur noch einen Stein.",
    "Draw by threefold repetition.": "Remis durch dreifache Stellungswiederholung.",
    "Draw: {plies} plies without a capture or a forward man move.": (
        "Remis: {plies} Halbzüge ohne Schlagen oder Vorwärtszug eines Steins."
    ),
    # The picture
    "GIVE AND TAKE": "GIVE AND TAKE",
    "TURKISH DRAUGHTS": "TÜRKISCHE DAME",
    "{n} move played": "{n} Zug gespielt",
    "{n} moves played": "{n} Züge gespielt",
    "move {n}": "Zug {n}",
    "White wins": "Weiß gewinnt",
    "Black wins": "Schwarz gewinnt",
    "Draw": "Remis",
    "White to move": "Weiß am Zug",
    "Black to move": "Schwarz am Zug",
    "no pieces": "keine Steine",
    "lost {n}": "{n} verloren",
    "none lost": "keine verloren",
    "WINNER": "SIEGER",
    "TO MOVE": "AM ZUG",
    "LAST MOVE": "LETZTER ZUG",
    "White opens the game": "Weiß eröffnet die Partie",
    "CAPTURE REQUIRED": "SCHLAGZWANG",
    "the longest capture": "der längste Schlag",
    "take the piece on {square}": "schlag den Stein auf {square}",
    "a capture must be made": "es muss geschlagen werden",
    "DRAW OFFERED": "REMIS ANGEBOTEN",
    "by {name}": "von {name}",
    # Engine errors
    "The game is not over yet.": "Die Partie ist noch nicht vorbei.",
    "That is not a draughts move.": "Das ist kein Dame-Zug.",
    "Your draw offer already stands.": "Dein Remisangebot steht schon.",
    "Your opponent offers a draw: accept it, or move on.": (
        "Dein Gegner bietet Remis an: Nimm es an oder zieh weiter."
    ),
    "There is no draw offer to accept.": "Es gibt kein Remisangebot, das du annehmen könntest.",
    "{text!r} is not a move; write it like c3-c4, or c4xc6xc8 for a capture.": (
        "{text!r} ist kein Zug; schreib ihn wie c3-c4, oder c4xc6xc8 zum Schlagen."
    ),
    "{text!r} mixes - and x; a capture uses x throughout.": (
        "{text!r} mischt - und x; ein Schlag verwendet durchgehend x."
    ),
    "{text!r}: a move without capture has two squares.": (
        "{text!r}: Ein Zug ohne Schlagen hat genau zwei Felder."
    ),
    "{text!r} stands still.": "{text!r} bleibt auf der Stelle stehen.",
    "{text!r} is not a draughts action; write a move like c3-c4 or c4xc6xc8, "
    "or resign, offer draw, accept draw.": (
        "{text!r} ist keine Dame-Aktion; schreib einen Zug wie c3-c4 oder c4xc6xc8, "
        "oder aufgeben, remis anbieten, remis annehmen."
    ),
    "{move} could be {moves}: name every landing square.": (
        "{move} könnte {moves} sein: Nenne jedes Landefeld."
    ),
    "{move} is not legal: there is no piece on {start}.": (
        "{move} ist nicht erlaubt: Auf {start} steht kein Stein."
    ),
    "{move} is not legal: the piece on {start} is not yours.": (
        "{move} ist nicht erlaubt: Der Stein auf {start} gehört nicht dir."
    ),
    "{move} is not legal: you must make the longest capture (from {squares}).": (
        "{move} ist nicht erlaubt: Du musst den längsten Schlag machen (von {squares})."
    ),
    "{move} is not legal: you must capture the piece that just moved to {last} (from {squares}).": (
        "{move} ist nicht erlaubt: Du musst den Stein schlagen, der gerade nach {last} "
        "gezogen ist (von {squares})."
    ),
    "{move} is not a legal move here.": "{move} ist hier kein erlaubter Zug.",
    "{square!r} is not a square; files run a–h and ranks 1–8.": (
        "{square!r} ist kein Feld; die Linien gehen von a bis h, die Reihen von 1 bis 8."
    ),
    "A board is 64 squares of -2..2.": "Ein Brett besteht aus 64 Feldern mit Werten von -2 bis 2.",
    "The side to move is 1 (White) or -1 (Black).": (
        "Die Seite am Zug ist 1 (Weiß) oder -1 (Schwarz)."
    ),
    "Unknown ruleset {ruleset!r}.": "Unbekanntes Regelwerk {ruleset!r}.",
    "{fen!r}: a position starts with W or B (the side to move).": (
        "{fen!r}: Eine Stellung beginnt mit W oder B (die Seite am Zug)."
    ),
    "{fen!r}: each side's pieces start with W or B.": (
        "{fen!r}: Die Steine jeder Seite beginnen mit W oder B."
    ),
    "{fen!r} lists {colour} twice.": "{fen!r} nennt {colour} zweimal.",
    "{fen!r}: a side has at most {most} pieces.": (
        "{fen!r}: Eine Seite hat höchstens {most} Steine."
    ),
    "{fen!r}: {token!r} is not a square.": "{fen!r}: {token!r} ist kein Feld.",
    "{fen!r}: two pieces on {square}.": "{fen!r}: zwei Steine auf {square}.",
    "{fen!r}: a man can't stand on {square}, its promotion rank.": (
        "{fen!r}: Auf {square} kann kein Stein stehen, das ist die gegnerische Grundreihe."
    ),
    "The last-moved piece on {square} must belong to the side that just moved.": (
        "Der zuletzt gezogene Stein auf {square} muss der Seite gehören, die gerade gezogen hat."
    ),
    # The table's line of recent events
    "resigned": "hat aufgegeben",
    "accepted the draw offer": "hat das Remisangebot angenommen",
    "offered a draw": "bietet Remis an",
    "declined the draw offer and played {move}": "lehnt das Remis ab und zieht {move}",
    "{n} captured": "{n} geschlagen",
    "crowned": "zur Dame",
    # Resigning and the end of the game on the panel
    "Resigning loses the game. To resign, type `/draughts move resign confirm` "
    "or press **Resign** on your panel.": (
        "Aufgeben verliert die Partie. Zum Aufgeben tippe `/draughts zug aufgeben bestätigen` "
        "oder drücke **Aufgeben** in deinem Panel."
    ),
    "**The game is over:** {result}": "**Die Partie ist vorbei:** {result}",
    "a draw.": "Remis.",
    "White won.": "Weiß hat gewonnen.",
    "Black won.": "Schwarz hat gewonnen.",
    "you won.": "Du hast gewonnen.",
    "you lost.": "Du hast verloren.",
}

NAMES: dict[str, str] = {
    "move": "zug",
    "ruleset": "regelwerk",
    "colour": "farbe",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
